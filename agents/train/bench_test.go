package train_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/agents/train"
)

// BenchmarkGame is one training game against the random opponent: the
// learner's sampled moves and the learning step after the game.
func BenchmarkGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	l := train.NewPolicy(nn.New(tictactoe.Game, nn.DefaultHidden, rng), nn.DefaultLR, 1, rng)
	opp := game.Random{Game: tictactoe.Game, Rand: rng}
	g := 0
	for b.Loop() {
		l.Play(game.Side(g%2), opp, 0.1)
		g++
	}
}

// BenchmarkTrain100k is training throughput: `ttt train --games 100000`
// with default settings, reported as games per second.
func BenchmarkTrain100k(b *testing.B) {
	cfg := train.Default(100000)
	for b.Loop() {
		if _, err := train.Run(context.Background(), cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cfg.Games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
