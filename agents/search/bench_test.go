package search_test

import (
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/ntuple"
	"ttt/agents/search"
)

// BenchmarkMove is the time of a searched move in Connect Four, on one
// core, over the random-ply set's positions, around an n-tuple network
// with the default settings that has learned from 200,000 games of
// self-play: a network that orders moves as a trained one does, which
// is what alpha-beta's pruning depends on. BENCHMARKS.md gives the
// times around a league's best, measured by ttt verify.
func BenchmarkMove(b *testing.B) {
	g := connect4.Game
	s := ntuple.Method.Defaults(g)
	l, err := ntuple.Method.New(g, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 200000 {
		l.Play(game.Side(i%2), nil, s.Epsilon.Start)
	}
	m := l.Model()
	positions := connect4.RandomSet()
	for _, spec := range []string{"ab2", "ab4", "ab6", "ab8", "mcts100", "mcts800", "mcts3200"} {
		b.Run(spec, func(b *testing.B) {
			sp, _ := search.Parse(spec)
			p := search.Wrap(m, sp).Player()
			for i := 0; i < b.N; i++ {
				p.Move(positions[i%len(positions)].Position)
			}
		})
	}
}
