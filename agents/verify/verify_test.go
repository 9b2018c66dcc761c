package verify_test

import (
	"math/bits"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/verify"
)

// lowest plays the lowest empty square: easy to beat, easy to reason about.
type lowest struct{}

func (lowest) Move(b game.Board) int { return bits.TrailingZeros16(b.Empty()) }

func TestPerfectIsUnbeatable(t *testing.T) {
	for _, side := range []game.Side{game.X, game.O} {
		r := verify.Check(agents.Perfect(), side)
		if !r.Unbeatable() || r.LostLines != 0 || r.Optimal != r.Positions || r.Positions == 0 {
			t.Errorf("perfect as %s: %v", side, r)
		}
		if got := verify.VsRandom(agents.Perfect(), side, 2000, 1); got.Losses != 0 {
			t.Errorf("perfect as %s lost to random: %v", side, got)
		}
	}
	// Perfect as X against random wins nearly always; as a check that the
	// tally counts from the right side.
	if got := verify.VsRandom(agents.Perfect(), game.X, 1000, 2); got.Wins < 900 {
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
