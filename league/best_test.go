package league_test

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"
	"testing"

	"ttt/league"
	"ttt/store"
)

// The best is one rule, the league's: after every round, what best names
// (league.Agent), the first of league.Best and the newest change of the
// best that the history replays (league.BestHistory) are all the rated
// network first by class, then by the low end of its interval, then the
// newest, found here from the standings by hand.
func TestOneBestRule(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := open(t, path)
	cfg := small()
	cfg.Rounds = 8
	if a, err := league.Lookup(ctx, db, store.Best); err == nil {
		t.Fatalf("best in a league without networks: %s, want %v", a.Name, store.ErrNoCheckpoints)
	}
	history := league.NewBestHistory()
	rounds := 0
	check := func(round int64) {
		t.Helper()
		list, err := db.Agents(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		list = slices.DeleteFunc(list, func(a *store.Agent) bool { return !a.Kind.Learned() || a.Standing == nil })
		if len(list) == 0 {
			t.Fatalf("round %d: no rated network", round)
		}
		want := slices.MaxFunc(list, func(a, b *store.Agent) int {
			return cmp.Or(cmp.Compare(a.Class, b.Class), cmp.Compare(a.Standing.Lo, b.Standing.Lo), cmp.Compare(a.ID, b.ID))
		})
		best, err := league.Lookup(ctx, db, store.Best)
		if err != nil {
			t.Fatal(err)
		}
		first, err := league.Best(ctx, db, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.View(ctx, history.Update); err != nil {
			t.Fatal(err)
		}
		changes := history.Changes
		if best.ID != want.ID || first[0].ID != want.ID || changes[len(changes)-1].Agent != want.ID {
			t.Errorf("round %d: best names %s, league.Best %s, the history %d; the rule %s", round, best.Name, first[0].Name, changes[len(changes)-1].Agent, want.Name)
		}
	}
	if _, err := league.Run(ctx, db, cfg, league.Hooks{Round: func(r league.Report) {
		rounds++
		check(r.Round)
	}}); err != nil {
		t.Fatal(err)
	}
	if rounds != cfg.Rounds {
		t.Fatalf("%d rounds reported, want %d", rounds, cfg.Rounds)
	}
}
