package store_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ttt/store"
)

// A run is stored as it starts, without an end, and its end as it
// stops; LastRun reads the newest, with the limits it had (a deadline
// only for a run of --duration, a limit of rounds only for one of
// --rounds), and nil before any. Check reads the runs too, and names a
// time that does not parse.
func TestRunsRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := mustOpen(t, path)
	if err := db.Lock(); err != nil {
		t.Fatal(err)
	}
	last := func() *store.Run {
		t.Helper()
		var r *store.Run
		if err := db.View(ctx, func(v *store.View) (err error) {
			r, err = v.LastRun()
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := last(); r != nil {
		t.Fatalf("a new league's last run: %+v, want none", r)
	}

	start := time.Date(2025, 11, 28, 21, 0, 0, 123456789, time.Local)
	first := store.Run{Started: start, Deadline: start.Add(8 * time.Hour), Workers: 2}
	id, err := db.StartRun(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	first.ID = id
	if r := last(); r == nil || !sameRun(*r, first) {
		t.Fatalf("the run under way reads %+v, want %+v", r, first)
	}
	first.Ended = start.Add(8*time.Hour + 3*time.Minute)
	if err := db.EndRun(ctx, id, first.Ended); err != nil {
		t.Fatal(err)
	}
	if r := last(); r == nil || !sameRun(*r, first) {
		t.Fatalf("the run ended reads %+v, want %+v", r, first)
	}

	second := store.Run{Started: first.Ended.Add(time.Minute), Rounds: 20, Workers: 1}
	if second.ID, err = db.StartRun(ctx, second); err != nil {
		t.Fatal(err)
	}
	if r := last(); r == nil || !sameRun(*r, second) || second.ID <= first.ID {
		t.Fatalf("the second run reads %+v, want %+v", r, second)
	}
	if _, err := db.Check(ctx, func(line string) { t.Errorf("check: %s", line) }); err != nil {
		t.Fatal(err)
	}

	raw := rawDB(t, path)
	if _, err := raw.Exec("UPDATE runs SET ended_at = 'soon' WHERE id = ?", first.ID); err != nil {
		t.Fatal(err)
	}
	var found []string
	if _, err := db.Check(ctx, func(line string) { found = append(found, line) }); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || !strings.Contains(found[0], "table runs") || !strings.Contains(found[0], `"soon"`) {
		t.Errorf("check of a run's end that is no time: %q", found)
	}
}

// sameRun reports whether a and b are the same run, their times the same
// instants.
func sameRun(a, b store.Run) bool {
	return a.ID == b.ID && a.Started.Equal(b.Started) && a.Deadline.Equal(b.Deadline) && a.Rounds == b.Rounds &&
		a.Workers == b.Workers && a.Ended.Equal(b.Ended) && a.Search == b.Search &&
		string(a.Progress) == string(b.Progress) && a.ProgressAt.Equal(b.ProgressAt)
}

// A run keeps its --search, and what it last wrote it is doing until it
// ends; a run that ended takes no more.
func TestRunProgress(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	if err := db.Lock(); err != nil {
		t.Fatal(err)
	}
	last := func() store.Run {
		t.Helper()
		var r *store.Run
		if err := db.View(ctx, func(v *store.View) (err error) {
			r, err = v.LastRun()
			return err
		}); err != nil || r == nil {
			t.Fatalf("the last run: %v, %v", r, err)
		}
		return *r
	}
	start := time.Date(2026, 12, 8, 1, 0, 0, 0, time.UTC)
	run := store.Run{Started: start, Workers: 2, Search: "ab4,mcts200"}
	var err error
	if run.ID, err = db.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if r := last(); !sameRun(r, run) {
		t.Fatalf("the run reads %+v, want %+v", r, run)
	}
	for _, p := range []string{`{"training":{"round":2,"done":10,"total":20}}`, `{"ladder":{"round":1,"best":"checkpoint-3"}}`} {
		run.Progress, run.ProgressAt = []byte(p), start.Add(time.Duration(len(p))*time.Second)
		if err := db.SetProgress(ctx, run.Progress, run.ProgressAt); err != nil {
			t.Fatal(err)
		}
		if r := last(); !sameRun(r, run) {
			t.Fatalf("after progress %s the run reads %+v, want %+v", p, r, run)
		}
	}
	run.Ended, run.Progress, run.ProgressAt = start.Add(time.Hour), nil, time.Time{}
	if err := db.EndRun(ctx, run.ID, run.Ended); err != nil {
		t.Fatal(err)
	}
	if err := db.SetProgress(ctx, []byte(`{"training":{}}`), start.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if r := last(); !sameRun(r, run) {
		t.Fatalf("the run ended reads %+v, want %+v: no progress", r, run)
	}
}
