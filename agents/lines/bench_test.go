package lines

import (
	"math/rand/v2"
	"testing"

	"ttt/agents/expert"
	"ttt/agents/expert/experttest"
	"ttt/agents/game/connect4"
)

// flops is the additions and multiplications of one position through
// n: a row added for every line, then the dense layer and the output.
func flops(n *Net) float64 {
	f, h := float64(n.Shape.Features), float64(n.Shape.Hidden)
	return float64(len(n.lines))*f + 2*f*h + 2*h
}

// BenchmarkValue is one position through the default Connect Four
// network, as a search's leaf reads it.
func BenchmarkValue(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, _ := New(connect4.Game, DefaultShape, rng)
	pos, movers := experttest.Positions(connect4.Game, 1000, rng)
	var p Pass
	i := 0
	for b.Loop() {
		n.Value(pos[i%len(pos)], movers[i%len(pos)], &p)
		i++
	}
	per := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(1/per, "positions/s")
	b.ReportMetric(flops(n)/per/1e9, "GFLOPS")
}

// BenchmarkTrain is one minibatch step of 256 positions: forward,
// backward and Adam's update of every weight.
func BenchmarkTrain(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, _ := New(connect4.Game, DefaultShape, rng)
	grad := n.Zero()
	opt := expert.NewAdam(len(n.W), 1e-3, 0)
	pos, movers := experttest.Positions(connect4.Game, 256, rng)
	batch := &expert.Batch{Positions: pos, Movers: movers, Syms: make([]uint8, 256), Labels: make([]float32, 256)}
	for i := range batch.Syms {
		batch.Syms[i], batch.Labels[i] = uint8(i%2), rng.Float32()
	}
	for b.Loop() {
		clear(grad.Weights())
		n.Gradient(batch, grad)
		opt.Step(n.W, grad.Weights())
	}
	per := b.Elapsed().Seconds() / float64(b.N*256)
	b.ReportMetric(1/per, "samples/s")
}
