package ntuple

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
)

// Method is the n-tuple network learning by TD(λ) in self-play, as
// learn registers it.
var Method = &learn.Method{
	Name: "ntuple", Model: "n-tuple network", SelfPlay: true, Reads: []string{"tuples", "tuple_length", "random_plies", "lambda"},
	Summary:  "an n-tuple network (small tables over patterns of cells, Thill, Koch and Konen's Connect Four agent), learning by TD(λ)",
	Defaults: defaults,
	Check:    check,
	New: func(g game.Game, s learn.Settings, rng *rand.Rand) (learn.Learner, error) {
		tuples, err := Tuples(g.Board(), s.Tuples, s.TupleLength, rng)
		if err != nil {
			return nil, err
		}
		net, err := New(g, tuples)
		if err != nil {
			return nil, err
		}
		return NewTD(net, float32(s.LR), float32(s.Lambda), s.RandomPlies, rng), nil
	},
	Resume: func(g game.Game, s learn.Settings, state []byte, rng *rand.Rand) (learn.Learner, error) {
		m, err := decode(g, state)
		if err != nil {
			return nil, err
		}
		return NewTD(m.(*Net), float32(s.LR), float32(s.Lambda), s.RandomPlies, rng), nil
	},
	Decode:   decode,
	ReadFile: ReadFile,
	MaxFile: maxFile,
}

// defaults are the n-tuple learner's settings for g: those that learned
// fastest on ttt's position sets (BENCHMARKS.md).
func defaults(g game.Game) learn.Settings {
	s := learn.Settings{
		LR:          0.5,
		LRDecay:     0,
		Epsilon:     learn.Schedule{Start: 0.1, End: 0.1},
		Temperature: 1,
		Lambda:      0.5,
		Tuples:      70,
		TupleLength: 8,
		RandomPlies: 8,
	}
	if g == tictactoe.Game {
		s.Tuples, s.TupleLength, s.RandomPlies = 8, 6, 0
		s.Epsilon = learn.Schedule{Start: 0.1, End: 0, Games: 20000}
	}
	return s
}

// check refuses tuples that cannot be drawn.
func check(s learn.Settings) error {
	switch {
	case s.Tuples < 1 || s.Tuples > maxTuples:
		return learn.OutOfRange("tuples", fmt.Sprintf("must be within 1..%d", maxTuples), s.Tuples)
	case s.TupleLength < 2 || s.TupleLength > MaxLen:
		return learn.OutOfRange("tuple_length", fmt.Sprintf("must be within 2..%d", MaxLen), s.TupleLength)
	case s.RandomPlies < 0 || s.RandomPlies > 40:
		return learn.OutOfRange("random_plies", "must be within 0..40", s.RandomPlies)
	}
	return nil
}

// Tuples returns the tuples of a new network of a game with board b:
// n random walks of length cells (RandomWalks).
func Tuples(b game.Board, n, length int, rng *rand.Rand) ([][]int, error) {
	return RandomWalks(b, n, length, rng)
}

var _ learn.Sided = (*Net)(nil)

// Plays implements learn.Model.
func (n *Net) Plays() game.Game { return n.Game }

// Player implements learn.Model.
func (n *Net) Player() game.Player { return &Player{Net: n} }

// Views implements learn.Model: expected scores.
func (n *Net) Views() learn.Views { return learn.Scores }

// Explain implements learn.Model: what the position after each legal
// move is worth to the side that plays it.
func (n *Net) Explain(pos game.Position, views []float64) int {
	var p Pass
	values := make([]float32, n.Game.Moves())
	m, _ := n.Afterstates(pos, &p, values)
	for k, v := range values {
		views[k] = float64(v)
	}
	return m
}

// Bytes implements learn.Model: a league stores the compact form of the
// file (encode), deflated, about a third the size of the file.
func (n *Net) Bytes() []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.DefaultCompression) // the level is valid
	w.Write(n.encode(nil, true))
	w.Close()
	return buf.Bytes()
}

// maxFile is the size of the largest file of a network of g: every entry
// of maxTuples tuples of MaxLen cells listed for both sides.
func maxFile(g game.Game) int64 {
	return 64 + maxTuples*(1+MaxLen) + 2*(4+8*maxTuples*int64(pow(g.Board().States, MaxLen)))
}

// decode reads what Bytes stored.
func decode(g game.Game, stored []byte) (learn.Model, error) {
	r := flate.NewReader(bytes.NewReader(stored))
	var data bytes.Buffer
	if _, err := data.ReadFrom(io.LimitReader(r, maxFile(g)+1)); err != nil {
		return nil, fmt.Errorf("a stored n-tuple network: %w", err)
	}
	side, rest, err := learn.ReadHeader(data.Bytes(), Magic, g, "an n-tuple network")
	switch {
	case err != nil:
		return nil, err
	case side != nil:
		return nil, fmt.Errorf("a stored n-tuple network of one side")
	}
	return parse(g, rest, nil, true)
}

// Describe implements learn.Model.
func (n *Net) Describe() string {
	return fmt.Sprintf("n-tuple network of %d tuples, %d entries", len(n.Tuples), len(n.W))
}

// Size implements learn.Model: its entries.
func (n *Net) Size() int { return len(n.W) }

// SetRate implements learn.Learner.
func (l *TD) SetRate(lr float64) { l.LR = float32(lr) }

// Model implements learn.Learner.
func (l *TD) Model() learn.Model { return l.Net.Clone() }

// MarshalBinary implements learn.Learner: the network as a league stores
// it.
func (l *TD) MarshalBinary() ([]byte, error) { return l.Net.Bytes(), nil }
