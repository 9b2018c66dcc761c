package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"ttt/agents/game"
	"ttt/store"
)

// Rerate stores a refit on another scale in one transaction: each
// agent's history rows and its point of the learning curve move by as
// much as its standing's rating; where the refit's rating or interval is
// more than a history step from the moved last row, the last round gets a
// row with it, which the standing takes; the fits hold the new ratings,
// one full row; an agent without a standing is left out.
func TestRerate(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	start := time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC)
	rounds := []*store.Round{
		{Kind: store.LeagueRound, Started: start, Finished: start, Snapshot: network(store.Checkpoint, testNet(5, 1), 1),
			Matches: []store.Match{
				{A: 2, B: 1, Plies: 2, Seed: 7, Record: game.Record{Wins: 130, Draws: 14}},
				{A: 0, B: 1, Plies: 2, Seed: 8, Record: game.Record{Wins: 100, Draws: 20, Losses: 24}},
			},
			Updates: []store.Update{
				{Agent: 1, Played: game.Record{Wins: 24, Draws: 34, Losses: 230}},
				{Agent: 2, Played: game.Record{Wins: 130, Draws: 14}},
				{Agent: 0, Played: game.Record{Wins: 100, Draws: 20, Losses: 24}},
			},
			History: []store.HistoryRow{
				{Agent: 0, Elo: 200.5, Lo: 180, Hi: 220, Games: 144},
				{Agent: 1, Games: 288},
				{Agent: 2, Elo: 500.25, Lo: 450, Hi: 550, Games: 144},
			},
			Fits: &store.Fits{Full: true, Agents: []int64{1, 2, 0}, Elo: []float64{0, 500.25, 200.5}}},
		{Kind: store.RobinRound, Started: start, Finished: start,
			History: []store.HistoryRow{{Agent: 3, Elo: 210, Lo: 195, Hi: 225, Games: 144}},
			Updates: []store.Update{{Agent: 3}},
			Fits:    &store.Fits{Agents: []int64{3}, Elo: []float64{210.01}}},
	}
	for _, r := range rounds {
		if err := db.CommitRound(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// Perfect anchored at 494, the snapshot 40 Elo up and its interval
	// narrower: it gets a row; random stays; agent 9 has no standing.
	err := db.Rerate(ctx, []store.HistoryRow{
		{Agent: 1, Games: 288},
		{Agent: 2, Elo: 494, Lo: 494, Hi: 494, Games: 144},
		{Agent: 3, Elo: 250, Lo: 240, Hi: 260, Games: 144},
		{Agent: 9, Elo: 100, Lo: 90, Hi: 110},
	})
	if err != nil {
		t.Fatal(err)
	}
	history := func(agent int64) []store.HistoryRow {
		list, err := db.History(ctx, agent)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	if got, want := history(3), []store.HistoryRow{
		{Agent: 3, Round: 1, Elo: 240.5, Lo: 220, Hi: 260, Games: 144},
		{Agent: 3, Round: 2, Elo: 250, Lo: 240, Hi: 260, Games: 144},
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("the snapshot's history %+v, want %+v", got, want)
	}
	if got, want := history(1), []store.HistoryRow{{Agent: 1, Round: 1, Games: 288}}; !reflect.DeepEqual(got, want) {
		t.Errorf("random's history %+v, want %+v", got, want)
	}
	for id, want := range map[string]store.HistoryRow{
		"3":       {Agent: 3, Round: 2, Elo: 250, Lo: 240, Hi: 260, Games: 144},
		"perfect": {Agent: 2, Round: 2, Elo: 494, Lo: 494, Hi: 494, Games: 144},
		"random":  {Agent: 1, Round: 1, Games: 288},
	} {
		a, err := db.Agent(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if a.Standing == nil || a.Standing.HistoryRow != want {
			t.Errorf("%s's standing %+v, want %+v", id, a.Standing, want)
		}
	}
	curve, _, err := db.Curve(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(curve) != 1 || curve[0].Elo != 240.5 || curve[0].Lo != 220 || curve[0].Hi != 260 {
		t.Errorf("the learning curve %+v, want the snapshot's point moved to 240.5 [220, 260]", curve)
	}
	fits, since, err := db.Fits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int64]float64{1: 0, 2: 494, 3: 250}; !reflect.DeepEqual(fits, want) || since != 0 {
		t.Errorf("fits %v (%d bytes after the full row), want %v in one full row", fits, since, want)
	}
}
