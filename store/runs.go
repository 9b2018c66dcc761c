package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Run is a run of ttt league run: what it was started with that the
// league does not keep from one run to the next, and when it started
// and ended.
type Run struct {
	ID       int64
	Started  time.Time
	Deadline time.Time // the start and --duration, after which no round starts; zero without --duration
	Rounds   int       // the --rounds limit; 0 for none
	Workers  int
	Ended    time.Time // zero while it runs, and for a run that was killed
	Search   string    // its --search as given (ab4,mcts200); "" for none
	// Progress is what it is doing, as it last wrote it (SetProgress): a
	// JSON object, nil before its first write and after its end; At when
	// it wrote it.
	Progress   []byte
	ProgressAt time.Time
}

// StartRun stores a run that starts, r with no end, and returns its id.
// The caller holds the league's lock.
func (db *DB) StartRun(ctx context.Context, r Run) (id int64, err error) {
	var deadline, rounds, search any // NULL without a limit, or a search
	if !r.Deadline.IsZero() {
		deadline = timeText(r.Deadline)
	}
	if r.Rounds > 0 {
		rounds = r.Rounds
	}
	if r.Search != "" {
		search = r.Search
	}
	err = db.leagueWrite(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, "INSERT INTO runs (started_at, deadline, rounds, workers, search) VALUES (?, ?, ?, ?, ?) RETURNING id",
			timeText(r.Started), deadline, rounds, r.Workers, search).Scan(&id)
	})
	return id, err
}

// EndRun stores when run id ended. The caller holds the league's lock.
func (db *DB) EndRun(ctx context.Context, id int64, at time.Time) error {
	return db.leagueWrite(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE runs SET ended_at = ?, progress = NULL, progress_at = NULL WHERE id = ?", timeText(at), id)
		return err
	})
}

// SetProgress stores what the newest run, the one under way, is doing
// at at: progress, a JSON object (see migration 0019). The caller holds
// the league's lock: its run is the newest.
func (db *DB) SetProgress(ctx context.Context, progress []byte, at time.Time) error {
	return db.leagueWrite(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE runs SET progress = ?, progress_at = ? WHERE id = (SELECT max(id) FROM runs) AND ended_at IS NULL", string(progress), timeText(at))
		return err
	})
}

// LastRun returns the league's newest run: the one under way, if a run
// is; nil in a league that no run of this schema has played.
func (v *View) LastRun() (*Run, error) {
	runs, err := readRuns(v.ctx, v.tx, "ORDER BY id DESC LIMIT 1")
	if err != nil || len(runs) == 0 {
		return nil, err
	}
	return &runs[0], nil
}

// readRuns reads the runs that tail (ORDER BY, LIMIT) selects.
func readRuns(ctx context.Context, tx *sql.Tx, tail string) ([]Run, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, started_at, deadline, rounds, workers, ended_at, search, progress, progress_at FROM runs "+tail)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var (
		runs            []Run
		r               Run
		started         string
		deadline, ended sql.Null[string]
		rounds          sql.Null[int64]
		search          sql.Null[string]
		progress, at    sql.Null[string]
	)
	err = scanEach(ctx, rows, []any{&r.ID, &started, &deadline, &rounds, &r.Workers, &ended, &search, &progress, &at}, func() error {
		for _, t := range []struct {
			what string
			text sql.Null[string]
			to   *time.Time
		}{{"start", sql.Null[string]{V: started, Valid: true}, &r.Started}, {"deadline", deadline, &r.Deadline}, {"end", ended, &r.Ended}, {"progress's time", at, &r.ProgressAt}} {
			*t.to = time.Time{}
			if !t.text.Valid {
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, t.text.V)
			if err != nil {
				return fmt.Errorf("%w: run %d: its %s %q is no time", ErrCorrupt, r.ID, t.what, t.text.V)
			}
			*t.to = at
		}
		r.Rounds = int(rounds.V)
		r.Search = search.V
		r.Progress = nil
		if progress.Valid && json.Valid([]byte(progress.V)) {
			r.Progress = []byte(progress.V)
		}
		runs = append(runs, r)
		return nil
	})
	return runs, err
}

// timeText is how the tables keep a time: UTC, RFC 3339 to the
// nanosecond.
func timeText(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
