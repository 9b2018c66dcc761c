package league

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"ttt/agents"
	"ttt/agents/nn"
)

// evalPool returns a snapshot and a pool of members as a league round
// sees them: random, perfect and checkpoints frozen from networks of
// DefaultHidden units (fresh ones: their games are as long as a trained
// net's, within a move).
func evalPool(b *testing.B, checkpoints int) (snap Member, members []Member) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	members = []Member{{ID: 1}, Member{ID: 2, Table: agents.Perfect()}.compiled()}
	for id := range checkpoints {
		members = append(members, Member{ID: int64(3 + id), Table: nn.New(nn.DefaultHidden, rng).Table()}.compiled())
	}
	return Member{Table: nn.New(nn.DefaultHidden, rng).Table()}.compiled(), members
}

// BenchmarkEvaluate plays a round's evaluation, a snapshot against every
// member of a pool of 500 checkpoints, random and perfect, over every
// two-move opening in both colours, on 1 and 2 workers.
func BenchmarkEvaluate(b *testing.B) {
	snap, members := evalPool(b, 500)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			cfg := Default()
			cfg.Workers = workers
			lg := &league{cfg: cfg, members: members, played: map[int64]bool{}}
			for _, m := range members {
				lg.played[m.ID] = true
			}
			pending := lg.pending()
			games := 0
			for b.Loop() {
				results, err := lg.evaluate(context.Background(), 1, snap, pending)
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range results {
					games += m.Wins + m.Draws + m.Losses
				}
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
