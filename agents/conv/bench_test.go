package conv

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
)

// randomBatch returns n positions of random games of Connect Four, each
// with the side that has just moved.
func randomBatch(n int, rng *rand.Rand) ([]game.Position, []game.Side) {
	g := connect4.Game
	var pos []game.Position
	var movers []game.Side
	for len(pos) < n {
		p := g.Start()
		for k := rng.IntN(30) + 1; k > 0 && g.Result(p) == game.Ongoing; k-- {
			p = g.Play(p, game.RandomMove(g, p, rng))
		}
		if g.Result(p) == game.Ongoing {
			pos, movers = append(pos, p), append(movers, g.ToMove(p).Other())
		}
	}
	return pos, movers
}

// flops is the multiply-adds of one position through n, twice (a
// multiply and an add): the figure GFLOPS divides.
func flops(n *Net) float64 {
	cells := float64(n.geo.cells)
	f := 0.0
	for _, d := range n.conv {
		f += cells * float64(d.in*d.out)
	}
	return 2 * (f + float64(n.fc.in*n.fc.out+n.out.in))
}

// BenchmarkForward is a batch of positions through the default network:
// 1 (a single evaluation), 7 (a Connect Four position's moves, as a
// search judges them) and 256 (a training batch).
func BenchmarkForward(b *testing.B) {
	for _, batch := range []int{1, 7, 256} {
		b.Run(fmt.Sprint(batch), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			n, _ := New(connect4.Game, DefaultShape, rng)
			pos, movers := randomBatch(batch, rng)
			var p Pass
			for b.Loop() {
				n.Forward(pos, movers, &p)
			}
			per := b.Elapsed().Seconds() / float64(b.N*batch)
			b.ReportMetric(1/per, "positions/s")
			b.ReportMetric(flops(n)/per/1e9, "GFLOPS")
		})
	}
}

// BenchmarkTrain is one minibatch step of 256 positions: forward,
// backward and Adam's update.
func BenchmarkTrain(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, _ := New(connect4.Game, DefaultShape, rng)
	grad := alloc(connect4.Game, n.Shape)
	opt := NewAdam(len(n.W), 1e-3, 0)
	pos, movers := randomBatch(256, rng)
	labels := make([]float32, 256)
	dOut := make([]float32, 256)
	var p Pass
	for b.Loop() {
		n.Forward(pos, movers, &p)
		Loss(p.Out[:256], labels, dOut)
		clear(grad.W)
		n.Backward(dOut, &p, grad)
		opt.Step(n.W, grad.W)
	}
	per := b.Elapsed().Seconds() / float64(b.N*256)
	b.ReportMetric(1/per, "samples/s")
	b.ReportMetric(3*flops(n)/per/1e9, "GFLOPS")
}
