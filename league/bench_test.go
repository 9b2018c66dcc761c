package league

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/nn"
	"ttt/store"
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

// TestMain removes the league that the round benchmark builds once for
// all its runs.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchDir holds league500's database.
var benchDir string

// league500 builds, once, a league of 500 checkpoints the way
// `ttt league run --rounds 500 --games-per-round 100` does, and returns
// its path: every pairing played and a rating history of 500 rounds.
var league500 = sync.OnceValues(func() (string, error) {
	var err error
	if benchDir, err = os.MkdirTemp("", "ttt-bench"); err != nil {
		return "", err
	}
	path := filepath.Join(benchDir, "league.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		return "", err
	}
	defer db.Close()
	cfg := Default()
	cfg.Rounds, cfg.GamesPerRound = 500, 100
	_, err = Run(ctx, db, cfg, Hooks{})
	return path, err
})

// BenchmarkRound500 plays rounds of a league that has 500 checkpoints:
// training (100 games, not counted in ms/round), the snapshot and its
// exhaustive check, its matches against every member, the refit over
// all 125,000 pairings and the commit.
func BenchmarkRound500(b *testing.B) {
	src, err := league500()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "league.db")
	data, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cfg := Default()
	cfg.GamesPerRound, cfg.Workers = 100, runtime.GOMAXPROCS(0)
	lg, err := open(ctx, db, cfg)
	if err != nil {
		b.Fatal(err)
	}
	var beyond, eval time.Duration // beyond training
	hooks := Hooks{Round: func(r Report) { beyond -= r.TrainTime; eval += r.EvalTime }}
	rounds := 0
	for b.Loop() {
		start := time.Now()
		if err := lg.round(ctx, hooks, start); err != nil {
			b.Fatal(err)
		}
		beyond += time.Since(start)
		rounds++
	}
	b.ReportMetric(beyond.Seconds()*1e3/float64(rounds), "ms/round")
	b.ReportMetric(eval.Seconds()*1e3/float64(rounds), "eval-ms/round")
}
