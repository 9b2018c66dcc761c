package ntuple_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/learn"
	"ttt/agents/ntuple"
	"ttt/agents/verify"
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
	b.ReportMetric(randomSetShare(l.Model().Player()), "random-set-%")
}

// BenchmarkHogwild is lock-free parallel learning (Hogwild, Recht et al.
// 2011), for comparison with the league's actors: two goroutines, each a
// TD(λ) learner of its own playing its own games, update one shared net
// without a lock, each the entries its games selected. It is the fastest
// way to use both cores, and it has a data race by design: which update
// of an entry wins, and which values a game reads, depend on the
// scheduler, so no two runs learn the same net. b.N games in all; run it
// without -race.
func BenchmarkHogwild(b *testing.B) {
	g := connect4.Game
	s := ntuple.Method.Defaults(g)
	l, err := ntuple.Method.New(g, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	net := l.(*ntuple.TD).Net
	var wg sync.WaitGroup
	b.ResetTimer()
	for w := range 2 {
		td := ntuple.NewTD(net, float32(s.LR), float32(s.Float(learn.Lambda.Name)), s.Int(learn.RandomPlies.Name), 1, rand.New(rand.NewPCG(3, uint64(w))))
		wg.Go(func() {
			for i := w; i < b.N; i += 2 {
				td.Play(game.Side(i%2), nil, s.Epsilon.Start)
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(randomSetShare(net.Player()), "random-set-%")
}

// randomSetShare is the share of Connect Four's random-ply set where p
// keeps the position's value, in percent.
func randomSetShare(p game.Player) float64 {
	return verify.CheckSet(p, connect4.RandomSet()).All.Percent()
}

// BenchmarkLearning is the n-tuple learner's learning curve, outside a
// league, with the settings Connect Four's default changed one at a time:
// b.N games of self-play on one core, then the shares of the two position
// sets it keeps (the random-ply set, the tactical set). Run it with the
// games as -benchtime, e.g. -benchtime 8000000x (minutes a run). The
// cases with "again" grow the net a second time, at 10 M games, which no
// league does: whether a larger net lifts the plateau of the grown one.
func BenchmarkLearning(b *testing.B) {
	g := connect4.Game
	// The second growth: the lines of 8 again (other cells around each
	// line than the first growth's), or the papers' 70 random walks of 8.
	lines := func() ([][]int, error) { return ntuple.Lines(g.Board(), 8, rand.New(rand.NewPCG(7, 7))), nil }
	walks := func() ([][]int, error) { return ntuple.RandomWalks(g.Board(), 70, 8, rand.New(rand.NewPCG(7, 7))) }
	for _, c := range []struct {
		name  string
		decay int
		own   map[string]float64 // the defaults changed
		again func() ([][]int, error)
	}{
		{"lines6", 0, nil, nil},
		{"lines6/decay5M", 5_000_000, nil, nil},
		{"lines8/decay5M", 5_000_000, map[string]float64{ntuple.TupleLength.Name: 8}, nil},
		{"lines6/decay5M/lookahead2", 5_000_000, map[string]float64{ntuple.Lookahead.Name: 2}, nil},
		{"lines6/decay5M/grow8at4M", 5_000_000, map[string]float64{ntuple.GrowAt.Name: 4_000_000}, nil},
		{"lines6/decay5M/grow8at10M", 5_000_000, map[string]float64{ntuple.GrowAt.Name: 10_000_000}, nil},
		{"lines6/decay5M/grow8at5M/random30", 5_000_000, map[string]float64{ntuple.GrowAt.Name: 5_000_000, learn.RandomPlies.Name: 30}, nil},
		{"lines6/decay5M/grow8at5M/again/lines8", 5_000_000, map[string]float64{ntuple.GrowAt.Name: 5_000_000}, lines},
		{"lines6/decay5M/grow8at5M/again/walks70", 5_000_000, map[string]float64{ntuple.GrowAt.Name: 5_000_000}, walks},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := ntuple.Method.Defaults(g)
			s.LRDecay = c.decay
			s = s.With(ntuple.GrowAt.Name, 0)
			for name, v := range c.own {
				s = s.With(name, v)
			}
			l, err := ntuple.Method.New(g, s, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if i%100_000 == 0 { // as a league schedules it, a round at a time
					if err := l.Schedule(s, int64(i)); err != nil {
						b.Fatal(err)
					}
				}
				if c.again != nil && i == 10_000_000 {
					more, err := c.again()
					if err == nil {
						err = ntuple.GrowAgain(l.(*ntuple.TD), more)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				l.Play(game.Side(i%2), nil, s.Epsilon.Start)
			}
			p := l.Model().Player()
			b.ReportMetric(randomSetShare(p), "random-set-%")
			b.ReportMetric(verify.CheckSet(p, connect4.PositionSet()).All.Percent(), "tactical-set-%")
			b.ReportMetric(float64(len(l.Model().Bytes())), "stored-bytes")
		})
	}
}
