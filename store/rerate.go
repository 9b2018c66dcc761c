package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Rerate stores a refit of every result, on the league's scale or on
// another, in one transaction: ratings holds every rated agent's rating
// and interval as the refit has them (agents without a standing are
// skipped). Each agent's history rows, and its point of the learning
// curve, move by as much as its standing's rating does, so that its
// history keeps its shape and ends within HistoryStep of its new rating
// as before; where the refit's rating or interval is further than that
// from the history's last row, the last round gets a row with it, which
// the standing takes, as a round would write one. The fits table gets one
// full row with the new ratings, which a resumed league goes on from.
func (db *DB) Rerate(ctx context.Context, ratings []HistoryRow) error {
	return db.leagueWrite(ctx, func(tx *sql.Tx) error { return rerate(ctx, tx, ratings) })
}

func rerate(ctx context.Context, tx *sql.Tx, ratings []HistoryRow) error {
	var last sql.Null[int64]
	if err := tx.QueryRowContext(ctx, "SELECT max(id) FROM rounds").Scan(&last); err != nil || !last.Valid {
		return err // no round: no rating to move
	}
	full := &Fits{Full: true}
	for _, r := range ratings {
		// STEP 1: how far its standing moves.
		var was float64
		err := tx.QueryRowContext(ctx, "SELECT elo FROM standings WHERE agent_id = ?", r.Agent).Scan(&was)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		by := r.Elo - was
		full.Agents, full.Elo = append(full.Agents, r.Agent), append(full.Elo, r.Elo)

		// STEP 2: its history and its point of the learning curve, by as
		// much.
		if _, err := tx.ExecContext(ctx, "UPDATE history SET elo = elo + ?1, lo = lo + ?1, hi = hi + ?1 WHERE agent_id = ?2", by, r.Agent); err != nil {
			return fmt.Errorf("history of agent %d: %w", r.Agent, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE rounds SET elo = elo + ?1, lo = lo + ?1, hi = hi + ?1
			WHERE id = (SELECT generation FROM agents WHERE id = ?2) AND snapshot_id = ?2`, by, r.Agent); err != nil {
			return fmt.Errorf("the learning curve's point of agent %d: %w", r.Agent, err)
		}

		// STEP 3: the standing, from its last row, or from a new one.
		row := HistoryRow{Agent: r.Agent}
		if err := tx.QueryRowContext(ctx, "SELECT round_id, elo, lo, hi, games FROM history WHERE agent_id = ? ORDER BY round_id DESC LIMIT 1",
			r.Agent).Scan(&row.Round, &row.Elo, &row.Lo, &row.Hi, &row.Games); err != nil {
			return fmt.Errorf("history of agent %d: %w", r.Agent, err)
		}
		if r.MovedFrom(row) {
			row = r
			row.Round = last.V
			if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO history (agent_id, round_id, elo, lo, hi, games) VALUES (?, ?, ?, ?, ?, ?)",
				row.Agent, row.Round, row.Elo, row.Lo, row.Hi, row.Games); err != nil {
				return fmt.Errorf("history of agent %d: %w", r.Agent, err)
			}
		}
		if _, err := tx.ExecContext(ctx, "UPDATE standings SET round_id = ?, elo = ?, lo = ?, hi = ? WHERE agent_id = ?",
			row.Round, r.Elo, row.Lo, row.Hi, r.Agent); err != nil {
			return fmt.Errorf("standing of agent %d: %w", r.Agent, err)
		}
	}
	return insertFits(ctx, tx, last.V, full)
}
