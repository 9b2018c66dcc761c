package store

import (
	"context"
	"database/sql"
	"fmt"
	"hash/crc32"
	"math"
	"regexp"
	"strconv"
	"strings"

	sqlite3 "modernc.org/sqlite/lib"
)

// Check looks for damage in the database and hands what it finds, one
// line each, to found: SQLite's integrity check (pages, indexes), the
// foreign-key check, the checksum of every stored blob, which SQLite
// cannot see into, the records by side, and the ratings (see
// checkRatings). It returns the
// number of blobs it checked, and an error only when it cannot go on
// reading.
func (db *DB) Check(ctx context.Context, found func(string)) (blobs int, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		// STEP 1: SQLite's own checks, which report "ok" when all is well.
		// A page the check could not read makes it report the pages
		// below it as lost too: an I/O error, not damage, and nothing it
		// said can be trusted.
		rows, err := tx.QueryContext(ctx, "PRAGMA integrity_check")
		if err != nil {
			return err
		}
		var line string
		var lines []string
		err = scanEach(ctx, rows, []any{&line}, func() error {
			if unread := unreadable(line); unread != "" {
				return fmt.Errorf("%w: SQLite's integrity check met it (%s): run the command again", ErrIO, unread)
			}
			if line != "ok" {
				lines = append(lines, line)
			}
			return nil
		})
		rows.Close()
		if err != nil {
			return err
		}
		for _, line := range lines {
			found("SQLite: " + line)
		}
		var broken int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&broken); err != nil {
			return err
		}
		if broken > 0 {
			found(fmt.Sprintf("SQLite: %d rows refer to rows that are not there", broken))
		}

		// STEP 2: every blob against its checksum.
		rows, err = tx.QueryContext(ctx, `SELECT id, name, moves, moves_crc, weights, weights_crc FROM agents
			WHERE weights IS NOT NULL ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for n := 0; rows.Next(); n++ {
			if n%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			var (
				id             int64
				name           string
				moves, weights []byte
				mSum, wSum     sql.Null[int64]
			)
			if err := rows.Scan(&id, &name, &moves, &mSum, &weights, &wSum); err != nil {
				return err
			}
			if err := checkBlob(weights, wSum); err != nil {
				found(fmt.Sprintf("agent %d (%s): its weights: %v", id, name, err))
			}
			if moves != nil {
				if err := checkBlob(moves, mSum); err != nil {
					found(fmt.Sprintf("agent %d (%s): its move table: %v", id, name, err))
				}
			}
			blobs++
		}
		if err := rows.Err(); err != nil {
			return err
		}
		var state []byte
		var sum sql.Null[int64]
		switch err := tx.QueryRowContext(ctx, "SELECT state, state_crc FROM learner").Scan(&state, &sum); {
		case err == sql.ErrNoRows:
		case err != nil:
			return err
		case !sum.Valid || int64(crc32.Checksum(state, crc)) != sum.V:
			found("the learner's state: " + ErrChecksum.Error())
		default:
			blobs++
		}

		// STEP 3: the matches' records by side, each a part of its match:
		// half its games (one of each opening's two), none counted twice.
		rows, err = tx.QueryContext(ctx, `SELECT s.a, s.b FROM sides s JOIN matches m ON m.a = s.a AND m.b = s.b
			WHERE s.wins > m.wins OR s.draws > m.draws OR s.losses > m.losses
				OR 2 * (s.wins + s.draws + s.losses) != m.wins + m.draws + m.losses`)
		if err != nil {
			return err
		}
		var a, b int64
		err = scanEach(ctx, rows, []any{&a, &b}, func() error {
			found(fmt.Sprintf("match %d v %d: its record as X is not a part of its record", a, b))
			return nil
		})
		rows.Close()
		if err != nil {
			return err
		}

		// STEP 4: the standings and the history.
		return checkRatings(ctx, tx, found)
	})
	return blobs, err
}

// unreadPage matches what SQLite's integrity check says of a page it
// could not read: with the error, for a page of a tree; without, for an
// overflow or free page, whose number it has checked before (so that only
// the disk, or memory, can fail it).
var unreadPage = regexp.MustCompile(`page [0-9]+: unable to get the page\. error code=([0-9]+)|failed to get page [0-9]+`)

// unreadable returns what an integrity check line says of a page that the
// disk failed to give, or "". SQLite reports EIO on a read as an I/O error
// (SQLITE_IOERR_CORRUPTFS, 8458) inside the check, which its callers see
// as SQLITE_CORRUPT.
func unreadable(line string) string {
	m := unreadPage.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	if code, err := strconv.Atoi(m[1]); m[1] != "" && (err != nil || code&0xff != sqlite3.SQLITE_IOERR) {
		return ""
	}
	return m[0]
}

// ratingChecks are what checkRatings asks of the standings, the history
// and the rounds' points of the learning curve, each a query of what
// fails it (named as the line says it) and the line that says how. No fit
// writes a rating that is not a finite number, which JSON cannot hold
// (ttt serve could not answer it); an agent's standing is the fit's
// rating, within HistoryStep of its last history row, whose round it
// names, and an agent that has played has one.
var ratingChecks = []struct{ query, says string }{
	{`SELECT ` + agentLabel + ` FROM standings s JOIN agents a ON a.id = s.agent_id
		WHERE NOT (` + finiteSQL("s") + `) ORDER BY a.id`,
		"its standing's rating is not a finite number"},
	{`SELECT DISTINCT ` + agentLabel + ` FROM history h JOIN agents a ON a.id = h.agent_id
		WHERE NOT (` + finiteSQL("h") + `) ORDER BY a.id`,
		"a rating in its history is not a finite number"},
	{`SELECT 'round ' || r.id FROM rounds r WHERE r.elo IS NOT NULL AND NOT (` + finiteSQL("r") + `) ORDER BY r.id`,
		"the rating of its snapshot is not a finite number"},
	{`SELECT ` + agentLabel + ` FROM standings s JOIN agents a ON a.id = s.agent_id
		WHERE NOT EXISTS (SELECT 1 FROM history h WHERE h.agent_id = s.agent_id AND h.round_id = s.round_id
			AND abs(h.elo - s.elo) <= ` + historyStepSQL + ` AND abs(h.lo - s.lo) <= ` + historyStepSQL + `
			AND abs(h.hi - s.hi) <= ` + historyStepSQL + `)
			OR EXISTS (SELECT 1 FROM history h WHERE h.agent_id = s.agent_id AND h.round_id > s.round_id)
		ORDER BY a.id`,
		"its standing is not within a history step of its last history row"},
	{`SELECT DISTINCT ` + agentLabel + ` FROM history h JOIN agents a ON a.id = h.agent_id
		WHERE NOT EXISTS (SELECT 1 FROM standings s WHERE s.agent_id = h.agent_id)
		ORDER BY a.id`,
		"it has a rating history but no standing"},
	{`SELECT ` + agentLabel + ` FROM agents a
		WHERE NOT EXISTS (SELECT 1 FROM standings s WHERE s.agent_id = a.id)
			AND (EXISTS (SELECT 1 FROM matches m WHERE m.a = a.id) OR EXISTS (SELECT 1 FROM matches m WHERE m.b = a.id))
		ORDER BY a.id`,
		"it has played but is not rated"},
}

// historyStepSQL is HistoryStep in SQL.
var historyStepSQL = strconv.FormatFloat(HistoryStep, 'g', -1, 64)

// agentLabel names agent a in SQL as Check's lines do: agent ID (NAME).
const agentLabel = `'agent ' || a.id || ' (' || a.name || ')'`

// finiteSQL is an SQL condition: the rating of table t's row (elo, lo and
// hi) is finite numbers. SQLite stores a NaN as NULL, which fails it, as
// does text (such as 'Inf', which a reader would take for an infinity).
func finiteSQL(t string) string {
	var terms []string
	for _, col := range []string{"elo", "lo", "hi"} {
		c := t + "." + col
		terms = append(terms, fmt.Sprintf("typeof(%s) IN ('real', 'integer') AND abs(%s) <= %g", c, c, math.MaxFloat64))
	}
	return strings.Join(terms, " AND ")
}

// checkRatings hands found a line for each agent or round that fails one
// of ratingChecks.
func checkRatings(ctx context.Context, tx *sql.Tx, found func(string)) error {
	for _, c := range ratingChecks {
		rows, err := tx.QueryContext(ctx, c.query)
		if err != nil {
			return err
		}
		var who string
		err = scanEach(ctx, rows, []any{&who}, func() error {
			found(who + ": " + c.says)
			return nil
		})
		rows.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
