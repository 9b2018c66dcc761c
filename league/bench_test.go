package league

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"ttt/agents/nn"
)

// BenchmarkEvaluate plays the matches of a snapshot against 500
// checkpoints (fresh networks of DefaultHidden units: their games are as
// long as a trained net's, within a move), random and perfect, over every
// two-move opening in both colours, on 1 and 2 workers: the speed of a
// league's evaluation, whatever picks the pairs.
func BenchmarkEvaluate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	snap := compile(nn.New(nn.DefaultHidden, rng).Table())
	list := []pairing{{a: 0, b: 1, pa: snap}, {a: 0, b: 2, pa: snap, pb: perfectPlayer()}}
	for id := range 500 {
		list = append(list, pairing{a: 0, b: int64(3 + id), pa: snap, pb: compile(nn.New(nn.DefaultHidden, rng).Table())})
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			cfg := Default()
			cfg.Workers = workers
			lg := &league{cfg: cfg}
			games := 0
			for b.Loop() {
				results, err := lg.play(context.Background(), 1, list, 0)
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range results {
					games += m.Games()
				}
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
