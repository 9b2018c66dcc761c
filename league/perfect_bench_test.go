package league_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"ttt/league"
	"ttt/store"
)

// BenchmarkTimeToUnbeatable runs a league with default settings on a
// fresh database until it holds a checkpoint that the exhaustive check
// finds unbeatable on both sides: the time from nothing to perfect play,
// per seed. ns/op is that time; rounds is how many rounds it took.
//
//	go test ./league -run '^$' -bench TimeToUnbeatable -benchtime 1x -count 5
func BenchmarkTimeToUnbeatable(b *testing.B) {
	for seed := uint64(1); seed <= 5; seed++ {
		b.Run(fmt.Sprintf("seed=%d", seed), func(b *testing.B) {
			var rounds int64
			for range b.N {
				rounds = untilUnbeatable(b, seed)
			}
			b.ReportMetric(float64(rounds), "rounds")
		})
	}
}

// untilUnbeatable runs a fresh league until a round's snapshot is
// unbeatable and returns that round's number.
func untilUnbeatable(b *testing.B, seed uint64) int64 {
	b.StopTimer()
	db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "league.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cfg := league.Default()
	cfg.Seed = seed
	cfg.Rounds = 100
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var found int64
	b.StartTimer()
	_, err = league.Run(ctx, db, cfg, league.Hooks{Round: func(r league.Report) {
		if r.Unbeatable() && found == 0 {
			found = r.Round
			stop()
		}
	}})
	b.StopTimer()
	defer b.StartTimer()
	if found == 0 {
		b.Fatalf("seed %d: no unbeatable checkpoint in %d rounds (%v)", seed, cfg.Rounds, err)
	}
	return found
}
