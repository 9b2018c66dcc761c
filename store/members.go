package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"ttt/agents/game"
)

// Member is what a league keeps of an agent between rounds: its id, kind
// and the round that made it, its last history row (Round 0 while it is
// unrated), from which the league decides its next one, and the Elo its
// standing shows, the fit's.
type Member struct {
	ID     int64
	Kind   Kind
	Method string // empty for the built-in players
	Round  int64
	Shown  HistoryRow
	Elo    float64
}

// Members hands every agent with an id above after to each, in id order,
// as a league keeps it: the load of a league of 100,000 agents reads no
// more of them than that, into one place made once.
func (db *DB) Members(ctx context.Context, after int64, each func(Member) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		// A standing's round is that of its agent's last history row.
		rows, err := tx.QueryContext(ctx, `SELECT a.id, a.kind, coalesce(a.method, ''), a.generation,
			coalesce(h.round_id, 0), coalesce(h.elo, 0), coalesce(h.lo, 0), coalesce(h.hi, 0), coalesce(h.games, 0),
			coalesce(s.elo, 0)
			FROM agents a LEFT JOIN standings s ON s.agent_id = a.id
			LEFT JOIN history h ON h.agent_id = s.agent_id AND h.round_id = s.round_id
			WHERE a.id > ? ORDER BY a.id`, after)
		if err != nil {
			return err
		}
		defer rows.Close()
		var m Member
		return scanEach(ctx, rows, []any{&m.ID, &m.Kind, &m.Method, &m.Round, &m.Shown.Round, &m.Shown.Elo, &m.Shown.Lo, &m.Shown.Hi, &m.Shown.Games, &m.Elo}, func() error {
			m.Shown.Agent = m.ID
			return each(m)
		})
	})
}

// builtinIDs is the query of the built-in players' ids (every agent that
// is not a network). They are made with the league, so they are among its
// first agents: reading those is enough.
const builtinIDs = `(SELECT id FROM (SELECT id, kind FROM agents ORDER BY id LIMIT 32)
	WHERE kind NOT IN ('checkpoint', 'baseline', 'imported', 'searched'))`

// Builtins returns the names of the league's built-in players, by id.
func (db *DB) Builtins(ctx context.Context) (map[int64]string, error) {
	names := map[int64]string{}
	err := db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT id, name FROM agents WHERE id IN "+builtinIDs)
		if err != nil {
			return err
		}
		defer rows.Close()
		var id int64
		var name string
		return scanEach(ctx, rows, []any{&id, &name}, func() error {
			names[id] = name
			return nil
		})
	})
	return names, err
}

// SetShares are an agent's scores on the position sets: the tactical
// set's, and the random-ply set's, nil for an agent measured before that
// set.
type SetShares struct {
	Tactical game.Score
	Random   *game.Score
}

// Shares returns the position-set scores of the agents ids that have
// them, by id: a learning curve's second measure, read without the
// networks.
func (db *DB) Shares(ctx context.Context, ids []int64) (map[int64]SetShares, error) {
	var out map[int64]SetShares
	err := db.View(ctx, func(v *View) (err error) {
		out, err = v.Shares(ids)
		return err
	})
	return out, err
}

// Shares is DB.Shares, in the view: both sets' columns in one read of
// each agent's row.
func (v *View) Shares(ids []int64) (map[int64]SetShares, error) {
	out := map[int64]SetShares{}
	stmt, err := v.tx.PrepareContext(v.ctx, `SELECT set_optimal, set_positions, random_optimal, random_positions
		FROM agents WHERE id = ? AND set_positions IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	for _, id := range ids {
		var (
			s      SetShares
			random [2]sql.Null[int64] // optimal and positions
		)
		switch err := stmt.QueryRowContext(v.ctx, id).Scan(&s.Tactical.Optimal, &s.Tactical.Positions, &random[0], &random[1]); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, fmt.Errorf("agent %d: %w", id, err)
		default:
			if random[1].Valid {
				s.Random = &game.Score{Optimal: int(random[0].V), Positions: int(random[1].V)}
			}
			out[id] = s
		}
	}
	return out, nil
}
