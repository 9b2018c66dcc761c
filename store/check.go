package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"

	"modernc.org/sqlite"

	"ttt/agents/game"
)

// Check looks for damage in the database and hands what it finds, one
// line each, to found: what SQLite finds (its integrity check of pages
// and indexes, its foreign-key check), a schema other than the
// migrations', every row of every table read as the commands read it
// (a value of another kind than its column's, a time that does not
// parse), the checksum of every stored blob, which SQLite cannot see
// into, the records by side, and the ratings (see checkRatings). Damage
// that stops one of these reads is a line, and the others go on. It
// returns the number of blobs it checked, and an error only when it
// cannot go on reading: the disk failed (ErrIO), the file changed or was
// replaced meanwhile, ctx was cancelled.
func (db *DB) Check(ctx context.Context, found func(string)) (blobs int, err error) {
	var lines []string
	say := func(line string) { lines = append(lines, line) }
	err = db.read(ctx, func(tx *sql.Tx) error {
		blobs = 0
		for _, c := range checks {
			n, err := c.check(ctx, tx, db.game, say)
			blobs += n
			if err == nil {
				continue
			}
			// What SQLite calls damage may be a page the disk failed
			// to give: looked at again (secondLook), it is an I/O
			// error, which ends the check.
			if err = db.secondLook(ctx, translate(err), true); !Damaged(err) {
				return err
			}
			if e, ok := errors.AsType[*sqlite.Error](err); ok {
				say(c.what + ": SQLite cannot read it (" + e.Error() + ")")
			} else {
				say(c.what + ": " + strings.TrimPrefix(err.Error(), ErrCorrupt.Error()+": "))
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// Only now: a read that ended in an error, or in a file that changed
	// under it, has said nothing.
	for _, line := range lines {
		found(line)
	}
	return blobs, nil
}

// Damaged reports whether err says that what the league file holds is
// damaged or inconsistent, rather than that it could not be read (the
// disk failed, the file changed or was replaced meanwhile, the reader was
// stopped): a check names the first and ends on the second.
func Damaged(err error) bool {
	for _, unread := range []error{ErrIO, ErrWrite, ErrBusy, ErrReplaced, ErrChanged, ErrMoved, ErrCannotOpen,
		ErrReadOnly, ErrFull, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, unread) {
			return false
		}
	}
	return err != nil
}

// checks are the parts of Check, in order, each with what its lines
// name: each hands found a line for each fault it finds, returns the
// blobs it checked, and an error when damage keeps it from reading on.
var checks = []struct {
	what  string
	check func(ctx context.Context, tx *sql.Tx, g game.Game, found func(string)) (blobs int, err error)
}{
	{"SQLite", func(ctx context.Context, tx *sql.Tx, _ game.Game, found func(string)) (int, error) {
		lines, err := integrity(ctx, tx, "integrity_check")
		for _, line := range lines {
			found("SQLite: " + line)
		}
		return 0, err
	}},
	{"the schema", func(ctx context.Context, tx *sql.Tx, g game.Game, found func(string)) (int, error) {
		return 0, checkSchema(ctx, tx, g, found)
	}},
	{"SQLite's foreign-key check", func(ctx context.Context, tx *sql.Tx, _ game.Game, found func(string)) (int, error) {
		var broken int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&broken); err != nil {
			return 0, err
		}
		if broken > 0 {
			found(fmt.Sprintf("SQLite: %d rows refer to rows that are not there", broken))
		}
		return 0, nil
	}},
	{"table agents", func(ctx context.Context, tx *sql.Tx, _ game.Game, _ func(string)) (int, error) {
		return 0, queryAgents(ctx, tx, selectAgents+" ORDER BY a.id", nil, func(*Agent) error { return nil })
	}},
	{"the blobs of table agents", checkAgentBlobs},
	{"table learner", checkLearner},
	{"table rounds", func(ctx context.Context, tx *sql.Tx, _ game.Game, _ func(string)) (int, error) {
		_, err := readRounds(ctx, tx, math.MinInt64, math.MaxInt64)
		return 0, err
	}},
	{"table runs", func(ctx context.Context, tx *sql.Tx, _ game.Game, _ func(string)) (int, error) {
		_, err := readRuns(ctx, tx, "")
		return 0, err
	}},
	{"the learning curve", func(ctx context.Context, tx *sql.Tx, _ game.Game, _ func(string)) (int, error) {
		_, err := curvePoints(ctx, tx, "1", -1)
		return 0, err
	}},
	{"table matches", func(ctx context.Context, tx *sql.Tx, _ game.Game, _ func(string)) (int, error) {
		rows, err := tx.QueryContext(ctx, "SELECT round_id, a, b, plies, seed, wins, draws, losses FROM matches")
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		return 0, scanMatches(ctx, rows, false, func(Match) error { return nil })
	}},
	{"table sides", checkSides},
	{"table ladder_games", checkLadderGames},
	{"table ladder_owed", checkLadderOwed},
	{"table history", func(ctx context.Context, tx *sql.Tx, _ game.Game, _ func(string)) (int, error) {
		rows, err := tx.QueryContext(ctx, "SELECT agent_id, round_id, elo, lo, hi, games FROM history")
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		var r HistoryRow
		return 0, scanEach(ctx, rows, []any{&r.Agent, &r.Round, &r.Elo, &r.Lo, &r.Hi, &r.Games}, func() error { return nil })
	}},
	{"table fits", func(ctx context.Context, tx *sql.Tx, _ game.Game, _ func(string)) (int, error) {
		_, _, err := readFits(ctx, tx)
		return 0, err
	}},
	{"the ratings", func(ctx context.Context, tx *sql.Tx, _ game.Game, found func(string)) (int, error) {
		return 0, checkRatings(ctx, tx, found)
	}},
}

// checkAgentBlobs checks every stored network, table and move table
// against its checksum, and that a move table inflates.
func checkAgentBlobs(ctx context.Context, tx *sql.Tx, _ game.Game, found func(string)) (blobs int, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, name, moves, moves_crc, weights, weights_crc FROM agents
		WHERE weights IS NOT NULL ORDER BY id`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var (
		id             int64
		name           string
		moves, weights []byte
		mSum, wSum     sql.Null[int64]
	)
	err = scanEach(ctx, rows, []any{&id, &name, &moves, &mSum, &weights, &wSum}, func() error {
		if err := checkBlob(weights, wSum); err != nil {
			found(fmt.Sprintf("agent %d (%s): its weights: %v", id, name, err))
		}
		if moves != nil {
			if err := checkBlob(moves, mSum); err != nil {
				found(fmt.Sprintf("agent %d (%s): its move table: %v", id, name, err))
			} else if _, err := inflate(moves); err != nil {
				found(fmt.Sprintf("agent %d (%s): its move table: %v", id, name, err))
			}
		}
		blobs++
		return nil
	})
	return blobs, err
}

// checkLearner checks the learner's state against its checksum.
func checkLearner(ctx context.Context, tx *sql.Tx, _ game.Game, found func(string)) (int, error) {
	var state []byte
	var sum sql.Null[int64]
	switch err := tx.QueryRowContext(ctx, "SELECT state, state_crc FROM learner").Scan(&state, &sum); {
	case errors.Is(err, sql.ErrNoRows):
		return 0, nil
	case err != nil:
		return 0, err
	case !sum.Valid || int64(crc32.Checksum(state, crc)) != sum.V:
		found("the learner's state: " + ErrChecksum.Error())
		return 0, nil
	}
	return 1, nil
}

// checkLadderOwed checks that each network that owes extra games against
// the ladder is one: a league run plays them for it before its first
// round. A debt is no damage (a kill after a round's commit leaves it).
func checkLadderOwed(ctx context.Context, tx *sql.Tx, _ game.Game, found func(string)) (int, error) {
	rows, err := tx.QueryContext(ctx, "SELECT o.agent_id, o.round_id, a.kind FROM ladder_owed o LEFT JOIN agents a ON a.id = o.agent_id ORDER BY o.agent_id")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var agent, round int64
	var kind sql.NullString
	return 0, scanEach(ctx, rows, []any{&agent, &round, &kind}, func() error {
		if !Kind(kind.String).Learned() {
			found(fmt.Sprintf("agent %d owes extra games against the ladder after round %d, but is no network the league has learned", agent, round))
		}
		return nil
	})
}

// checkSides checks the matches' records by side, each a part of its
// match: half its games (one of each opening's two), none counted twice.
func checkSides(ctx context.Context, tx *sql.Tx, _ game.Game, found func(string)) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT s.a, s.b FROM sides s JOIN matches m ON m.a = s.a AND m.b = s.b
		WHERE s.wins > m.wins OR s.draws > m.draws OR s.losses > m.losses
			OR 2 * (s.wins + s.draws + s.losses) != m.wins + m.draws + m.losses`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var a, b int64
	return 0, scanEach(ctx, rows, []any{&a, &b}, func() error {
		found(fmt.Sprintf("match %d v %d: its record as X is not a part of its record", a, b))
		return nil
	})
}

// checkLadderGames checks the stored games of each match that keeps them,
// the extra matches against the ladder among them: their checksum, and
// the games of its openings, played to their ends, that make its record
// and leave nothing over.
func checkLadderGames(ctx context.Context, tx *sql.Tx, g game.Game, found func(string)) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT m.a, m.b, m.plies, m.wins, m.draws, m.losses, l.games, l.games_crc
		FROM ladder_games l JOIN matches m ON m.a = l.a AND m.b = l.b
		UNION ALL
		SELECT a, b, plies, wins, draws, losses, games, games_crc FROM ladder_extra`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var m Match
	var sum sql.Null[int64]
	return 0, scanEach(ctx, rows, []any{&m.A, &m.B, &m.Plies, &m.Wins, &m.Draws, &m.Losses, &m.Moves, &sum}, func() error {
		err := checkBlob(m.Moves, sum)
		if err == nil {
			err = MatchGames(g, m, func([]int, bool, game.Result) error { return nil })
		}
		if err != nil {
			found(fmt.Sprintf("match %d v %d, its stored games: %v", m.A, m.B, err))
		}
		return nil
	})
}
