package commands_test

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"ttt/league/commands/clitest"
)

// ttt league run stores each run: when it started, the deadline of a run
// of --duration (its start and the duration), its --rounds, its workers
// and when it ended; a run without --duration has no deadline, and one
// without --rounds no limit of rounds.
func TestLeagueRunStoresItsRun(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	before := time.Now()
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2", "--duration", "1h", "--workers", "2")...)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1", "--workers", "1")...)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--duration", "1ns")...)
	after := time.Now()

	db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	defer db.Close()
	rows, err := db.Query("SELECT started_at, deadline, rounds, workers, ended_at FROM runs ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type run struct {
		started, ended time.Time
		deadline       sql.NullString
		rounds         sql.NullInt64
		workers        int
	}
	var runs []run
	for rows.Next() {
		var r run
		var started, ended string
		if err := rows.Scan(&started, &r.deadline, &r.rounds, &r.workers, &ended); err != nil {
			t.Fatal(err)
		}
		if r.started, err = time.Parse(time.RFC3339Nano, started); err != nil {
			t.Fatal(err)
		}
		if r.ended, err = time.Parse(time.RFC3339Nano, ended); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil || len(runs) != 3 {
		t.Fatalf("%d runs stored (%v), want 3", len(runs), err)
	}
	for k, r := range runs {
		if r.started.Before(before) || r.ended.Before(r.started) || r.ended.After(after) {
			t.Errorf("run %d: from %v to %v, not within the command's %v to %v", k+1, r.started, r.ended, before, after)
		}
	}
	one, two, three := runs[0], runs[1], runs[2]
	if want := one.started.Add(time.Hour).UTC().Format(time.RFC3339Nano); one.deadline.String != want || one.rounds.Int64 != 2 || one.workers != 2 {
		t.Errorf("the run of --rounds 2 --duration 1h --workers 2: deadline %v (want %s), rounds %v, workers %d", one.deadline, want, one.rounds, one.workers)
	}
	if two.deadline.Valid || two.rounds.Int64 != 1 || two.workers != 1 || two.started.Before(one.ended) {
		t.Errorf("the run of --rounds 1 --workers 1: %+v, after %+v", two, one)
	}
	if three.deadline.String != three.started.Add(time.Nanosecond).UTC().Format(time.RFC3339Nano) || three.rounds.Valid || three.workers < 1 {
		t.Errorf("the run of --duration 1ns: %+v", three)
	}
}
