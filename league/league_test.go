package league_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"ttt/league"
	"ttt/store"
)

func small() league.Config {
	cfg := league.Default()
	cfg.GamesPerRound = 2000
	cfg.Hidden = 20
	return cfg
}

// run plays rounds on the database at path and returns its matches and
// rating history.
func run(t *testing.T, path string, cfg league.Config) ([]store.Match, []store.Rating) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	matches, err := db.Matches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	history, err := db.History(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	return matches, history
}

func TestSameResultsForAnyWorkers(t *testing.T) {
	dir := t.TempDir()
	cfg := small()
	cfg.Rounds = 3
	cfg.Workers = 1
	m1, h1 := run(t, filepath.Join(dir, "one.db"), cfg)
	cfg.Workers = 2
	m2, h2 := run(t, filepath.Join(dir, "two.db"), cfg)
	if !reflect.DeepEqual(m1, m2) || !reflect.DeepEqual(h1, h2) {
		t.Error("1 and 2 workers gave different matches or ratings")
	}
	// Round 1: random v perfect, and the snapshot against both; then one
	// more match per member each round.
	if got, want := len(m1), 3+3+4; got != want {
		t.Errorf("%d matches, want %d", got, want)
	}
	for _, r := range h1 {
		if r.Agent == 1 && (r.Elo != 0 || r.Lo != 0 || r.Hi != 0) {
			t.Errorf("random rated %+v in round %d, want 0", r, r.Round)
		}
	}
}

func TestResumeGoesOnAsIfNeverStopped(t *testing.T) {
	dir := t.TempDir()
	cfg := small()
	cfg.Rounds = 4
	whole, wholeHistory := run(t, filepath.Join(dir, "whole.db"), cfg)
	cfg.Rounds = 2
	run(t, filepath.Join(dir, "split.db"), cfg)
	split, splitHistory := run(t, filepath.Join(dir, "split.db"), cfg)
	if !reflect.DeepEqual(whole, split) || !reflect.DeepEqual(wholeHistory, splitHistory) {
		t.Error("2 + 2 rounds differ from 4 rounds")
	}
}

func TestCancelAbandonsTheRound(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := small()
	cfg.Rounds = 5
	rounds := 0
	last, err := league.Run(ctx, db, cfg, league.Hooks{
		Round: func(league.Report) { rounds++ },
		Training: func(round int64, done, total int) {
			if round == 2 && done == 1000 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || last != 1 || rounds != 1 {
		t.Errorf("after cancel in round 2: last %d, %d rounds reported, err %v", last, rounds, err)
	}
	if _, _, err := db.LastRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	list, _ := db.Agents(context.Background())
	if len(list) != 3 {
		t.Errorf("%d agents after one round, want random, perfect and one snapshot", len(list))
	}
}
