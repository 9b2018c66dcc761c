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
	Name: "ntuple", Model: "n-tuple network", SelfPlay: true, Own: []*learn.Setting{LineTuples, Tuples, TupleLength, RandomPlies, Lookahead, learn.Lambda},
	Summary:  "an n-tuple network (small tables over patterns of cells, Thill, Koch and Konen's Connect Four agent), learning by TD(λ)",
	Defaults: defaults,
	Check: func(s learn.Settings) error {
		if s.Int(LineTuples.Name) == 0 && s.Int(Tuples.Name) == 0 {
			return learn.Invalid([]string{LineTuples.Name, Tuples.Name}, func(n []string) string {
				return fmt.Sprintf("%s 0 and %s 0 leave the network without a tuple", n[0], n[1])
			})
		}
		return nil
	},
	New: func(g game.Game, s learn.Settings, rng *rand.Rand) (learn.Learner, error) {
		var tuples [][]int
		if s.Int(LineTuples.Name) == 1 {
			tuples = Lines(g.Board(), s.Int(TupleLength.Name), rng)
		}
		walks, err := RandomWalks(g.Board(), s.Int(Tuples.Name), s.Int(TupleLength.Name), rng)
		if err != nil {
			return nil, err
		}
		tuples = append(tuples, walks...)
		net, err := New(g, tuples)
		if err != nil {
			return nil, err
		}
		return newTD(net, s, rng), nil
	},
	Resume: func(g game.Game, s learn.Settings, state []byte, rng *rand.Rand) (learn.Learner, error) {
		m, err := decode(g, state)
		if err != nil {
			return nil, err
		}
		return newTD(m.(*Net), s, rng), nil
	},
	Decode:   decode,
	ReadFile: ReadFile,
	MaxFile:  maxFile,
}

// The n-tuple learner's own settings.
var (
	LineTuples = &learn.Setting{Name: "line_tuples", Usage: "1: a tuple for each line that wins (each of its images under the board's symmetries once), grown to --tuple-length cells; 0: none",
		Whole: true, In: func(v float64) bool { return v == 0 || v == 1 }, Range: "0 or 1",
		Made: "this league's n-tuple network has line tuples %s (1: yes, 0: no)"}
	Tuples = &learn.Setting{Name: "tuples", Usage: "tuples of random walks of a new n-tuple network, besides the line tuples", Whole: true,
		In: func(v float64) bool { return v >= 0 && v <= maxTuples/2 }, Range: fmt.Sprintf("within 0..%d", maxTuples/2),
		Made: "this league's n-tuple network has %s tuples of random walks"}
	TupleLength = &learn.Setting{Name: "tuple_length", Usage: "cells of each tuple of a new n-tuple network", Whole: true,
		In: func(v float64) bool { return v >= 2 && v <= MaxLen }, Range: fmt.Sprintf("within 2..%d", MaxLen),
		Made: "this league's n-tuple network has tuples of %s cells"}
	RandomPlies = &learn.Setting{Name: "random_plies", Usage: "the most random moves a self-play game of the n-tuple learner starts with", Whole: true,
		In: func(v float64) bool { return v >= 0 && v <= 40 }, Range: "within 0..40"}
	Lookahead = &learn.Setting{Name: "lookahead", Usage: "plies the n-tuple learner looks ahead in its games, to choose its moves and set its targets: 1, each move's position; 2, the best reply to each move too", Whole: true,
		In: func(v float64) bool { return v == 1 || v == 2 }, Range: "1 or 2"}
)

// defaults are the n-tuple learner's settings for g, those that learned
// fastest on ttt's position sets (BENCHMARKS.md, "Choosing the tuples").
// In Connect Four: a tuple of six cells around each line of four (36
// tuples, each read under the mirror too), so that one entry holds a
// whole line of four. Eight cells make tables sixteen times larger, each
// entry seen sixteen times less often: they learned less in the first
// million games and no more after eight million, in checkpoints seven
// times the size. Random walks, which miss whole lines, learned less,
// and more of them trained slower. Games start with up to 16 random
// moves, which teach it the positions of any game, not only its own:
// fewer taught less, more no more.
func defaults(g game.Game) learn.Settings {
	s := learn.Settings{
		LR:      0.5,
		LRDecay: 5_000_000,
		Epsilon: learn.Schedule{Start: 0.1, End: 0.1},
		Own: map[string]float64{LineTuples.Name: 1, Tuples.Name: 0, TupleLength.Name: 6, RandomPlies.Name: 16, Lookahead.Name: 1,
			learn.Lambda.Name: 0.5},
	}
	if g == tictactoe.Game {
		s.Own[LineTuples.Name], s.Own[Tuples.Name], s.Own[TupleLength.Name], s.Own[RandomPlies.Name] = 0, 8, 6, 0
		s.Epsilon = learn.Schedule{Start: 0.1, End: 0, Games: 20000}
		s.LRDecay = 0
	}
	return s
}

// newTD returns the TD(λ) learner of net as s says.
func newTD(net *Net, s learn.Settings, rng *rand.Rand) *TD {
	return NewTD(net, float32(s.LR), float32(s.Float(learn.Lambda.Name)), s.Int(RandomPlies.Name), s.Int(Lookahead.Name), rng)
}

var _ learn.Sided = (*Net)(nil)

// Plays implements learn.Model.
func (n *Net) Plays() game.Game { return n.Game }

// Player implements learn.Model.
func (n *Net) Player() game.Player { return &Player{Net: n} }

// Views implements learn.Model: expected scores.
func (n *Net) Views() learn.Views { return learn.Scores }

var _ learn.Judge = (*Net)(nil)

// Judge implements learn.Judge: Afterstates, with a Pass of its own.
func (n *Net) Judge() func(p game.Position, values []float32) {
	var pass Pass
	return func(p game.Position, values []float32) { n.Afterstates(p, &pass, values) }
}

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
