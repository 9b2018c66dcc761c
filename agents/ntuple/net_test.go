package ntuple_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/ntuple"
)

// trained returns a network of g that has learned from a few thousand
// games of self-play, so that its entries are not all zero.
func trained(t testing.TB, g game.Game, games int) (*ntuple.Net, *rand.Rand) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	s := ntuple.Method.Defaults(g)
	l, err := ntuple.Method.New(g, s, rng)
	if err != nil {
		t.Fatal(err)
	}
	for i := range games {
		l.Play(game.Side(i%2), nil, 0.2)
	}
	return l.Model().(*ntuple.Net), rng
}

// randomPositions returns positions in play reached by random moves.
func randomPositions(g game.Game, rng *rand.Rand, n int) []game.Position {
	var out []game.Position
	for len(out) < n {
		p := g.Start()
		for plies := rng.IntN(g.MaxPlies()); plies > 0 && g.Result(p) == game.Ongoing; plies-- {
			p = g.Play(p, game.RandomMove(g, p, rng))
		}
		if g.Result(p) == game.Ongoing {
			out = append(out, p)
		}
	}
	return out
}

// Afterstates sums only the entries a move changes; what it says of each
// move is what the net says of the position the move leaves, summed
// whole.
func TestAfterstatesAreTheirPositionsValues(t *testing.T) {
	for _, g := range []game.Game{connect4.Game, tictactoe.Game} {
		net, rng := trained(t, g, 3000)
		var p, q ntuple.Pass
		values := make([]float32, g.Moves())
		for _, pos := range randomPositions(g, rng, 500) {
			best, worth := net.Afterstates(pos, &p, values)
			side := g.ToMove(pos)
			for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
				m := trailing(legal)
				after := g.Play(pos, m)
				want := float32(0)
				switch g.Result(after) {
				case game.Ongoing:
					want = net.Value(after, &q)
				case game.Tie:
					want = ntuple.ScoreTie
				case game.Win(side):
					want = ntuple.ScoreWin
				}
				if math.Abs(float64(values[m]-want)) > 1e-5 {
					t.Fatalf("%s %v, move %d: afterstate %v, its position %v", g.Name(), pos, m, values[m], want)
				}
			}
			// The best is the lowest move within TieWidth of the most.
			most, want := float32(-1), -1
			for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
				most = max(most, values[trailing(legal)])
			}
			for legal := g.Legal(pos); legal != 0 && want < 0; legal &= legal - 1 {
				if m := trailing(legal); values[m] >= most-ntuple.TieWidth {
					want = m
				}
			}
			if best != want || worth != values[want] {
				t.Fatalf("%s %v: best %d (%v), want %d (%v) of %v", g.Name(), pos, best, worth, want, values[want], values)
			}
		}
	}
}

func trailing(m uint64) int {
	for i := 0; ; i++ {
		if m&(1<<i) != 0 {
			return i
		}
	}
}

// A position and its images under the board's symmetries are worth the
// same: every tuple is read under every symmetry.
func TestSymmetricPositionsAreWorthTheSame(t *testing.T) {
	g := connect4.Game
	net, rng := trained(t, g, 3000)
	var p ntuple.Pass
	for _, pos := range randomPositions(g, rng, 300) {
		b := connect4.FromPosition(pos)
		v, m := net.Value(pos, &p), net.Value(b.Mirror().Position(), &p)
		if math.Abs(float64(v-m)) > 1e-5 {
			t.Fatalf("%v: %v, its mirror image %v", pos, v, m)
		}
	}
}

// A network's file reads back as the same network, a file of one side as
// a network that plays that side as it does; a file read as another
// game's is refused, naming both.
func TestFile(t *testing.T) {
	for _, g := range []game.Game{connect4.Game, tictactoe.Game} {
		net, rng := trained(t, g, 2000)
		readings, err := ntuple.ReadFile(g, net.File())
		if err != nil || len(readings) != 1 || readings[0].Side != nil {
			t.Fatalf("%s: %v, %v", g.Name(), readings, err)
		}
		back := readings[0].Model.(*ntuple.Net)
		if !bytes.Equal(back.File(), net.File()) || !bytes.Equal(back.Bytes(), net.Bytes()) {
			t.Errorf("%s: the file read back writes another file", g.Name())
		}
		stored, err := ntuple.Method.Decode(g, net.Bytes())
		if err != nil || !bytes.Equal(stored.File(), net.File()) {
			t.Errorf("%s: the stored form reads back as another network (%v)", g.Name(), err)
		}
		if len(net.Bytes()) >= len(net.File()) {
			t.Errorf("%s: the stored form takes %d bytes, the file %d", g.Name(), len(net.Bytes()), len(net.File()))
		}
		for _, side := range []game.Side{game.X, game.O} {
			readings, err := ntuple.ReadFile(g, net.FileFor(side))
			if err != nil || len(readings) != 1 || readings[0].Side == nil || *readings[0].Side != side {
				t.Fatalf("%s, side %s: %v, %v", g.Name(), side, readings, err)
			}
			one, whole := readings[0].Model.Player(), net.Player()
			for _, pos := range randomPositions(g, rng, 300) {
				if g.ToMove(pos) == side && one.Move(pos) != whole.Move(pos) {
					t.Fatalf("%s, side %s, %v: the file of one side plays %d, the net %d", g.Name(), side, pos, one.Move(pos), whole.Move(pos))
				}
			}
		}
		other := tictactoe.Game
		if g == tictactoe.Game {
			other = connect4.Game
		}
		var oe *learn.OtherGameError
		if _, err := ntuple.ReadFile(other, net.File()); !asOther(err, &oe) {
			t.Errorf("%s file read for %s: %v", g.Name(), other.Name(), err)
		}
	}
}

func asOther(err error, target **learn.OtherGameError) bool {
	e, ok := err.(*learn.OtherGameError)
	*target = e
	return ok
}

// A damaged stored network is refused, never a panic.
func FuzzDecode(f *testing.F) {
	net, _ := trained(f, tictactoe.Game, 200)
	f.Add(net.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		if m, err := ntuple.Method.Decode(tictactoe.Game, data); err == nil {
			if err := m.Validate(); err != nil {
				t.Fatalf("decoded a network that does not validate: %v", err)
			}
		}
	})
}

// A damaged file is refused, whatever is damaged: never a panic, never a
// network that plays with entries that are not numbers.
func FuzzReadFile(f *testing.F) {
	net, _ := trained(f, tictactoe.Game, 200)
	f.Add(net.File())
	f.Add(net.FileFor(game.O))
	f.Fuzz(func(t *testing.T, data []byte) {
		readings, err := ntuple.ReadFile(tictactoe.Game, data)
		if err != nil {
			return
		}
		for _, r := range readings {
			if err := r.Model.Validate(); err != nil {
				t.Fatalf("read a network that does not validate: %v", err)
			}
		}
	})
}

// A net with an entry that is no finite number (a learner that diverged)
// fails Validate, which names the entry, wherever it is; one with the
// largest finite entries a sum can take passes.
func TestValidateFindsEveryNonFiniteEntry(t *testing.T) {
	net, _ := trained(t, connect4.Game, 200)
	for _, k := range []int{0, len(net.W) / 2, len(net.W) - 1} {
		for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
			c := net.Clone()
			c.W[k] = v
			if err := c.Validate(); err == nil || err.Error() != fmt.Sprintf("entry %d is %v", k, v) {
				t.Errorf("entry %d set to %v: Validate says %v", k, v, err)
			}
		}
	}
	c := net.Clone()
	c.W[len(c.W)-1] = -1e20
	if err := c.Validate(); err != nil {
		t.Errorf("an entry of -1e20: %v", err)
	}
}

// A file whose entries are finite but so large that a position's sum
// overflows float32 (and the sigmoid then plays blind) is refused, as a
// policy network's is; entries within the bound are read.
func TestOverflowingFileRefused(t *testing.T) {
	net, _ := trained(t, connect4.Game, 200)
	for i := range net.W {
		net.W[i] = 1e37 // each finite; summed over the tuples read, beyond float32
	}
	_, err := ntuple.ReadFile(connect4.Game, net.File())
	if err == nil || !strings.Contains(err.Error(), "the entries are too large: the sum of a position X has just moved to could reach") {
		t.Errorf("a file of entries of 1e37: %v", err)
	}
	for i := range net.W {
		net.W[i] = 1e20
	}
	if _, err := ntuple.ReadFile(connect4.Game, net.File()); err != nil {
		t.Errorf("a file of entries of 1e20: %v", err)
	}
}

// Replies moves the indices of each move's position from the position's,
// and each reply's from those: what it says of a move is one minus what
// Afterstates, a full evaluation, says of the best reply to it.
func TestRepliesAreTheBestRepliesWorth(t *testing.T) {
	for _, g := range []game.Game{connect4.Game, tictactoe.Game} {
		net, rng := trained(t, g, 3000)
		var p, q, r ntuple.Pass
		values, replies := make([]float32, g.Moves()), make([]float32, g.Moves())
		for _, pos := range randomPositions(g, rng, 300) {
			best, worth := net.Replies(pos, &p, &q, values)
			most := float32(-1)
			for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
				m := trailing(legal)
				after := g.Play(pos, m)
				var want float32
				switch res := g.Result(after); {
				case res == game.Tie:
					want = ntuple.ScoreTie
				case res != game.Ongoing:
					want = ntuple.ScoreWin
				default:
					_, reply := net.Afterstates(after, &r, replies)
					want = 1 - reply
				}
				if math.Abs(float64(values[m]-want)) > 1e-5 {
					t.Fatalf("%s %s, move %d: %v, want %v", g.Name(), g.Format(pos), m, values[m], want)
				}
				most = max(most, values[m])
			}
			if worth != values[best] || worth < most-ntuple.TieWidth || (values[best] != ntuple.ScoreWin && most == ntuple.ScoreWin) {
				t.Errorf("%s %s: best %d worth %v, the most %v", g.Name(), g.Format(pos), best, worth, most)
			}
		}
	}
}

// A learner grows once, when a round starts past GrowAt: by tuples of
// GrowLength cells, into a net that values every position as the small
// one did; a learner resumed from its stored net grows by the same
// tuples as one that never stopped, and a grown one does not grow again.
func TestGrowing(t *testing.T) {
	g := connect4.Game
	s := ntuple.Method.Defaults(g).With(ntuple.GrowAt.Name, 500).With(ntuple.TupleLength.Name, 4)
	newLearner := func() learn.Learner {
		l, err := ntuple.Method.New(g, s, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	train := func(l learn.Learner, from, to int) {
		for i := from; i < to; i++ {
			if i%250 == 0 { // as a league schedules it, a round at a time
				if err := l.Schedule(s, int64(i)); err != nil {
					t.Fatal(err)
				}
			}
			l.Play(game.Side(i%2), nil, 0.1)
		}
	}
	tuples := func(l learn.Learner) int { return len(l.Model().(*ntuple.Net).Tuples) }

	whole := newLearner()
	train(whole, 0, 500)
	small, before := whole.Model().(*ntuple.Net), tuples(whole)
	if err := whole.Schedule(s, 500); err != nil {
		t.Fatal(err)
	}
	grown := whole.Model().(*ntuple.Net)
	if tuples(whole) != 2*before {
		t.Fatalf("grown at 500 games: %d tuples, want twice the %d it had", tuples(whole), before)
	}
	for _, tu := range grown.Tuples[before:] {
		if len(tu) != 8 {
			t.Fatalf("grown by a tuple of %d cells, want 8", len(tu))
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var p1, p2 ntuple.Pass
	v1, v2 := make([]float32, g.Moves()), make([]float32, g.Moves())
	for range 200 {
		pos := g.Start()
		for k := rng.IntN(30); k > 0 && g.Result(pos) == game.Ongoing; k-- {
			pos = g.Play(pos, game.RandomMove(g, pos, rng))
		}
		if g.Result(pos) != game.Ongoing {
			continue
		}
		small.Afterstates(pos, &p1, v1)
		grown.Afterstates(pos, &p2, v2)
		if !slices.Equal(v1, v2) {
			t.Fatalf("in %v the grown net values the moves %v, the small one %v", pos, v2, v1)
		}
	}
	train(whole, 500, 1000)
	if tuples(whole) != 2*before {
		t.Errorf("after 1000 games: %d tuples, want %d: it grew again", tuples(whole), 2*before)
	}

	// Stopped at 250 games and at 750, and resumed from what it stored.
	resume := func(l learn.Learner) learn.Learner {
		state, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		r, err := ntuple.Method.Resume(g, s, state, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, stop := range []int{250, 750} {
		split := newLearner()
		train(split, 0, stop)
		split = resume(split)
		// The resumed learner draws its random moves afresh: compare the
		// tuples, which its games do not choose.
		train(split, stop, 1000)
		if got, want := split.Model().(*ntuple.Net).Tuples, whole.Model().(*ntuple.Net).Tuples; !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("stopped at %d games: grown to %d tuples, not the %d of the learner that never stopped", stop, len(got), len(want))
		}
	}
}
