package train_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"ttt/agents/train"
)

func TestSameSeedSameNet(t *testing.T) {
	cfg := train.Default(3000)
	a, err := train.AgainstRandom(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := train.AgainstRandom(context.Background(), cfg, nil)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same seed and settings gave different weights")
	}
	cfg.Seed++
	c, _ := train.AgainstRandom(context.Background(), cfg, nil)
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("a different seed gave the same weights")
	}
}

func TestTrainingLearns(t *testing.T) {
	var first, last *train.Tally
	_, err := train.AgainstRandom(context.Background(), train.Default(60000), func(p train.Progress) {
		if p.Window != nil {
			if first == nil {
				first = p.Window
			}
			last = p.Window
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if first == nil || last.Games != train.Window {
		t.Fatalf("windows: first %v, last %v", first, last)
	}
	// Against a random opponent an untrained net loses about a third of
	// its games; a little training must cut that a lot.
	if last.Losses*3 > first.Losses || last.Wins <= first.Wins {
		t.Errorf("no progress: first window %v, last %v", first, last)
	}
}

func TestProgressCadence(t *testing.T) {
	var games []int
	windows := 0
	_, err := train.AgainstRandom(context.Background(), train.Default(25500), func(p train.Progress) {
		games = append(games, p.Games)
		if p.Window != nil {
			windows++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 26 || games[0] != 1000 || games[25] != 25500 || windows != 2 {
		t.Errorf("reports at %v with %d windows", games, windows)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	net, err := train.AgainstRandom(ctx, train.Default(1_000_000), func(train.Progress) {
		calls++
		cancel()
	})
	if !errors.Is(err, context.Canceled) || net == nil || calls != 1 {
		t.Errorf("after cancel: err %v, net %v, %d reports", err, net != nil, calls)
	}
}

func TestSchedule(t *testing.T) {
	s := train.Schedule{Start: 0.5, End: 0.1, Games: 100}
	for _, tt := range []struct {
		g    int
		want float64
	}{{0, 0.5}, {50, 0.3}, {100, 0.1}, {5000, 0.1}} {
		if got := s.At(tt.g); got < tt.want-1e-12 || got > tt.want+1e-12 {
			t.Errorf("At(%d) = %v, want %v", tt.g, got, tt.want)
		}
	}
	if got := (train.Schedule{Start: 0.3}).At(0); got != 0 {
		t.Errorf("no decay games: At(0) = %v, want the end value 0", got)
	}
}

func TestConfigRefusesBadSettings(t *testing.T) {
	for name, mutate := range map[string]func(*train.Config){
		"zero games":       func(c *train.Config) { c.Games = 0 },
		"negative games":   func(c *train.Config) { c.Games = -5 },
		"zero hidden":      func(c *train.Config) { c.Hidden = 0 },
		"huge hidden":      func(c *train.Config) { c.Hidden = 1 << 20 },
		"zero lr":          func(c *train.Config) { c.LR = 0 },
		"epsilon above 1":  func(c *train.Config) { c.Epsilon.Start = 1.5 },
		"negative decay":   func(c *train.Config) { c.Epsilon.Games = -1 },
		"zero temperature": func(c *train.Config) { c.Temperature = 0 },
	} {
		cfg := train.Default(100)
		mutate(&cfg)
		if _, err := train.AgainstRandom(context.Background(), cfg, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
