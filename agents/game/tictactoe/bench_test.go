package tictactoe_test

import (
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// BenchmarkRandomGames plays uniformly random games from the empty board:
// the engine's speed, in games per second on one core.
func BenchmarkRandomGames(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		var bd tictactoe.Board
		for bd.Result() == game.Ongoing {
			bd = bd.Play(game.RandomMove(tictactoe.Game, bd.Position(), rng))
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
