package connect4_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"ttt/agents/game/connect4"
)

// BenchmarkRandomGames plays uniformly random games from the empty board:
// the engine's speed, in games per second on one core.
func BenchmarkRandomGames(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	plies := 0
	for b.Loop() {
		var bd connect4.Board
		for !bd.LastMoverWon() && !bd.Full() {
			bd = bd.Play(randomColumn(bd, rng))
			plies++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}

// randomColumn returns a uniformly random column with room, drawn again
// while the column drawn is full: the draw the figures of BENCHMARKS.md
// ("The engine", "The solver") were measured with. game.RandomMove, which
// ttt's players use, has the same distribution but another sequence (the
// solver's positions would change) and goes through the game's interface.
func randomColumn(b connect4.Board, rng *rand.Rand) int {
	for {
		if col := rng.IntN(connect4.Width); b.CanPlay(col) {
			return col
		}
	}
}

// tacticalPositions returns n positions of the given number of stones
// from games in which both sides play the tactician's move three times
// in four and a random move otherwise: positions a game between sensible
// players reaches, not decided by a blunder in one.
func tacticalPositions(rng *rand.Rand, stones, n int) []connect4.Board {
	var out []connect4.Board
	for len(out) < n {
		var b connect4.Board
		for b.Plies() < stones && !b.LastMoverWon() && !b.Full() {
			col := connect4.Tactician(b)
			if rng.IntN(4) == 0 {
				col = randomColumn(b, rng)
			}
			b = b.Play(col)
		}
		if b.Plies() == stones && !b.LastMoverWon() && b.WinningMoves() == 0 {
			out = append(out, b)
		}
	}
	return out
}

// BenchmarkSolve solves (strongly) a fixed set of positions by the number
// of stones on the board: the time per position and the nodes searched
// per second.
func BenchmarkSolve(b *testing.B) {
	for _, stones := range []int{30, 24, 20, 16, 14, 12, 10, 8} {
		positions := tacticalPositions(rand.New(rand.NewPCG(uint64(stones), 5)), stones, 10)
		b.Run(fmt.Sprintf("stones=%d", stones), func(b *testing.B) {
			s := connect4.NewSolver(24)
			nodes := s.Nodes()
			for b.Loop() {
				for _, p := range positions {
					if _, err := s.Solve(context.Background(), p, false); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N*len(positions)), "ms/position")
			b.ReportMetric(float64(s.Nodes()-nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkFirstMoves analyses the empty board: the known values of the
// seven first moves (the centre wins for the first player, the columns
// beside it draw, the rest lose). It takes an hour: run it with
// -benchtime 1x and a long -timeout.
func BenchmarkFirstMoves(b *testing.B) {
	want := []int{-1, -1, 0, 1, 0, -1, -1}
	for b.Loop() {
		start := time.Now()
		s := connect4.NewSolver(27) // 2^27 entries, 1 GB: the early search revisits far more positions than 2^24 hold
		scores, err := s.Analyze(context.Background(), connect4.Board{}, true)
		if err != nil {
			b.Fatal(err)
		}
		for col, w := range want {
			if scores[col] != w {
				b.Fatalf("column %d: %d, want %d", col+1, scores[col], w)
			}
		}
		b.Logf("the seven first moves in %v, %d nodes", time.Since(start).Round(time.Millisecond), s.Nodes())
	}
}
