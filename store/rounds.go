package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Match is the record of agent A against agent B over every opening of
// Plies moves, each played once with A as X and once with A as O. Seed
// seeds the random player's games when one of the two is random, and is
// 0 when neither is. A is
// the newer agent (the larger id). Round is the round that played it,
// filled in by CommitRound.
type Match struct {
	Round               int64
	A, B                int64
	Plies               int
	Seed                uint64
	Wins, Draws, Losses int // A's
}

// Round is what a league round adds, all in one transaction: the snapshot
// of the learner, the state the learner needs to go on, the matches
// played and the ratings refitted over every match.
type Round struct {
	ID                int64
	Started, Finished time.Time
	Snapshot          *Agent // a checkpoint; its ID is known only at commit
	Learner           []byte // replaces the last round's: only the newest is kept
	Matches           []Match
	Ratings           []Rating
}

// CommitRound stores a round atomically. The snapshot is stored first;
// then complete (which may take a moment, inside the transaction) is given
// its id and fills in the round's matches and ratings, which may refer to
// it. Either the whole round is in the database afterwards, or none of it.
// It fills in r.ID and r.Snapshot's ID, name and verify figures.
func (db *DB) CommitRound(ctx context.Context, r *Round, complete func(snapshotID int64) error) error {
	if r.Snapshot != nil {
		if err := r.Snapshot.prepare(); err != nil {
			return err
		}
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return translate(err)
	}
	defer tx.Rollback()
	if err := commitRound(ctx, tx, r, complete); err != nil {
		return translate(err)
	}
	return translate(tx.Commit())
}

func commitRound(ctx context.Context, tx *sql.Tx, r *Round, complete func(int64) error) error {
	res, err := tx.ExecContext(ctx, "INSERT INTO rounds (started_at, finished_at) VALUES (?, ?)",
		r.Started.UTC().Format(time.RFC3339Nano), r.Finished.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return err
	}
	if r.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	// The learner table keeps the last round's learner only (see the
	// schema); the pages of the one before go back to SQLite's free list,
	// and this one takes them.
	if _, err := tx.ExecContext(ctx, "DELETE FROM learner"); err != nil {
		return err
	}
	if r.Learner != nil {
		if _, err := tx.ExecContext(ctx, "INSERT INTO learner (round_id, state) VALUES (?, ?)", r.ID, r.Learner); err != nil {
			return err
		}
	}
	var snapshotID int64
	if r.Snapshot != nil {
		r.Snapshot.Generation = int(r.ID)
		if err := addAgent(ctx, tx, r.Snapshot); err != nil {
			return err
		}
		snapshotID = r.Snapshot.ID
	}
	if err := complete(snapshotID); err != nil {
		return err
	}
	match, err := tx.PrepareContext(ctx, `INSERT INTO matches (round_id, a, b, plies, seed, wins, draws, losses)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer match.Close()
	for i := range r.Matches {
		m := &r.Matches[i]
		m.Round = r.ID
		if _, err := match.ExecContext(ctx, r.ID, m.A, m.B, m.Plies, int64(m.Seed), m.Wins, m.Draws, m.Losses); err != nil {
			return fmt.Errorf("match %d-%d: %w", m.A, m.B, err)
		}
	}
	rating, err := tx.PrepareContext(ctx, "INSERT INTO ratings (round_id, agent_id, elo, lo, hi, games) VALUES (?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer rating.Close()
	for i := range r.Ratings {
		rt := &r.Ratings[i]
		rt.Round = r.ID
		if _, err := rating.ExecContext(ctx, r.ID, rt.Agent, rt.Elo, rt.Lo, rt.Hi, rt.Games); err != nil {
			return fmt.Errorf("rating of %d: %w", rt.Agent, err)
		}
	}
	return nil
}

// LastRound returns the id and learner state of the newest round, or
// ErrNoRounds in a league that has played none.
func (db *DB) LastRound(ctx context.Context) (id int64, learner []byte, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT r.id, l.state FROM rounds r LEFT JOIN learner l ON l.round_id = r.id
			ORDER BY r.id DESC LIMIT 1`).Scan(&id, &learner)
	})
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNoRounds
	}
	return id, learner, err
}

// ErrNoRounds: the league has not committed a round yet.
var ErrNoRounds = errors.New("the league has played no round yet")

// Matches returns every match, oldest round first.
func (db *DB) Matches(ctx context.Context) ([]Match, error) {
	var list []Match
	err := db.read(ctx, func(tx *sql.Tx) error {
		// Counted first: a league of a thousand checkpoints has half a
		// million matches, and a list grown by append would allocate
		// five times their size on the way.
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM matches").Scan(&n); err != nil {
			return err
		}
		list = make([]Match, 0, n)
		rows, err := tx.QueryContext(ctx, "SELECT round_id, a, b, plies, seed, wins, draws, losses FROM matches ORDER BY round_id, a, b")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m Match
			var seed int64
			if err := rows.Scan(&m.Round, &m.A, &m.B, &m.Plies, &seed, &m.Wins, &m.Draws, &m.Losses); err != nil {
				return err
			}
			m.Seed = uint64(seed)
			list = append(list, m)
		}
		return rows.Err()
	})
	return list, err
}

// History returns the rating history, by round then agent; of one agent
// when agent is not 0.
func (db *DB) History(ctx context.Context, agent int64) ([]Rating, error) {
	var list []Rating
	err := db.read(ctx, func(tx *sql.Tx) error {
		where, args := "", []any{}
		if agent != 0 {
			where, args = "WHERE agent_id = ?", []any{agent}
		}
		// Counted first, as in Matches: 500 checkpoints have a history of
		// 125,000 ratings.
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM ratings "+where, args...).Scan(&n); err != nil {
			return err
		}
		list = make([]Rating, 0, n)
		rows, err := tx.QueryContext(ctx, "SELECT agent_id, round_id, elo, lo, hi, games FROM ratings "+where+
			" ORDER BY round_id, agent_id", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r Rating
			if err := rows.Scan(&r.Agent, &r.Round, &r.Elo, &r.Lo, &r.Hi, &r.Games); err != nil {
				return err
			}
			list = append(list, r)
		}
		return rows.Err()
	})
	return list, err
}

// read runs fn in a read-only transaction, which in WAL mode never waits
// for the league's writer, and translates its error.
func (db *DB) read(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return translate(err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return translate(err)
	}
	return translate(tx.Commit())
}
