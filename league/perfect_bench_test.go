package league_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league"
	"ttt/store"
)

// BenchmarkTimeToUnbeatable runs a league with default settings on a
// fresh database until it holds a checkpoint that the exhaustive check
// finds unbeatable on both sides, per seed. ns/op is that time; rounds is
// how many rounds it took.
//
//	go test ./league -run '^$' -bench TimeToUnbeatable -benchtime 1x -count 5
func BenchmarkTimeToUnbeatable(b *testing.B) {
	for seed := uint64(1); seed <= 10; seed++ {
		b.Run(fmt.Sprintf("seed=%d", seed), func(b *testing.B) {
			var f firsts
			for range b.N {
				f = untilFirst(b, seed, false)
			}
			b.ReportMetric(float64(f.unbeatable), "rounds")
		})
	}
}

// BenchmarkTimeToPerfect runs a league with default settings on a fresh
// database until it holds a checkpoint that keeps the game-theoretic
// value in every position it can reach, on both sides: the time from
// nothing to perfect play, per seed. ns/op is that time; rounds is how
// many rounds it took, and unbeatable-rounds and unbeatable-s when the
// first unbeatable checkpoint came.
//
//	go test ./league -run '^$' -bench TimeToPerfect -benchtime 1x -count 5
func BenchmarkTimeToPerfect(b *testing.B) {
	for seed := uint64(1); seed <= 10; seed++ {
		b.Run(fmt.Sprintf("seed=%d", seed), func(b *testing.B) {
			var f firsts
			for range b.N {
				f = untilFirst(b, seed, true)
			}
			b.ReportMetric(float64(f.perfect), "rounds")
			b.ReportMetric(float64(f.unbeatable), "unbeatable-rounds")
			b.ReportMetric(f.unbeatableTime.Seconds(), "unbeatable-s")
		})
	}
}

// firsts are the rounds of a league's first unbeatable and first perfect
// checkpoints (0 if none came), and the time from the start of the run to
// the first unbeatable one's commit.
type firsts struct {
	unbeatable, perfect int64
	unbeatableTime      time.Duration
}

// maxRounds is how long untilFirst waits: the issue asks for perfect play
// within 30 rounds.
const maxRounds = 30

// untilFirst runs a fresh league until a round's snapshot is unbeatable
// and, if perfect is set, until one plays perfectly as well.
func untilFirst(b *testing.B, seed uint64, perfect bool) firsts {
	b.StopTimer()
	db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "league.db"), func() store.Setup { return league.Setup(agents.TicTacToe) })
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cfg := league.Default(agents.TicTacToe)
	cfg.Seed = seed
	cfg.Rounds = maxRounds
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var f firsts
	b.StartTimer()
	_, err = league.Run(ctx, db, cfg, league.Hooks{Round: func(r league.Report) {
		if f.unbeatable == 0 && r.Snapshot.Class >= game.Unbeatable {
			f.unbeatable, f.unbeatableTime = r.Round, r.Elapsed
		}
		if f.perfect == 0 && r.Snapshot.Class == game.Perfect {
			f.perfect = r.Round
		}
		if f.unbeatable > 0 && (f.perfect > 0 || !perfect) {
			stop()
		}
	}})
	b.StopTimer()
	defer b.StartTimer()
	switch {
	case f.unbeatable == 0:
		b.Fatalf("seed %d: no unbeatable checkpoint in %d rounds (%v)", seed, cfg.Rounds, err)
	case perfect && f.perfect == 0:
		b.Fatalf("seed %d: no perfect checkpoint in %d rounds (%v)", seed, cfg.Rounds, err)
	}
	return f
}
