package table

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// A table file is little-endian: the 8 bytes of Magic; the values Win,
// Draw, Loss and Unseen as float64; the number of records as a uint32;
// then one record per stored value, 12 bytes each, a uint32 state (see
// State) and the value as a float64, in increasing order of state. Every
// state is a reachable position in play: finished games are valued by
// the header, not stored.
const (
	Magic      = "ttt-vtab"
	headerSize = len(Magic) + 4*8 + 4
	recordSize = 4 + 8
)

// MaxFileSize is the size of a table file holding every state: nothing
// larger is a table file.
const MaxFileSize = headerSize + States*recordSize

// IsFile reports whether data starts as a table file does: what tells one
// apart from a network's weight file, which has no header.
func IsFile(data []byte) bool { return bytes.HasPrefix(data, []byte(Magic)) }

// Bytes returns t as a table file.
func (t *Table) Bytes() []byte {
	buf := make([]byte, 0, headerSize+t.n*recordSize)
	buf = append(buf, Magic...)
	for _, v := range []float64{t.Win, t.Draw, t.Loss, t.Unseen} {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	buf = binary.LittleEndian.AppendUint32(buf, uint32(t.n))
	for s, seen := range t.seen {
		if seen {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(s))
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(t.values[s]))
		}
	}
	return buf
}

// Parse reads a table file. It refuses a file without the magic, one
// whose length is not what its count of records says, a state out of
// range, out of order or repeated, a board that no game reaches or whose
// game is over, and a value that is NaN or infinite: what it returns
// plays a legal move in every position.
func Parse(data []byte) (*Table, error) {
	if !IsFile(data) {
		return nil, fmt.Errorf("not a value table: it does not start with %q", Magic)
	}
	if len(data) < headerSize {
		return nil, fmt.Errorf("value table: %d bytes, shorter than its %d-byte header", len(data), headerSize)
	}
	var head [4]float64
	for i := range head {
		head[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[len(Magic)+8*i:]))
		if math.IsNaN(head[i]) || math.IsInf(head[i], 0) {
			return nil, fmt.Errorf("value table: the %s value is %v", [...]string{"win", "draw", "loss", "unseen"}[i], head[i])
		}
	}
	t := New(head[0], head[1], head[2], head[3])
	count := int64(binary.LittleEndian.Uint32(data[headerSize-4:]))
	if want := int64(headerSize) + count*recordSize; int64(len(data)) != want {
		return nil, fmt.Errorf("value table: the header says %d records, a file of %d bytes, and it has %d", count, want, len(data))
	}
	reachable := inPlay()
	prev := -1
	for i := range int(count) {
		rec := data[headerSize+i*recordSize:]
		s := int(binary.LittleEndian.Uint32(rec))
		v := math.Float64frombits(binary.LittleEndian.Uint64(rec[4:]))
		switch {
		case s >= States:
			return nil, fmt.Errorf("value table: record %d: state %d is past the last, %d", i+1, s, States-1)
		case s <= prev:
			return nil, fmt.Errorf("value table: record %d: state %d is not after the one before, %d (records are in increasing order of state, each once)", i+1, s, prev)
		case !reachable[s%tictactoe.NumIndices]:
			return nil, fmt.Errorf("value table: record %d: state %d is no position in play of a game", i+1, s)
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fmt.Errorf("value table: record %d: the value is %v", i+1, v)
		}
		t.values[s], t.seen[s] = v, true
		prev = s
	}
	t.n = int(count)
	return t, nil
}

// inPlay marks, by board index, the positions that a game reaches and
// that are not over: the only ones a table stores.
var inPlay = sync.OnceValue(func() *[tictactoe.NumIndices]bool {
	var ok [tictactoe.NumIndices]bool
	for _, b := range tictactoe.Solve().Positions() {
		if b.Result() == game.Ongoing {
			ok[b.Index()] = true
		}
	}
	return &ok
})
