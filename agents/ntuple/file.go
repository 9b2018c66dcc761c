package ntuple

import (
	"encoding/binary"
	"fmt"
	"math"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// Magic starts an n-tuple network's file.
const Magic = "ttt-ntup"

// An n-tuple network's file is little-endian: the header of every file
// of ttt's own (learn.AppendHeader: Magic, the game, the side), the
// number of tuples as a uint32, each tuple as a byte of its length and a
// byte for each of its cells (the game's numbering), then the tables of
// each side that has just moved (X, then O; only the one side of a
// one-side file). A side's tables are each tuple's table in the order of
// the tuples, States^length entries each, the entry of a tuple whose
// cells are in states s0, s1, ... at s0 + States*s1 + States^2*s2 + ...;
// most entries are never met (Connect Four's gravity makes most patterns
// of cells impossible) and stay 0, so the file holds only the others: a
// uint32 count, then count pairs of a uint32 index into the side's
// entries, increasing, and the entry's float32 value.

// File implements learn.Model.
func (n *Net) File() []byte { return n.file(nil) }

// FileFor implements learn.Model: the tables of the positions side
// leaves, which are all it reads when it plays side.
func (n *Net) FileFor(side game.Side) []byte { return n.file(&side) }

func (n *Net) file(side *game.Side) []byte { return n.encode(side, false) }

// encode writes n's file, for one side where side is not nil; compact,
// the form a league stores: each count a uvarint, and each entry's index
// a uvarint of its gap from the one before less one, which takes one
// byte where the file's takes four.
func (n *Net) encode(side *game.Side, compact bool) []byte {
	sides := []game.Side{game.X, game.O}
	if side != nil {
		sides = []game.Side{*side}
	}
	buf := learn.AppendHeader(make([]byte, 0, 1<<16), Magic, n.Game, side)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(n.Tuples)))
	for _, t := range n.Tuples {
		buf = append(buf, byte(len(t)))
		for _, c := range t {
			buf = append(buf, byte(c))
		}
	}
	for _, s := range sides {
		w := n.table(s)
		count := 0
		for _, v := range w {
			if v != 0 {
				count++
			}
		}
		if compact {
			buf = binary.AppendUvarint(buf, uint64(count))
		} else {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(count))
		}
		last := -1
		for i, v := range w {
			if v == 0 {
				continue
			}
			if compact {
				buf = binary.AppendUvarint(buf, uint64(i-last-1))
			} else {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(i))
			}
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
			last = i
		}
	}
	return buf
}

// ReadFile reads an n-tuple network's file for g: no reading for a file
// that is not one. A one-side file's tables for the other side are
// zero.
func ReadFile(g game.Game, data []byte) ([]learn.Reading, error) {
	if !learn.HasMagic(data, Magic) {
		return nil, nil
	}
	side, rest, err := learn.ReadHeader(data, Magic, g, "an n-tuple network")
	if err != nil {
		return nil, err
	}
	n, err := parse(g, rest, side, false)
	if err != nil {
		return nil, fmt.Errorf("n-tuple network file: %w", err)
	}
	what := fmt.Sprintf("a %s n-tuple network of %d tuples", g.Title(), len(n.Tuples))
	if side != nil {
		what += ", playing " + side.String()
	}
	return []learn.Reading{{Model: n, Method: "ntuple", Side: side, What: what}}, nil
}

// parse reads the tuples and tables of a file, after its header, or of
// the compact form a league stores.
func parse(g game.Game, data []byte, side *game.Side, compact bool) (*Net, error) {
	if len(data) < 4 {
		return nil, fmt.Errorf("truncated")
	}
	count := int(binary.LittleEndian.Uint32(data))
	data = data[4:]
	if count < 1 || count > maxTuples {
		return nil, fmt.Errorf("%d tuples (1 to %d)", count, maxTuples)
	}
	tuples := make([][]int, count)
	for i := range tuples {
		if len(data) < 1 || len(data) < 1+int(data[0]) {
			return nil, fmt.Errorf("truncated in tuple %d", i)
		}
		n := int(data[0])
		for _, c := range data[1 : 1+n] {
			tuples[i] = append(tuples[i], int(c))
		}
		data = data[1+n:]
	}
	// Check the tuples before the tables are made: a file must not make
	// ttt allocate more than its tuples can hold.
	if _, err := entries(g.Board(), tuples); err != nil {
		return nil, err
	}
	n, err := New(g, tuples)
	if err != nil {
		return nil, err
	}
	sides := []game.Side{game.X, game.O}
	if side != nil {
		sides = []game.Side{*side}
	}
	for _, s := range sides {
		if data, err = readTable(n.table(s), data, compact); err != nil {
			return nil, fmt.Errorf("the tables of %s: %w", s, err)
		}
	}
	if len(data) > 0 {
		return nil, fmt.Errorf("%d bytes after the tables", len(data))
	}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// readTable reads one side's tables into w, and returns what follows.
func readTable(w []float32, data []byte, compact bool) ([]byte, error) {
	var count uint64
	if compact {
		c, n := binary.Uvarint(data)
		if n <= 0 {
			return nil, fmt.Errorf("truncated")
		}
		count, data = c, data[n:]
	} else {
		if len(data) < 4 {
			return nil, fmt.Errorf("truncated")
		}
		count, data = uint64(binary.LittleEndian.Uint32(data)), data[4:]
	}
	if count > uint64(len(w)) {
		return nil, fmt.Errorf("%d entries, of %d", count, len(w))
	}
	last := -1
	for range count {
		var i int
		if compact {
			gap, n := binary.Uvarint(data)
			if n <= 0 || gap >= uint64(len(w)) {
				return nil, fmt.Errorf("truncated, or an index out of range")
			}
			i, data = last+1+int(gap), data[n:]
		} else {
			if len(data) < 4 {
				return nil, fmt.Errorf("truncated")
			}
			i, data = int(binary.LittleEndian.Uint32(data)), data[4:]
		}
		if i <= last || i >= len(w) || len(data) < 4 {
			return nil, fmt.Errorf("entry %d out of order or range, or truncated", i)
		}
		w[i] = math.Float32frombits(binary.LittleEndian.Uint32(data))
		data = data[4:]
		last = i
	}
	return data, nil
}

// maxTuples bounds a network's tuples: a file cannot ask for more tables
// than a league would ever learn (256 tables of 4^8 entries are 67 MB a
// side).
const maxTuples = 256
