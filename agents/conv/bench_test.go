package conv

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"ttt/agents/expert"
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
	opt := expert.NewAdam(len(n.W), 1e-3, 0)
	pos, movers := randomBatch(256, rng)
	labels := make([]float32, 256)
	dOut := make([]float32, 256)
	var p Pass
	for b.Loop() {
		n.Forward(pos, movers, &p)
		expert.Loss(p.Out[:256], labels, dOut)
		clear(grad.W)
		n.Backward(dOut, &p, grad)
		opt.Step(n.W, grad.W)
	}
	per := b.Elapsed().Seconds() / float64(b.N*256)
	b.ReportMetric(1/per, "samples/s")
	b.ReportMetric(3*flops(n)/per/1e9, "GFLOPS")
}

// ownGemm is the kernel one would write by hand, for BenchmarkGemm's
// comparison: c += a·b, four rows of a at a time, so that each row of b
// read serves four rows of c.
func ownGemm(a, b, c []float32, m, k, n int) {
	i := 0
	for ; i+4 <= m; i += 4 {
		c0, c1, c2, c3 := c[i*n:(i+1)*n], c[(i+1)*n:(i+2)*n], c[(i+2)*n:(i+3)*n], c[(i+3)*n:(i+4)*n]
		for p := range k {
			a0, a1, a2, a3 := a[i*k+p], a[(i+1)*k+p], a[(i+2)*k+p], a[(i+3)*k+p]
			for j, bv := range b[p*n : p*n+n] {
				c0[j] += a0 * bv
				c1[j] += a1 * bv
				c2[j] += a2 * bv
				c3[j] += a3 * bv
			}
		}
	}
	for ; i < m; i++ {
		for p := range k {
			for j, bv := range b[p*n : p*n+n] {
				c[i*n+j] += a[i*k+p] * bv
			}
		}
	}
}

// BenchmarkGemm is the default network's middle convolution as one
// matrix product, for a position's moves (7 positions) and a training
// batch (256): gonum's float32 and float64 products against ownGemm.
func BenchmarkGemm(b *testing.B) {
	k, n := 9*DefaultShape.Channels, DefaultShape.Channels
	for _, batch := range []int{7, 256} {
		m := batch * 42
		rng := rand.New(rand.NewPCG(1, 1))
		fill := func(size int) []float32 {
			s := make([]float32, size)
			for i := range s {
				s[i] = rng.Float32()
			}
			return s
		}
		a, w, c := fill(m*k), fill(k*n), fill(m*n)
		report := func(b *testing.B) {
			b.ReportMetric(float64(2*m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		}
		b.Run(fmt.Sprintf("gonum32/%d", batch), func(b *testing.B) {
			for b.Loop() {
				gemm(false, false, m, n, k, a, w, c)
			}
			report(b)
		})
		b.Run(fmt.Sprintf("gonum64/%d", batch), func(b *testing.B) {
			a64, w64, c64 := make([]float64, len(a)), make([]float64, len(w)), make([]float64, len(c))
			for i, v := range a {
				a64[i] = float64(v)
			}
			for i, v := range w {
				w64[i] = float64(v)
			}
			for b.Loop() {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: m, Cols: k, Stride: k, Data: a64},
					blas64.General{Rows: k, Cols: n, Stride: n, Data: w64}, 1, blas64.General{Rows: m, Cols: n, Stride: n, Data: c64})
			}
			report(b)
		})
		b.Run(fmt.Sprintf("own/%d", batch), func(b *testing.B) {
			for b.Loop() {
				ownGemm(a, w, c, m, k, n)
			}
			report(b)
		})
	}
}
