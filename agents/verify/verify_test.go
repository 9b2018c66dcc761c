package verify_test

import (
	"context"
	"math"
	"math/bits"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/testkit"
	"ttt/agents/verify"
)

// lowest plays the lowest empty square: easy to beat, easy to reason about.
type lowest struct{}

func (lowest) Move(p game.Position) int {
	return bits.TrailingZeros16(tictactoe.FromPosition(p).Empty())
}

func TestPerfectIsUnbeatable(t *testing.T) {
	for _, side := range []game.Side{game.X, game.O} {
		r := verify.Check(tictactoe.Perfect(), side)
		if !r.Unbeatable() || r.LostLines != 0 || r.Optimal != r.Positions || r.Positions == 0 {
			t.Errorf("perfect as %s: %v", side, r)
		}
		if got, _ := verify.VsRandom(context.Background(), tictactoe.Perfect(), side, 2000, 1); got.Losses != 0 {
			t.Errorf("perfect as %s lost to random: %v", side, got)
		}
	}
	// Perfect as X against random wins nearly always; as a check that the
	// tally counts from the right side.
	if got, _ := verify.VsRandom(context.Background(), tictactoe.Perfect(), game.X, 1000, 2); got.Wins < 900 {
		t.Errorf("perfect X vs random: %v", got)
	}
}

func TestLowestSquareIsBeatable(t *testing.T) {
	// As O, "lowest square" answers 4 with 0, 1, 2...: X wins by force.
	r := verify.Check(lowest{}, game.O)
	if r.Unbeatable() || r.LostLines == 0 || r.Worst != game.Loss {
		t.Errorf("lowest as O: %v", r)
	}
	if r.LostLines > r.Lines || r.Optimal >= r.Positions {
		t.Errorf("lowest as O: counts out of order: %v", r)
	}
	// Its first position is the empty board when it plays X: playing 0 is
	// optimal there (a corner draws).
	x := verify.Check(lowest{}, game.X)
	if x.Positions == 0 || x.Optimal == 0 {
		t.Errorf("lowest as X: %v", x)
	}
}

// Counting lines by hand: X plays lowest, and O's every reply is a line.
// After X takes 0, O has 8 replies; the check must visit at least that
// many complete games, and never more than 8*6*4*2 of them.
func TestLineCountIsBounded(t *testing.T) {
	r := verify.Check(lowest{}, game.X)
	if r.Lines < 8 || r.Lines > 8*6*4*2 {
		t.Errorf("lowest as X: %d lines", r.Lines)
	}
}

// enumerate follows every game of p as side against the random opponent
// without sharing any position between move orders: the plain tree walk
// that Exact's memoised one must agree with.
func enumerate(p game.Player, side game.Side, b tictactoe.Board, prob float64, e *game.Expect) {
	switch b.Result() {
	case game.Tie:
		e.Draw += prob
		return
	case game.Win(side):
		e.Win += prob
		return
	case game.Win(side.Other()):
		e.Loss += prob
		return
	}
	if b.ToMove() == side {
		enumerate(p, side, b.Play(p.Move(b.Position())), prob, e)
		return
	}
	n := bits.OnesCount16(b.Empty())
	for sq := range 9 {
		if b.IsEmpty(sq) {
			enumerate(p, side, b.Play(sq), prob/float64(n), e)
		}
	}
}

func TestExactMatchesEnumeration(t *testing.T) {
	for name, p := range map[string]game.Player{"lowest": lowest{}, "perfect": tictactoe.Perfect()} {
		for _, side := range []game.Side{game.X, game.O} {
			var want game.Expect
			enumerate(p, side, tictactoe.Board{}, 1, &want)
			got := verify.Exact(p, side)
			const tol = 1e-12
			if math.Abs(got.Win-want.Win) > tol || math.Abs(got.Draw-want.Draw) > tol || math.Abs(got.Loss-want.Loss) > tol {
				t.Errorf("%s as %s: Exact %+v, enumeration %+v", name, side, got, want)
			}
			if sum := got.Win + got.Draw + got.Loss; math.Abs(sum-1) > tol {
				t.Errorf("%s as %s: probabilities add up to %v", name, side, sum)
			}
		}
	}
}

func TestPerfectNeverLosesToRandom(t *testing.T) {
	for _, side := range []game.Side{game.X, game.O} {
		e := verify.Exact(tictactoe.Perfect(), side)
		if e.Loss != 0 || e.Win <= e.Draw {
			t.Errorf("perfect as %s: %v", side, e)
		}
		if e.Score() != e.Win+e.Draw/2 {
			t.Errorf("score %v of %v", e.Score(), e)
		}
	}
}

// A million sampled games must land within four standard errors of the
// exact figures, for each result. It belongs to the long tier;
// TestExactMatchesFewerSamples is its quick sibling.
func TestExactMatchesSampling(t *testing.T) {
	testkit.Long(t, "a million games a side; TestExactMatchesFewerSamples samples 20,000")
	exactMatchesSampling(t, 1_000_000)
}

// TestExactMatchesFewerSamples is TestExactMatchesSampling with 20,000
// games a side: four standard errors are wider, the check the same.
func TestExactMatchesFewerSamples(t *testing.T) {
	exactMatchesSampling(t, 20_000)
}

// exactMatchesSampling samples games games a side of two players against
// random, and checks them against the exact figures.
func exactMatchesSampling(t *testing.T, games int) {
	for name, p := range map[string]game.Player{"lowest": lowest{}, "perfect": tictactoe.Perfect()} {
		for _, side := range []game.Side{game.X, game.O} {
			e := verify.Exact(p, side)
			tally, err := verify.VsRandom(context.Background(), p, side, games, 7)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []struct {
				what  string
				p     float64
				count int
			}{{"wins", e.Win, tally.Wins}, {"draws", e.Draw, tally.Draws}, {"losses", e.Loss, tally.Losses}} {
				se := math.Sqrt(r.p * (1 - r.p) / float64(games))
				if got := float64(r.count) / float64(games); math.Abs(got-r.p) > 4*se || (r.p == 0 && r.count != 0) {
					t.Errorf("%s as %s: %s %.5f sampled, %.5f exact (4 standard errors %.5f)", name, side, r.what, got, r.p, 4*se)
				}
			}
		}
	}
}

func TestReportPerfect(t *testing.T) {
	for _, side := range []game.Side{game.X, game.O} {
		if r := verify.Check(tictactoe.Perfect(), side); !r.Perfect() {
			t.Errorf("perfect as %s: %v is not perfect", side, r)
		}
	}
	if r := verify.Check(lowest{}, game.O); r.Perfect() {
		t.Errorf("lowest as O: %v is perfect", r)
	}
	if (game.Report{}).Perfect() {
		t.Error("a report of no positions is perfect")
	}
}

// BenchmarkExact is the exact expectation of a move table against
// random, for one side: what the league computes for every snapshot.
func BenchmarkExact(b *testing.B) {
	p := tictactoe.Perfect()
	for b.Loop() {
		verify.Exact(p, game.O)
	}
}

func TestMistakes(t *testing.T) {
	sol := tictactoe.Solve()
	for _, side := range []game.Side{game.X, game.O} {
		if m := verify.Mistakes(tictactoe.Perfect(), side); len(m) != 0 {
			t.Errorf("perfect as %s: %d mistakes", side, len(m))
		}
		r := verify.Check(lowest{}, side)
		m := verify.Mistakes(lowest{}, side)
		if len(m) != r.Positions-r.Optimal || len(m) == 0 {
			t.Errorf("lowest as %s: %d mistakes, the check counts %d", side, len(m), r.Positions-r.Optimal)
		}
		seen := map[tictactoe.Board]bool{}
		for _, b := range m {
			if b.ToMove() != side || sol.Optimal(b, lowest{}.Move(b.Position())) || seen[b] {
				t.Errorf("lowest as %s: %s is not a new mistake", side, b.Compact())
			}
			seen[b] = true
		}
	}
}
