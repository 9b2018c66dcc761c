package conv

import (
	"math"
	"math/rand/v2"
	"testing"

	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
)

// TestGradient checks Backward against the loss's finite differences,
// weight by weight, on a small net and a batch of random positions.
func TestGradient(t *testing.T) {
	g := connect4.Game
	rng := rand.New(rand.NewPCG(1, 2))
	n, err := New(g, Shape{Layers: 2, Channels: 3, HeadChannels: 2, Hidden: 4}, rng)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n.out.w { // a new net's output weighs nothing: no gradient reaches below it
		n.out.w[i] = float32(rng.NormFloat64())
	}
	var pos []game.Position
	var movers []game.Side
	var labels []float32
	for range 5 {
		p := g.Start()
		for k := rng.IntN(12) + 1; k > 0; k-- {
			p = g.Play(p, game.RandomMove(g, p, rng))
		}
		pos, movers, labels = append(pos, p), append(movers, g.ToMove(p).Other()), append(labels, rng.Float32())
	}
	loss := func() float64 {
		var p Pass
		n.Forward(pos, movers, &p)
		return expert.Loss(p.Out[:len(pos)], labels, make([]float32, len(pos)))
	}
	var p Pass
	n.Forward(pos, movers, &p)
	dOut := make([]float32, len(pos))
	expert.Loss(p.Out[:len(pos)], labels, dOut)
	grad := alloc(g, n.Shape)
	n.Backward(dOut, &p, grad)
	checked := 0
	for i := range n.W {
		if i%7 != 0 && i < len(n.W)-20 { // a sample of the weights, and every weight of the output
			continue
		}
		w := n.W[i]
		const h = 1e-3
		n.W[i] = w + h
		up := loss()
		n.W[i] = w - h
		down := loss()
		n.W[i] = w
		want := (up - down) / (2 * h)
		if got := float64(grad.W[i]); math.Abs(got-want) > 1e-3+0.05*math.Abs(want) {
			t.Errorf("weight %d: gradient %.5f, finite differences %.5f", i, got, want)
		}
		checked++
	}
	t.Logf("%d weights of %d checked", checked, len(n.W))
}
