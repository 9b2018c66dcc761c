package ntuple_test

import (
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/ntuple"
)

// BenchmarkSelfPlay is the n-tuple learner's training speed on one core:
// a game of Connect Four in self-play, learned from, with the default
// settings, on a net that has already learned a little (its entries are
// not all zero, so the tables are read as in a night's league).
func BenchmarkSelfPlay(b *testing.B) {
	g := connect4.Game
	s := ntuple.Method.Defaults(g)
	rng := rand.New(rand.NewPCG(1, 2))
	l, err := ntuple.Method.New(g, s, rng)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 20000 {
		l.Play(game.Side(i%2), nil, s.Epsilon.Start)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Play(game.Side(i%2), nil, s.Epsilon.Start)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
