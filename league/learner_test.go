package league

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ttt/agents"
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
	cfg.Learners = []string{train.PolicyMethod.Name, train.TDLambdaMethod.Name}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "league.db"), func() store.Setup { return Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lg, err := open(ctx, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.checkpoints.Wait()
	// A hidden unit's bias past what a forward pass may add up: the
	// policy line has diverged, whatever its games teach it.
	lg.lines[0].learner.(*train.Policy).Net.BH[0] = 2 * 1e30
	for round := range 2 {
		r, err := lg.round(ctx, Hooks{}, time.Now())
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
	again, err := open(ctx, db, cfg, nil)
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
	lg, err = open(ctx, alone, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	lg.lines[0].learner.(*train.Policy).Net.BH[0] = 2 * 1e30
	if _, err := lg.round(ctx, Hooks{}, time.Now()); err == nil || !strings.Contains(err.Error(), "round 1: the policy learner has diverged") {
		t.Errorf("a league of one diverged learner: %v", err)
	}
}
