package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ttt/agents/game"
	"ttt/store"
)

// The learning curve: a point for each round that made a snapshot, at
// the rating that round gave it; thinned to rounds spread evenly from the
// first to the newest, both kept, each read by its key.
func TestCurve(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	if newest, err := db.NewestRound(ctx); err != nil || newest != 0 {
		t.Fatalf("a new league's newest round: %d %v", newest, err)
	}
	if curve, newest, err := db.Curve(ctx, 10); err != nil || curve != nil || newest != 0 {
		t.Fatalf("a new league's curve: %v %d %v", curve, newest, err)
	}
	var all []store.Rating
	for round := int64(1); round <= 10; round++ {
		r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now()}
		if round == 5 { // a round robin makes no snapshot
			r.Kind = store.RobinRound
		} else {
			elo := 10 * float64(round)
			r.Snapshot = network(store.Checkpoint, testNet(3, uint64(round)), uint64(round))
			r.History = []store.Rating{{Agent: 0, Elo: elo, Lo: elo - 5, Hi: elo + 5, Games: 144}}
			r.Updates = []store.Update{{Agent: 0, Played: game.Record{Wins: 144}}}
		}
		if err := db.CommitRound(ctx, r); err != nil {
			t.Fatal(err)
		}
		if r.Snapshot != nil {
			all = append(all, store.Rating{Agent: r.Snapshot.ID, Round: round, Elo: 10 * float64(round),
				Lo: 10*float64(round) - 5, Hi: 10*float64(round) + 5})
		}
	}
	if newest, err := db.NewestRound(ctx); err != nil || newest != 10 {
		t.Errorf("newest round %d %v, want 10", newest, err)
	}
	pick := func(rounds ...int64) (list []store.Rating) {
		for _, r := range all {
			for _, want := range rounds {
				if r.Round == want {
					list = append(list, r)
				}
			}
		}
		return list
	}
	for _, c := range []struct {
		points int
		want   []store.Rating
	}{
		{100, all},
		{10, all},
		{9, pick(1, 2, 3, 4, 6, 7, 8, 10)}, // 1 + i*9/8: 1 2 3 4 5 6 7 8 10
		{4, pick(1, 4, 7, 10)},
		{3, pick(1, 10)}, // 1 5 10, and 5 made no snapshot
		{2, pick(1, 10)},
		{1, pick(1)},
	} {
		curve, newest, err := db.Curve(ctx, c.points)
		if err != nil || newest != 10 || !reflect.DeepEqual(curve, c.want) {
			t.Errorf("Curve(%d): %v, newest %d, %v\nwant %v", c.points, curve, newest, err, c.want)
		}
	}
}

// A reader's connections refuse every write in SQLite itself (query_only),
// whatever runs on them, and still see what a writer commits after they
// opened, through the -wal; the last to close still folds the -wal into
// the file and removes it, as a writer's would.
func TestOpenReadIsQueryOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "league.db")
	writer, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	addNets(t, writer, 1)
	reader, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// Two connections at once: the pragma is on each, not on one.
	raw := store.SQLOf(reader)
	var conns []*sql.Conn
	for range 2 {
		c, err := raw.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, q := range []string{
		"INSERT INTO settings (name, value) VALUES ('x', 'y')",
		"DELETE FROM agents",
		"CREATE TABLE t (x)",
		"PRAGMA user_version = 99",
	} {
		_, err := conns[i%2].ExecContext(ctx, q)
		if err == nil || !strings.Contains(err.Error(), "readonly") {
			t.Errorf("%s on a reader: %v, want SQLite's refusal to write", q, err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	addNets(t, writer, 1)
	if n, err := reader.Count(ctx); err != nil || n != 4 {
		t.Errorf("the reader counts %d agents (%v) after the writer's second commit, want 4", n, err)
	}
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	if err := reader.Close(); err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); got != "league.db" {
		t.Errorf("files after the last reader closed: %q, want the database alone", got)
	}
	db := mustOpen(t, path)
	if n, err := db.Count(ctx); err != nil || n != 4 {
		t.Errorf("%d agents (%v) in the file, want 4", n, err)
	}
}
