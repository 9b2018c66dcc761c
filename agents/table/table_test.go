package table_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/table"
)

// sample returns a table with a value for a spread of reachable
// positions in play, for both sides, drawn from seed.
func sample(seed uint64) *table.Table {
	rng := rand.New(rand.NewPCG(seed, 0))
	t := table.New(11, 6, -30, 0)
	for _, b := range tictactoe.Solve().Positions() {
		if b.Result() == game.Ongoing && rng.IntN(3) == 0 {
			t.Set(game.Side(rng.IntN(2)), b, rng.NormFloat64()*10)
		}
	}
	return t
}

// inPlay returns the reachable positions where a move is due.
func inPlay() []tictactoe.Board {
	var out []tictactoe.Board
	for _, b := range tictactoe.Solve().Positions() {
		if b.Result() == game.Ongoing {
			out = append(out, b)
		}
	}
	return out
}

func TestFileRoundTrip(t *testing.T) {
	tab := sample(1)
	data := tab.Bytes()
	if got, want := len(data), 44+12*tab.Len(); got != want || tab.Len() == 0 {
		t.Fatalf("%d values in %d bytes, want %d", tab.Len(), got, want)
	}
	back, err := table.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Bytes(), data) || back.Len() != tab.Len() {
		t.Error("the round trip changed the file")
	}
	// A table read back is the same player: the same move everywhere, and
	// the same value on every position, stored or not.
	for _, b := range inPlay() {
		if got, want := back.Move(b.Position()), tab.Move(b.Position()); got != want {
			t.Fatalf("%s: plays %d, the original %d", b.Compact(), got, want)
		}
		for _, side := range []game.Side{game.X, game.O} {
			if back.Value(side, b) != tab.Value(side, b) {
				t.Fatalf("%s: %s's value changed", b.Compact(), side)
			}
		}
	}
}

// The layout is the README's: magic, four float64 values, a count, then
// (uint32 state, float64 value) records in increasing order of state.
func TestFileLayout(t *testing.T) {
	tab := table.New(1, 0.5, 0, 0.25)
	x := tictactoe.Board{}.Play(4)         // X in the centre: index 3^4 = 81
	o := tictactoe.Board{}.Play(0).Play(8) // X 0, O 8: index 1 + 2*3^8 = 13123
	tab.Set(game.O, x, -2)
	tab.Set(game.X, o, 3)
	data := tab.Bytes()
	f64 := func(at int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(data[at:])) }
	u32 := func(at int) uint32 { return binary.LittleEndian.Uint32(data[at:]) }
	switch {
	case string(data[:8]) != "ttt-vtab":
		t.Errorf("magic %q", data[:8])
	case f64(8) != 1 || f64(16) != 0.5 || f64(24) != 0 || f64(32) != 0.25:
		t.Error("the header's values are not win, draw, loss, unseen")
	case u32(40) != 2 || len(data) != 44+24:
		t.Errorf("count %d in %d bytes", u32(40), len(data))
	case u32(44) != 13123 || f64(48) != 3:
		t.Errorf("first record: state %d value %v, want X's 13123, 3", u32(44), f64(48))
	case u32(56) != 19683+81 || f64(60) != -2:
		t.Errorf("second record: state %d value %v, want O's 19683+81, -2", u32(56), f64(60))
	}
}

func TestParseRefuses(t *testing.T) {
	good := sample(2).Bytes()
	edit := func(f func(d []byte) []byte) []byte { return f(bytes.Clone(good)) }
	putState := func(d []byte, rec int, s uint32) []byte {
		binary.LittleEndian.PutUint32(d[44+12*rec:], s)
		return d
	}
	xxx := tictactoe.Board{X: 0b111, O: 0b11000}.Index() // a finished game
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"empty", "not a value table", nil},
		{"a network's weights", "not a value table", make([]byte, 4*(19*2+10*2+9))},
		{"header cut short", "shorter than its 44-byte header", good[:30]},
		{"a record cut short", "the header says", good[:len(good)-1]},
		{"a byte too many", "the header says", append(bytes.Clone(good), 0)},
		{"count too large", "the header says", edit(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[40:], 1<<32-1); return d })},
		{"state past the last", "is past the last", edit(func(d []byte) []byte { return putState(d, 0, 2*19683) })},
		{"out of order", "is not after the one before", edit(func(d []byte) []byte { return putState(d, 1, 0) })},
		{"repeated", "is not after the one before", edit(func(d []byte) []byte {
			return putState(d, 1, binary.LittleEndian.Uint32(d[44:]))
		})},
		{"a finished game", "no position in play", edit(func(d []byte) []byte { return putState(d, 0, uint32(xxx)) })},
		{"an unreachable board", "no position in play", edit(func(d []byte) []byte { return putState(d, 0, 2+2*3) })}, // two O, no X
		{"NaN value", "the value is NaN", edit(func(d []byte) []byte {
			binary.LittleEndian.PutUint64(d[48:], math.Float64bits(math.NaN()))
			return d
		})},
		{"infinite win", "the win value is +Inf", edit(func(d []byte) []byte {
			binary.LittleEndian.PutUint64(d[8:], math.Float64bits(math.Inf(1)))
			return d
		})},
	} {
		if _, err := table.Parse(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// The frozen player is greedy and breaks ties at the lowest square: an
// empty table plays the lowest empty square, except where a move wins
// (worth Win, above Unseen) or, for want of one, draws.
func TestGreedyTies(t *testing.T) {
	tab := table.New(1, 0.5, 0, 0.4)
	for _, b := range inPlay() {
		want := -1
		for _, v := range []float64{1, 0.5, 0.4, 0} {
			for sq := 0; sq < 9 && want < 0; sq++ {
				if b.IsEmpty(sq) && tab.Value(b.ToMove(), b.Play(sq)) == v {
					want = sq
				}
			}
		}
		if got := tab.Move(b.Position()); got != want {
			t.Fatalf("%s: plays %d, want %d", b.Compact(), got, want)
		}
	}
	// A learner's ties are random, and each tied square gets its turn.
	rng := rand.New(rand.NewPCG(1, 2))
	var counts [9]int
	for range 900 {
		m, _ := tab.Best(tictactoe.Board{}, rng)
		counts[m]++
	}
	for sq, n := range counts {
		if n < 50 {
			t.Errorf("square %d chosen %d times of 900 among nine ties", sq, n)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(sample(4).Bytes())
	f.Add([]byte("ttt-vtab"))
	f.Add(table.New(1, 0.5, 0, 0.5).Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := table.Parse(data)
		if err != nil {
			return
		}
		// Whatever parses plays a legal move everywhere and writes back
		// to the very same file.
		for _, b := range inPlay() {
			if sq := tab.Move(b.Position()); sq < 0 || sq > 8 || !b.IsEmpty(sq) {
				t.Fatalf("%s: illegal move %d", b.Compact(), sq)
			}
		}
		if !bytes.Equal(tab.Bytes(), data) {
			t.Fatal("the file does not write back as it was read")
		}
	})
}
