package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// The learning curve: the snapshots of the league's rounds at the ratings
// those rounds' fits gave them, which the progress chart of ttt serve and
// ttt ratings plot draw.

// CurvePoint is a point of the learning curve: a league round's snapshot
// at the rating that round's fit gave it (Games is 0: a round does not
// store it), the method that made the snapshot, and the games its
// learner had trained then.
type CurvePoint struct {
	HistoryRow
	Method     string
	TrainGames int // the games its learner had trained
}

// Curve returns the league's learning curve, each league round's
// snapshot at the rating that round's fit gave it, with its method,
// thinned to at most points rounds of each method, and the newest round.
// A league of more rounds is read at points round ids spread evenly from
// the first round to the newest, both included (id i is round first +
// i*(newest-first)/(points-1)), each with the rounds after it up to a
// window of as many rounds as the league has learners (curveWindow):
// each method's point of an id is its first snapshot in that window.
// Each round is read by its key, so the cost is the same at a hundred
// rounds and at a million. Rounds that made no snapshot (ttt roundrobin)
// have no point, so a league with such rounds may give fewer.
func (db *DB) Curve(ctx context.Context, points int) (curve []CurvePoint, newest int64, err error) {
	err = db.View(ctx, func(v *View) (err error) {
		curve, newest, err = v.Curve(points)
		return err
	})
	return curve, newest, err
}

// curvePoints reads the curve's points of the rounds that where selects
// with args, the first limit of them (-1: all) in the order of their ids.
// Each snapshot's method is a look-up of the agents' key.
func curvePoints(ctx context.Context, tx *sql.Tx, where string, limit int, args ...any) (curve []CurvePoint, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT r.id, r.snapshot_id, r.elo, r.lo, r.hi, coalesce(a.method, ''), coalesce(a.train_games, 0)
		FROM rounds r LEFT JOIN agents a ON a.id = r.snapshot_id
		WHERE r.elo IS NOT NULL AND `+where+` ORDER BY r.id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p CurvePoint
		if err := rows.Scan(&p.Round, &p.Agent, &p.Elo, &p.Lo, &p.Hi, &p.Method, &p.TrainGames); err != nil {
			return nil, err
		}
		if err := p.check(); err != nil {
			return nil, err
		}
		curve = append(curve, p)
	}
	return curve, rows.Err()
}

// Curve is DB.Curve, in the view.
func (v *View) Curve(points int) (curve []CurvePoint, newest int64, err error) {
	ctx, tx := v.ctx, v.tx
	var first, last sql.Null[int64]
	// Two subqueries: SQLite reads min and max from the key's ends
	// only when each is alone in its query, and scans the table for
	// min(id), max(id).
	if err := tx.QueryRowContext(ctx, "SELECT (SELECT min(id) FROM rounds), (SELECT max(id) FROM rounds)").Scan(&first, &last); err != nil {
		return nil, 0, err
	}
	newest = last.V
	if !last.Valid || points < 1 {
		return nil, newest, nil
	}
	n := last.V - first.V + 1
	if n <= int64(points) {
		curve, err = curvePoints(ctx, tx, "r.id BETWEEN ? AND ?", -1, first.V, last.V)
		return curve, newest, err
	}
	window, err := curveWindow(ctx, tx)
	if err != nil {
		return nil, 0, err
	}
	spread := make([]int64, points)
	var ids []int64 // the rounds of the windows, each once
	next := first.V
	for i := range spread {
		spread[i] = first.V
		if points > 1 {
			spread[i] += int64(i) * (n - 1) / int64(points-1)
		}
		for next = max(next, spread[i]); next < spread[i]+window && next <= last.V; next++ {
			ids = append(ids, next)
		}
	}
	list, _ := json.Marshal(ids) // numbers always marshal
	// One statement for all the ids: json_each hands the list to SQLite
	// as a table, and each id is a look-up of the key.
	read, err := curvePoints(ctx, tx, "r.id IN (SELECT value FROM json_each(?))", -1, string(list))
	if err != nil {
		return nil, 0, err
	}
	return spreadPoints(read, spread, window), newest, nil
}

// curveWindow is how many rounds from each of its spread ids a thinned
// curve reads: as many as the league has learners (its setting
// learners, a list of methods; one in a league older than the setting),
// which take turns a round each, so that every line has a snapshot in
// any window of that many rounds. One round per id would draw a league
// of two learners from the odd rounds alone when the ids are two apart;
// and each round read costs a look-up of its snapshot's method, stored
// after the agent's blobs.
func curveWindow(ctx context.Context, tx *sql.Tx) (int64, error) {
	var learners string
	err := tx.QueryRowContext(ctx, "SELECT value FROM settings WHERE name = 'learners'").Scan(&learners)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	return int64(strings.Count(learners, ",") + 1), nil
}

// spreadPoints keeps of read, the points of the windows of window rounds
// from the spread ids, each method's first point in each window: at most
// one point of a method for each id, and none twice where windows
// overlap.
func spreadPoints(read []CurvePoint, spread []int64, window int64) []CurvePoint {
	keep := make([]bool, len(read))
	for _, s := range spread {
		k, _ := slices.BinarySearchFunc(read, s, func(p CurvePoint, id int64) int { return cmp.Compare(p.Round, id) })
		var seen []string
		for ; k < len(read) && read[k].Round < s+window; k++ {
			if !slices.Contains(seen, read[k].Method) {
				seen = append(seen, read[k].Method)
				keep[k] = true
			}
		}
	}
	var out []CurvePoint
	for k, p := range read {
		if keep[k] {
			out = append(out, p)
		}
	}
	return out
}

// CurveAfter is the learning curve's points of the rounds after round
// after, oldest first, at most limit of them, and the newest round: what
// a chart that holds the curve up to after lacks. Its rounds are a range
// of the key.
func (v *View) CurveAfter(after int64, limit int) (curve []CurvePoint, newest int64, err error) {
	if err := v.tx.QueryRowContext(v.ctx, "SELECT coalesce(max(id), 0) FROM rounds").Scan(&newest); err != nil {
		return nil, 0, err
	}
	curve, err = curvePoints(v.ctx, v.tx, "r.id > ?", limit, after)
	return curve, newest, err
}
