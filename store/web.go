package store

import (
	"context"
	"database/sql"
	"encoding/json"
)

// The reads of ttt serve, which answers a browser every few hundred
// milliseconds while a league runs and must stay fast at 100,000 rounds:
// each reads a handful of rows by key, never a whole table.

// NewestRound returns the id of the newest committed round, 0 when the
// league has played none. It reads only the end of the rounds table's
// key, so that pages can ask it often to see a new round (LastRound
// reads and checks the learner's state besides).
func (db *DB) NewestRound(ctx context.Context) (id int64, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		var last sql.Null[int64]
		err := tx.QueryRowContext(ctx, "SELECT max(id) FROM rounds").Scan(&last)
		id = last.V
		return err
	})
	return id, err
}

// Curve returns the league's learning curve, each league round's
// snapshot at the rating that round's fit gave it (Rating.Games is 0: a
// round does not store it), thinned to at most points rounds, and the
// newest round. A league of more rounds is read at points round ids
// spread evenly from the first round to the newest, both included: point
// i is round first + i*(newest-first)/(points-1). Each is read by its
// key, so the cost is the same at a hundred rounds and at a million.
// Rounds that made no snapshot (ttt roundrobin) have no point, so a
// league with such rounds may give fewer.
func (db *DB) Curve(ctx context.Context, points int) (curve []Rating, newest int64, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		var first, last sql.Null[int64]
		// Two subqueries: SQLite reads min and max from the key's ends
		// only when each is alone in its query, and scans the table for
		// min(id), max(id).
		if err := tx.QueryRowContext(ctx, "SELECT (SELECT min(id) FROM rounds), (SELECT max(id) FROM rounds)").Scan(&first, &last); err != nil {
			return err
		}
		newest = last.V
		if !last.Valid || points < 1 {
			return nil
		}
		q := "SELECT id, snapshot_id, elo, lo, hi FROM rounds WHERE id BETWEEN ? AND ? AND elo IS NOT NULL ORDER BY id"
		args := []any{first.V, last.V}
		if n := last.V - first.V + 1; n > int64(points) {
			ids := make([]int64, points)
			for i := range ids {
				ids[i] = first.V
				if points > 1 {
					ids[i] += int64(i) * (n - 1) / int64(points-1)
				}
			}
			list, _ := json.Marshal(ids) // numbers always marshal
			// One statement for all the ids: json_each hands the list to
			// SQLite as a table, and each id is a look-up of the key.
			q = `SELECT id, snapshot_id, elo, lo, hi FROM rounds
				WHERE id IN (SELECT value FROM json_each(?)) AND elo IS NOT NULL ORDER BY id`
			args = []any{string(list)}
		}
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r Rating
			if err := rows.Scan(&r.Round, &r.Agent, &r.Elo, &r.Lo, &r.Hi); err != nil {
				return err
			}
			curve = append(curve, r)
		}
		return rows.Err()
	})
	return curve, newest, err
}
