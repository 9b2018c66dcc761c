package store_test

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"ttt/agents/game"
	"ttt/store"
)

// A round commits its snapshot, matches, history rows and standings at
// once, the snapshot's 0 replaced by its id everywhere, and the snapshot's
// first rating is the round's point of the learning curve.
func TestCommitRound(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	start := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)
	r := &store.Round{Kind: store.LeagueRound, Started: start, Finished: start.Add(time.Second), Learner: []byte("state 1"),
		Snapshot: network(store.Checkpoint, testNet(5, 1), 1),
		Matches: []store.Match{
			{A: 2, B: 1, Plies: 2, Seed: 7, Record: game.Record{Wins: 130, Draws: 14}},
			{A: 0, B: 1, Plies: 2, Seed: 8, Record: game.Record{Wins: 100, Draws: 20, Losses: 24}},
			{A: 0, B: 2, Plies: 2, Record: game.Record{Draws: 100, Losses: 44}},
		},
		Updates: []store.Update{
			{Agent: 1, Played: game.Record{Wins: 24, Draws: 34, Losses: 230}},
			{Agent: 2, Played: game.Record{Wins: 174, Draws: 114}},
			{Agent: 0, Played: game.Record{Wins: 100, Draws: 120, Losses: 68}},
		},
		History: []store.HistoryRow{
			{Agent: 0, Elo: 200.5, Lo: 180, Hi: 220, Games: 288},
			{Agent: 1, Games: 288},
			{Agent: 2, Elo: 500.25, Lo: 450, Hi: 550, Games: 288},
		},
		Fits:  &store.Fits{Full: true, Agents: []int64{1, 2, 0}, Elo: []float64{0, 500.25, 200.5}},
		Stats: store.RoundStats{TrainGames: 20000, TrainTime: 200 * time.Millisecond, EvalGames: 432, EvalTime: time.Millisecond, FitSteps: 3},
	}
	if err := db.CommitRound(ctx, r); err != nil {
		t.Fatal(err)
	}
	if r.ID != 1 || r.Snapshot.ID != 3 || r.Snapshot.Name != "checkpoint-3" || r.Snapshot.Generation != 1 {
		t.Fatalf("round %d, snapshot %d %q of generation %d", r.ID, r.Snapshot.ID, r.Snapshot.Name, r.Snapshot.Generation)
	}
	var matches []store.Match
	if err := db.Matches(ctx, store.MatchFilter{}, func(m store.Match) error { matches = append(matches, m); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []store.Match{
		{Round: 1, A: 2, B: 1, Plies: 2, Seed: 7, Record: game.Record{Wins: 130, Draws: 14}},
		{Round: 1, A: 3, B: 1, Plies: 2, Seed: 8, Record: game.Record{Wins: 100, Draws: 20, Losses: 24}},
		{Round: 1, A: 3, B: 2, Plies: 2, Record: game.Record{Draws: 100, Losses: 44}},
	}
	if !reflect.DeepEqual(matches, want) {
		t.Errorf("matches\n%v\nwant\n%v", matches, want)
	}
	snap, err := db.Agent(ctx, "3")
	if err != nil {
		t.Fatal(err)
	}
	wantStanding := &store.Standing{HistoryRow: store.HistoryRow{Agent: 3, Round: 1, Elo: 200.5, Lo: 180, Hi: 220, Games: 288},
		Record: game.Record{Wins: 100, Draws: 120, Losses: 68}}
	if !reflect.DeepEqual(snap.Standing, wantStanding) {
		t.Errorf("the snapshot's standing %+v, want %+v", snap.Standing, wantStanding)
	}

	// Round 2: perfect's fit moves a little (no history row), random
	// plays again; the standing keeps its shown rating and adds games.
	r2 := &store.Round{Kind: store.LeagueRound, Started: start, Finished: start,
		Updates: []store.Update{{Agent: 2, Played: game.Record{Draws: 2}}},
		Fits:    &store.Fits{Agents: []int64{2}, Elo: []float64{500.5}}}
	if err := db.CommitRound(ctx, r2); err != nil {
		t.Fatal(err)
	}
	perfect, err := db.Agent(ctx, "perfect")
	if err != nil {
		t.Fatal(err)
	}
	if s := perfect.Standing; s.Round != 1 || s.Elo != 500.25 || s.Record != (game.Record{Wins: 174, Draws: 116}) || s.Games != 290 {
		t.Errorf("perfect's standing after round 2: %+v", s)
	}
	fits, _, err := db.Fits(ctx)
	if want := map[int64]float64{1: 0, 2: 500.5, 3: 200.5}; err != nil || !reflect.DeepEqual(fits, want) {
		t.Errorf("fits %v (%v), want %v", fits, err, want)
	}
	list, rated, err := db.Standings(ctx, 2)
	if err != nil || rated != 3 || len(list) != 2 || list[0].ID != 2 || list[1].ID != 3 {
		t.Errorf("standings: %d rated, top 2 %v, %v", rated, list, err)
	}

	rounds, err := db.Rounds(ctx, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 {
		t.Fatalf("%d rounds", len(rounds))
	}
	first := rounds[0]
	if first.Kind != store.LeagueRound || !first.Started.Equal(start) || !first.Finished.Equal(start.Add(time.Second)) ||
		first.Snapshot != 3 || first.Rating == nil || first.Rating.Elo != 200.5 || first.Stats == nil ||
		first.Stats.TrainTime != 200*time.Millisecond || first.Stats.EvalGames != 432 || first.Stats.FitSteps != 3 {
		t.Errorf("round 1 reads back as %+v %+v %+v", first, first.Rating, first.Stats)
	}
	if rounds[1].Snapshot != 0 || rounds[1].Rating != nil {
		t.Errorf("round 2 had no snapshot: %+v", rounds[1])
	}
}

// Only the last round keeps its learner: a resumed league reads no other,
// and on every round the learners would be a sixth of the database.
func TestOnlyTheLastRoundKeepsItsLearner(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := mustOpen(t, path)
	for i := range 3 {
		r := &store.Round{Kind: store.LeagueRound, Learner: bytes.Repeat([]byte{byte(i + 1)}, 12000)}
		if err := db.CommitRound(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	id, learner, err := db.LastRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if id != 3 || !bytes.Equal(learner, bytes.Repeat([]byte{3}, 12000)) {
		t.Errorf("last round %d with %d bytes of learner %x..., want round 3's", id, len(learner), learner[:min(len(learner), 4)])
	}
	var kept int
	if err := rawDB(t, path).QueryRow("SELECT count(*) FROM learner").Scan(&kept); err != nil {
		t.Fatal(err)
	}
	if kept != 1 {
		t.Errorf("%d learners kept, want 1", kept)
	}
	// A round of ttt roundrobin stores no learner: the league's stays.
	if err := db.CommitRound(ctx, &store.Round{Kind: store.RobinRound}); err != nil {
		t.Fatal(err)
	}
	if id, learner, err := db.LastRound(ctx); id != 4 || !bytes.Equal(learner, bytes.Repeat([]byte{3}, 12000)) || err != nil {
		t.Errorf("after a round-robin: round %d, %d bytes of learner, %v", id, len(learner), err)
	}
}

// The matches of an agent, or of a range of rounds, and no others.
func TestMatchFilter(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	ids := addNets(t, db, 3)
	for _, ms := range [][]store.Match{
		{{A: 2, B: 1}, {A: ids[0], B: 1}},
		{{A: ids[1], B: ids[0]}, {A: ids[1], B: 2}},
		{{A: ids[2], B: ids[0]}},
	} {
		if err := db.CommitRound(ctx, &store.Round{Kind: store.RobinRound, Matches: ms}); err != nil {
			t.Fatal(err)
		}
	}
	list := func(f store.MatchFilter) (out [][3]int64) {
		t.Helper()
		err := db.Matches(ctx, f, func(m store.Match) error { out = append(out, [3]int64{m.Round, m.A, m.B}); return nil })
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct {
		f    store.MatchFilter
		want [][3]int64
	}{
		{store.MatchFilter{Agent: ids[0]}, [][3]int64{{1, 3, 1}, {2, 4, 3}, {3, 5, 3}}},
		{store.MatchFilter{First: 2, Last: 2}, [][3]int64{{2, 4, 2}, {2, 4, 3}}},
		{store.MatchFilter{Agent: 2, First: 2}, [][3]int64{{2, 4, 2}}},
	} {
		if got := list(tc.f); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
	}
}
