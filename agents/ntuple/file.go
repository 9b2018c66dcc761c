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
// byte for each of its cells (the game's numbering), then the tables as
// float32: for each side that has just moved (X, then O; only the one
// side of a one-side file), each tuple's table in the order of the
// tuples, States^length entries, the entry of a tuple whose cells are in
// states s0, s1, ... at index s0 + States*s1 + States^2*s2 + ....

// File implements learn.Model.
func (n *Net) File() []byte { return n.file(nil) }

// FileFor implements learn.Sided: the tables of the positions side
// leaves, which are all it reads when it plays side.
func (n *Net) FileFor(side game.Side) []byte { return n.file(&side) }

func (n *Net) file(side *game.Side) []byte {
	w := n.W
	if side != nil {
		w = n.table(*side)
	}
	buf := learn.AppendHeader(make([]byte, 0, 64+4*len(w)), Magic, n.Game, side)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(n.Tuples)))
	for _, t := range n.Tuples {
		buf = append(buf, byte(len(t)))
		for _, c := range t {
			buf = append(buf, byte(c))
		}
	}
	for _, v := range w {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
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
	n, err := parse(g, rest, side)
	if err != nil {
		return nil, fmt.Errorf("n-tuple network file: %w", err)
	}
	what := fmt.Sprintf("a %s n-tuple network of %d tuples", g.Title(), len(n.Tuples))
	if side != nil {
		what += ", playing " + side.String()
	}
	return []learn.Reading{{Model: n, Method: "ntuple", Side: side, What: what}}, nil
}

// parse reads the tuples and tables of a file, after its header.
func parse(g game.Game, data []byte, side *game.Side) (*Net, error) {
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
	// Check the size before the tables are made: a file must not make
	// ttt allocate what it does not hold.
	perSide, err := entries(g.Board(), tuples)
	if err != nil {
		return nil, err
	}
	sets := 2
	if side != nil {
		sets = 1
	}
	if len(data) != 4*sets*perSide {
		return nil, fmt.Errorf("%d bytes of tables where its tuples take %d", len(data), 4*sets*perSide)
	}
	n, err := New(g, tuples)
	if err != nil {
		return nil, err
	}
	w := n.W
	if side != nil {
		w = n.table(*side)
	}
	for i := range w {
		w[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// maxTuples bounds a network's tuples: a file cannot ask for more tables
// than a league would ever learn (256 tables of 4^8 entries are 134 MB a
// side).
const maxTuples = 256
