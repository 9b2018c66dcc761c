package ntuple

import (
	"bytes"
	"compress/flate"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"slices"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
)

// Method is the n-tuple network learning by TD(λ) in self-play, as
// learn registers it.
var Method = &learn.Method{
	Name: "ntuple", Model: "n-tuple network", SelfPlay: true, Own: []*learn.Setting{LineTuples, Tuples, TupleLength, GrowAt, GrowLength, learn.RandomPlies, Lookahead, learn.Lambda},
	Summary:  "an n-tuple network (small tables over patterns of cells, Thill, Koch and Konen's Connect Four agent), learning by TD(λ)",
	Defaults: defaults,
	Check: func(s learn.Settings) error {
		if s.Int(LineTuples.Name) == 0 && s.Int(Tuples.Name) == 0 {
			return learn.Invalid([]string{LineTuples.Name, Tuples.Name}, func(n []string) string {
				return fmt.Sprintf("%s 0 and %s 0 leave the network without a tuple", n[0], n[1])
			})
		}
		if s.Int(GrowAt.Name) > 0 && s.Int(GrowLength.Name) <= s.Int(TupleLength.Name) {
			return learn.Invalid([]string{GrowLength.Name, TupleLength.Name}, func(n []string) string {
				return fmt.Sprintf("%s %d: a network grows by tuples longer than its first ones (%s %d)", n[0], s.Int(GrowLength.Name), n[1], s.Int(TupleLength.Name))
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
	GrowAt = &learn.Setting{Name: "grow_at", Usage: "training games after which the n-tuple network grows by its line tuples again, of --grow-length cells: at the first round that starts past them (0: it never grows)", Whole: true,
		In: func(v float64) bool { return v >= 0 && v <= 1e15 }, Range: "within 0..1e15"}
	GrowLength = &learn.Setting{Name: "grow_length", Usage: "cells of the tuples an n-tuple network grows by (see --grow-at)", Whole: true,
		In: func(v float64) bool { return v >= 2 && v <= MaxLen }, Range: fmt.Sprintf("within 2..%d", MaxLen),
		Made: "this league's n-tuple network grows by tuples of %s cells"}
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
		Own: map[string]float64{LineTuples.Name: 1, Tuples.Name: 0, TupleLength.Name: 6, GrowAt.Name: 5_000_000, GrowLength.Name: 8, learn.RandomPlies.Name: 16, Lookahead.Name: 1,
			learn.Lambda.Name: 0.5},
	}
	if g == tictactoe.Game {
		s.Own[LineTuples.Name], s.Own[Tuples.Name], s.Own[TupleLength.Name], s.Own[learn.RandomPlies.Name], s.Own[GrowAt.Name] = 0, 8, 6, 0, 0
		s.Epsilon = learn.Schedule{Start: 0.1, End: 0, Games: 20000}
		s.LRDecay = 0
	}
	return s
}

// newTD returns the TD(λ) learner of net as s says.
func newTD(net *Net, s learn.Settings, rng *rand.Rand) *TD {
	l := NewTD(net, float32(s.LR), float32(s.Float(learn.Lambda.Name)), s.Int(learn.RandomPlies.Name), s.Int(Lookahead.Name), rng)
	l.GrowAt, l.GrowLength = int64(s.Int(GrowAt.Name)), s.Int(GrowLength.Name)
	return l
}

var _ learn.Model = (*Net)(nil)

// Plays implements learn.Model.
func (n *Net) Plays() game.Game { return n.Game }

// Player implements learn.Model.
func (n *Net) Player() game.Player { return &Player{Net: n} }

// Views implements learn.Model: expected scores.
func (n *Net) Views() learn.Views { return learn.Scores }

// Layout implements learn.Model: a file of each side, and nothing
// that listings show; Describe says its tuples.
func (n *Net) Layout() learn.Layout { return learn.Layout{Sided: true} }

// Judge implements learn.Model: Afterstates, with a Pass of its own.
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
// file (encode), about a third the size of the file, in a deflate
// stream of stored blocks. Deflating it saved only a seventh (the
// entries' float bits are noise to it), and inflating those Huffman
// codes took most of the time of reading a grown network, which every
// command that shows, plays or replays one does; stored blocks read at
// the speed of a copy. Leagues of older ttt hold it compressed: the
// same reader reads both.
func (n *Net) Bytes() []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.NoCompression) // the level is valid
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

// Schedule implements learn.Learner: the rate of the games from games
// on, and the net grown if they are past GrowAt and it has not grown yet.
//
// A small net learns fast and levels off: the lines of 6 cells keep the
// value in about 92% of the random-ply positions after a few million
// games, and no more after twenty. A net of the lines of 8 alone learns
// slower from the start (each entry is seen sixteen times less often)
// but keeps learning. Grown by the lines of 8 once the lines of 6 have
// levelled off, it has both: the first minutes as fast as the small
// net, and then the larger net's slower climb, from where the small one
// stopped, since the new tables start at zero and the grown net values
// every position as before.
func (l *TD) Schedule(s learn.Settings, games int64) error {
	l.LR = float32(s.At(games).LR)
	if l.GrowAt == 0 || games < l.GrowAt || l.grown() {
		return nil
	}
	// The tuples it grows by are drawn by a generator seeded by the net's
	// own tuples, not by the learner's: a league resumed from its stored
	// net grows by the same tuples as one that never stopped.
	h := fnv.New64a()
	for _, t := range l.Net.Tuples {
		for _, c := range t {
			h.Write([]byte{byte(c)})
		}
		h.Write([]byte{0xff})
	}
	more := Lines(l.Net.Game.Board(), l.GrowLength, rand.New(rand.NewPCG(h.Sum64(), uint64(l.GrowLength))))
	grown, err := l.Net.Grow(more)
	if err != nil {
		return fmt.Errorf("growing the n-tuple network by %d tuples of %d cells: %w", len(more), l.GrowLength, err)
	}
	l.Net, l.own.net, l.frozen = grown, grown, nil
	return nil
}

// grown reports whether the net has grown: whether it has a tuple of
// GrowLength cells, which a net holds only once grown (the setting is
// longer than its first tuples).
func (l *TD) grown() bool {
	return slices.ContainsFunc(l.Net.Tuples, func(t []int) bool { return len(t) == l.GrowLength })
}

// Model implements learn.Learner.
func (l *TD) Model() learn.Model { return l.Net.Clone() }

// MarshalBinary implements learn.Learner: the network as a league stores
// it.
func (l *TD) MarshalBinary() ([]byte, error) { return l.Net.Bytes(), nil }
