package store_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"ttt/agents/verify"
	"ttt/store"
)

func TestRecords(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	ids := addNets(t, db, 3)
	matches := []store.Match{
		{A: 2, B: 1, Wins: 70, Draws: 2, Losses: 0},
		{A: ids[0], B: 1, Wins: 3, Draws: 1, Losses: 0},
		{A: ids[0], B: 2, Wins: 0, Draws: 2, Losses: 5},
		{A: ids[1], B: ids[0], Wins: 1, Draws: 4, Losses: 7},
		{A: ids[1], B: 1, Wins: 9},
	}
	if err := db.CommitRound(ctx, &store.Round{Matches: matches}, func(int64) error { return nil }); err != nil {
		t.Fatal(err)
	}
	records, err := db.Records(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Every agent that played, as Record counts it; ids[2] never played.
	for _, id := range []int64{1, 2, ids[0], ids[1]} {
		want, err := db.Record(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got := records[id]; got != want {
			t.Errorf("agent %d: Records says %v, Record %v", id, got, want)
		}
	}
	if len(records) != 4 {
		t.Errorf("records of %d agents, want the 4 that played: %v", len(records), records)
	}
	if want := (verify.Tally{Wins: 10, Draws: 7, Losses: 6}); records[ids[0]] != want {
		t.Errorf("agent %d: %v, want %v", ids[0], records[ids[0]], want)
	}
}

// Only the last round keeps its learner: a resumed league reads no other,
// and on every round the learners would be a sixth of the database.
func TestOnlyTheLastRoundKeepsItsLearner(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := mustOpen(t, path)
	for i := range 3 {
		r := &store.Round{Learner: bytes.Repeat([]byte{byte(i + 1)}, 12000)}
		if err := db.CommitRound(ctx, r, func(int64) error { return nil }); err != nil {
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
}
