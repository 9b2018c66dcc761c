package connect4_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
)

// plain is the reference the solver is checked against: negamax over
// every line to the end, no table, no ordering, no pruning, in the
// solver's scores.
func plain(b connect4.Board) int {
	if b.Full() {
		return 0
	}
	best := -100
	for col := range connect4.Width {
		if !b.CanPlay(col) {
			continue
		}
		after := b.Play(col)
		var score int
		switch {
		case after.LastMoverWon():
			score = (connect4.Width*connect4.Height + 1 - b.Plies()) / 2
		default:
			score = -plain(after)
		}
		best = max(best, score)
	}
	return best
}

// latePositions returns positions of stones stones reached by random
// play, not over.
func latePositions(rng *rand.Rand, stones, n int) []connect4.Board {
	var out []connect4.Board
	for len(out) < n {
		var b connect4.Board
		for b.Plies() < stones && !b.LastMoverWon() && !b.Full() {
			b = b.Play(game.RandomMove(connect4.Game, b.Position(), rng))
		}
		if b.Plies() == stones && !b.LastMoverWon() {
			out = append(out, b)
		}
	}
	return out
}

// The solver's scores and analyses equal plain negamax's on late
// positions, whose every line plain negamax can follow.
func TestSolverMatchesPlainNegamax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := connect4.NewSolver(16)
	ctx := context.Background()
	for _, stones := range []int{36, 33, 31, 29} {
		for _, b := range latePositions(rng, stones, 40) {
			want := plain(b)
			if got, err := s.Solve(ctx, b, false); err != nil || got != want {
				t.Fatalf("%v\nsolver %d (%v), plain negamax %d", b, got, err, want)
			}
			weak, _ := s.Solve(ctx, b, true)
			if sign(weak) != sign(want) {
				t.Fatalf("%v\nweak solve %d, score %d", b, weak, want)
			}
			scores, err := s.Analyze(ctx, b, false)
			if err != nil {
				t.Fatal(err)
			}
			mirrored, _ := s.Analyze(ctx, b.Mirror(), false)
			for col := range connect4.Width {
				if !b.CanPlay(col) {
					continue
				}
				after := b.Play(col)
				want := (connect4.Width*connect4.Height + 1 - b.Plies()) / 2
				if !after.LastMoverWon() {
					want = -plain(after)
				}
				if scores[col] != want || mirrored[connect4.Width-1-col] != want {
					t.Fatalf("%v\ncolumn %d: solver %d (mirror %d), plain negamax %d", b, col+1, scores[col], mirrored[connect4.Width-1-col], want)
				}
			}
		}
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
