package league

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/learn"
	"ttt/agents/train"
	"ttt/store"
)

// A line whose network diverges is retired in a league of several
// learners: the next line trains in its place, the round reports it, and
// a resumed league keeps it retired. A league of one learner stops there.
func TestDivergedLineRetires(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := Default(agents.TicTacToe)
	cfg.GamesPerRound, cfg.Opponents, cfg.Workers = 200, 6, 1
	cfg.Settings = cfg.With("hidden", 8)
	cfg.Learners = []*learn.Method{train.PolicyMethod, train.TDLambdaMethod}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "league.db"), func() store.Setup { return Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lg, tr, err := open(ctx, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.checkpoints.Wait()
	// A hidden unit's bias past what a forward pass may add up: the
	// policy line has diverged, whatever its games teach it.
	tr.lines[0].learner.(*train.Policy).Net.BH[0] = 2 * 1e30
	for round := range 2 {
		r, err := oneRound(ctx, lg, tr)
		if err != nil {
			t.Fatal(err)
		}
		if r.Snapshot.Method != train.TDLambdaMethod.Name {
			t.Errorf("round %d: a snapshot of %s, want tdlambda's", r.Round, r.Snapshot.Method)
		}
		// The round trained both lines, the one that diverged too.
		if want := cfg.GamesPerRound * (1 + len(r.Diverged)); r.TrainGames != want {
			t.Errorf("round %d: %d training games, want %d", r.Round, r.TrainGames, want)
		}
		if wantReport := round == 0; (len(r.Diverged) == 1 && strings.Contains(r.Diverged[0], "policy learner has diverged")) != wantReport {
			t.Errorf("round %d: diverged %q", r.Round, r.Diverged)
		}
	}
	_, again, err := open(ctx, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !again.lines[0].retired || again.lines[1].retired || again.next != 1 {
		t.Errorf("resumed: policy retired %v, tdlambda retired %v, next line %d", again.lines[0].retired, again.lines[1].retired, again.next)
	}

	// Alone, the line stops the run.
	cfg.Learners = cfg.Learners[:1]
	alone, err := store.Open(ctx, filepath.Join(t.TempDir(), "alone.db"), func() store.Setup { return Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer alone.Close()
	lg, tr, err = open(ctx, alone, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr.lines[0].learner.(*train.Policy).Net.BH[0] = 2 * 1e30
	if _, err := oneRound(ctx, lg, tr); err == nil || !strings.Contains(err.Error(), "round 1: the policy learner has diverged") {
		t.Errorf("a league of one diverged learner: %v", err)
	}
}

// A round that trains while the round before it is evaluated makes the
// league that playing the rounds one after the other makes: the same
// snapshots, matches and ratings.
func TestOverlappedRoundsAreTheSame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := Default(agents.ConnectFour)
	cfg.GamesPerRound, cfg.Opponents, cfg.Rounds = 300, 6, 4
	cfg.Settings = cfg.With("tuples", 8).With("tuple_length", 5)
	if !(&trainer{cfg: cfg}).independent() {
		t.Fatal("a Connect Four league's rounds do not overlap")
	}
	leagueOf := func(name string, play func(*store.DB)) (weights [][]byte, matches []store.Match, fits map[int64]float64) {
		db, err := store.Open(ctx, filepath.Join(t.TempDir(), name), func() store.Setup { return Setup(agents.ConnectFour) })
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		play(db)
		list, err := db.Agents(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range list {
			full, err := db.Agent(ctx, a.Name)
			if err != nil {
				t.Fatal(err)
			}
			weights = append(weights, full.Weights)
		}
		if err := db.Matches(ctx, store.MatchFilter{}, func(m store.Match) error { matches = append(matches, m); return nil }); err != nil {
			t.Fatal(err)
		}
		fits, _, err = db.Fits(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return weights, matches, fits
	}
	ow, om, of := leagueOf("overlapped.db", func(db *store.DB) {
		if _, err := Run(ctx, db, cfg, Hooks{}); err != nil {
			t.Fatal(err)
		}
	})
	sw, sm, sf := leagueOf("sequential.db", func(db *store.DB) {
		lg, tr, err := open(ctx, db, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer lg.checkpoints.Wait()
		for range cfg.Rounds {
			if _, err := oneRound(ctx, lg, tr); err != nil {
				t.Fatal(err)
			}
		}
	})
	if len(ow) != len(sw) || !reflect.DeepEqual(ow, sw) || !reflect.DeepEqual(om, sm) || !reflect.DeepEqual(of, sf) {
		t.Errorf("overlapped rounds: %d agents, %d matches; one after the other: %d agents, %d matches, or other weights or ratings", len(ow), len(om), len(sw), len(sm))
	}
}

// oneRound plays a round of lg with trainer tr, training then
// evaluating, as Run does when the rounds take turns.
func oneRound(ctx context.Context, lg *league, tr *trainer) (Report, error) {
	return oneRoundHooks(ctx, lg, tr, Hooks{})
}

// oneRoundHooks is oneRound, telling hooks.
func oneRoundHooks(ctx context.Context, lg *league, tr *trainer, hooks Hooks) (Report, error) {
	opp, err := lg.opponents(ctx, tr.turn())
	if err != nil {
		return Report{}, err
	}
	t := tr.round(ctx, lg.lastRound+1, opp, hooks.Training)
	if t.err != nil {
		return Report{}, t.err
	}
	r, player, err := lg.finish(ctx, &t, hooks, time.Now())
	if err == nil && !tr.independent() {
		t.line.frozen = player
	}
	return r, err
}
