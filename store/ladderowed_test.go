package store_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ttt/agents/game"
	"ttt/store"
)

// A round's commit records the network its Owes names, in the round's
// transaction; AddLadderMatches ends the debt with the games, and alone
// when there are none. A debt is no damage to ttt check, but one of an
// agent that is no network is.
func TestLadderOwed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := mustOpen(t, path)
	a := network(store.Checkpoint, testNet(10, 3), 3)
	a.Name = "net-1"
	if err := db.AddAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	owed := func() map[int64]int64 {
		t.Helper()
		o, err := db.LadderOwed(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(),
		Owes: func(v *store.View) (int64, error) {
			// The round's writes are there to read.
			if n, err := v.NewestRound(); err != nil || n != 1 {
				t.Errorf("Owes reads round %d (%v), want the round it commits, 1", n, err)
			}
			return a.ID, nil
		}}
	if err := db.CommitRound(ctx, r); err != nil {
		t.Fatal(err)
	}
	if got := owed(); len(got) != 1 || got[a.ID] != 1 {
		t.Fatalf("owed after the commit: %v, want agent %d after round 1", got, a.ID)
	}
	var found []string
	if _, err := db.Check(ctx, func(line string) { found = append(found, line) }); err != nil || len(found) > 0 {
		t.Errorf("check of a league that owes games: %q (%v), want nothing", found, err)
	}
	// The games end the debt, in their transaction.
	m := store.Match{Round: 1, A: a.ID, B: 1, Plies: 0, Seed: 9, Record: game.Record{Wins: 1, Losses: 1},
		Moves: store.EncodeGames(db.Game(), 0, [][]int{{0, 3, 1, 4, 2}, {0, 1, 3, 2, 6}})}
	if err := db.AddLadderMatches(ctx, a.ID, []store.Match{m}); err != nil {
		t.Fatal(err)
	}
	if got := owed(); len(got) != 0 {
		t.Errorf("owed after the games: %v", got)
	}
	// A commit that owes nothing records nothing; a debt without games
	// ends alone.
	if err := db.CommitRound(ctx, &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(),
		Owes: func(*store.View) (int64, error) { return 0, nil }}); err != nil {
		t.Fatal(err)
	}
	if got := owed(); len(got) != 0 {
		t.Errorf("owed after a commit that owes nothing: %v", got)
	}
	if err := db.CommitRound(ctx, &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(),
		Owes: func(*store.View) (int64, error) { return a.ID, nil }}); err != nil {
		t.Fatal(err)
	}
	if err := db.AddLadderMatches(ctx, a.ID, nil); err != nil {
		t.Fatal(err)
	}
	if got := owed(); len(got) != 0 {
		t.Errorf("owed after a debt ended without games: %v", got)
	}

	// A built-in player that owes games is damage.
	if _, err := rawDB(t, path).Exec("INSERT INTO ladder_owed (agent_id, round_id) VALUES (1, 1)"); err != nil {
		t.Fatal(err)
	}
	found = nil
	if _, err := db.Check(ctx, func(line string) { found = append(found, line) }); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || !strings.Contains(found[0], "agent 1 owes extra games against the ladder after round 1, but is no network") {
		t.Errorf("check of a built-in player that owes games: %q", found)
	}
}
