package expert_test

import (
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"ttt/agents"
	"ttt/agents/conv"
	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/learn"
	"ttt/agents/lines"
	"ttt/agents/search"
	"ttt/agents/verify"
	"ttt/league"
)

// BenchmarkDistill measures how much of a teacher's search each kind and
// shape of network learns, apart from a league: 20,000 Connect Four games, from
// up to 20 random moves and then the teacher's own moves (exploring at
// 0.1), every position labelled by the teacher searched 4 plies deep;
// then the learner takes them in, 256 at a time, in the order played
// (b.N times, each followed by four steps of Adam on 256 drawn from all
// it took in, each mirrored at random; the set again once it has taken
// it all), and the shares of value-keeping moves on the two position
// sets at the end.
// The teacher is an n-tuple network's file (ttt export), in TTT_NET;
// without it the benchmark skips.
//
//	TTT_NET=t1.bin go test ./agents/expert -run '^$' -bench 'Distill/lines$' -benchtime 5000x
func BenchmarkDistill(b *testing.B) {
	file := os.Getenv("TTT_NET")
	if file == "" {
		b.Skip("TTT_NET names no teacher's file")
	}
	g := connect4.Game
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	teacher, err := agents.ReadFile(g, data, func(r learn.Reading) bool { return r.Model.Judge() != nil })
	if err != nil {
		b.Fatal(err)
	}
	set := labelled(teacher.Model, 20_000, 20, 4)
	convNet := func(s conv.Shape) func(*rand.Rand) (expert.Net, error) {
		return func(rng *rand.Rand) (expert.Net, error) { return conv.New(g, s, rng) }
	}
	for _, c := range []struct {
		name string
		net  func(*rand.Rand) (expert.Net, error)
		lr   float32
	}{
		{"mlp", convNet(conv.Shape{Layers: 0, HeadChannels: 8, Hidden: 256}), 0.001},
		{"conv3x16", convNet(conv.DefaultShape), 0.001},
		{"conv4x32", convNet(conv.Shape{Layers: 4, Channels: 32, HeadChannels: 4, Hidden: 64}), 0.001},
		{"lines", func(rng *rand.Rand) (expert.Net, error) { return lines.New(g, lines.DefaultShape, rng) }, 0.003},
	} {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(7, 7))
			net, err := c.net(rng)
			if err != nil {
				b.Fatal(err)
			}
			l := expert.NewExpert(net, 4, 0, len(set), c.lr, rng)
			next, cpu := 0, league.ProcessCPU()
			for b.Loop() {
				if next+256 > len(set) {
					next = 0
				}
				l.Learn(&expert.Episode{Samples: set[next : next+256]})
				next += 256
			}
			b.ReportMetric(float64(b.N*l.Reuse*l.Batch)/(league.ProcessCPU()-cpu).Seconds(), "samples/CPU-s")
			p := l.Model().Player()
			b.ReportMetric(100*verify.CheckSet(p, connect4.RandomSet()).All.Share(), "%random")
			b.ReportMetric(100*verify.CheckSet(p, connect4.PositionSet()).All.Share(), "%tactical")
		})
	}
}

// labelled plays games of the teacher's moves from up to random random
// moves, exploring at 0.1, and labels each position in play after a
// move with the teacher's search, depth plies deep, on two goroutines:
// the same positions and labels, in the same order, every run.
func labelled(teacher learn.Model, games, random, depth int) []expert.Labelled {
	g := teacher.Plays()
	per := make([][]expert.Labelled, games)
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			label, player := search.Label(teacher, depth), teacher.Player()
			for i := w; i < games; i += 2 {
				rng := rand.New(rand.NewPCG(uint64(i), 99))
				p := g.Start()
				r := rng.IntN(random + 1)
				for k := 0; g.Result(p) == game.Ongoing; k++ {
					m := player.Move(p)
					if k < r || rng.Float64() < 0.1 {
						m = game.RandomMove(g, p, rng)
					}
					mover := g.ToMove(p)
					if p = g.Play(p, m); g.Result(p) == game.Ongoing {
						per[i] = append(per[i], expert.Labelled{Position: p, Mover: mover, Label: 1 - label(p)})
					}
				}
			}
		})
	}
	wg.Wait()
	var set []expert.Labelled
	for _, s := range per {
		set = append(set, s...)
	}
	return set
}
