package league_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/testkit"
	"ttt/league"
)

// With the default settings a fresh league reaches a checkpoint that
// plays perfectly on both sides well within the 30 rounds the issue
// allows (in 3 and 4 rounds for these seeds), and with no drills it does
// not (none of the 110 seeds we measured did in 30 rounds): the drills
// are what make it perfect.
//
// It belongs to the long tier, for its league without drills, which
// plays all its rounds; TestDrilledLeagueBecomesPerfect is its quick
// sibling.
func TestDrillsMakeItPerfect(t *testing.T) {
	t.Parallel()
	testkit.Long(t, "three leagues, one of 8 rounds that never becomes perfect; TestDrilledLeagueBecomesPerfect trains one to its first perfect checkpoint")
	drillsMakeItPerfect(t, []drilledLeague{{1, league.Default(agents.TicTacToe).Drill, 30}, {2, league.Default(agents.TicTacToe).Drill, 30}, {1, 0, 8}})
}

// TestDrilledLeagueBecomesPerfect is TestDrillsMakeItPerfect's first
// league alone: with the default settings, a checkpoint that plays
// perfectly within 30 rounds (in 3).
func TestDrilledLeagueBecomesPerfect(t *testing.T) {
	t.Parallel()
	drillsMakeItPerfect(t, []drilledLeague{{1, league.Default(agents.TicTacToe).Drill, 30}})
}

// drilledLeague is a league of TestDrillsMakeItPerfect: its seed, its
// share of drills and its rounds at most.
type drilledLeague struct {
	seed   uint64
	drill  float64
	rounds int
}

// drillsMakeItPerfect runs each league until its first perfect
// checkpoint, and checks that those with drills have one and those
// without none.
func drillsMakeItPerfect(t *testing.T, leagues []drilledLeague) {
	for _, tt := range leagues {
		cfg := league.Default(agents.TicTacToe)
		cfg.Seed, cfg.Drill, cfg.Rounds = tt.seed, tt.drill, tt.rounds
		db := open(t, filepath.Join(t.TempDir(), "league.db"))
		ctx, stop := context.WithCancel(context.Background())
		var first int64
		_, err := league.Run(ctx, db, cfg, league.Hooks{Round: func(r league.Report) {
			if r.Snapshot.Class == game.Perfect {
				first = r.Round
				stop()
			}
		}})
		stop()
		// The run ends by itself, or stopped at the first perfect
		// checkpoint: any other end proves nothing of the drills.
		if err != nil && (first == 0 || !errors.Is(err, context.Canceled)) {
			t.Fatalf("seed %d, drill share %g: %v", tt.seed, tt.drill, err)
		}
		if got, want := first > 0, tt.drill > 0; got != want {
			t.Errorf("seed %d, drill share %g: first perfect checkpoint in round %d of %d", tt.seed, tt.drill, first, tt.rounds)
		}
	}
}
