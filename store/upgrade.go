package store

import (
	"context"
	"database/sql"
	"hash/crc32"
	"maps"
	"slices"
)

// upgrades are the Go steps of migrations, by schema version: what a
// migration's SQL cannot compute. Each runs right after its SQL, in the
// same transaction.
var upgrades = map[int]func(context.Context, *sql.Tx) error{
	2: upgrade2,
}

// upgrade2 completes migration 0002: checksums of the stored networks and
// of the learner's state, the dense rating history of schema 1 compacted
// into the sparse one, and the standings.
func upgrade2(ctx context.Context, tx *sql.Tx) error {
	// STEP 1: checksums.
	if err := checksum(ctx, tx, "SELECT id, weights FROM agents WHERE weights IS NOT NULL",
		"UPDATE agents SET weights_crc = ? WHERE id = ?"); err != nil {
		return err
	}
	if err := checksum(ctx, tx, "SELECT round_id, state FROM learner",
		"UPDATE learner SET state_crc = ? WHERE round_id = ?"); err != nil {
		return err
	}

	// STEP 2: the history, keeping an agent's first row and every row
	// that moved by more than HistoryStep from the last one kept, as the
	// league writes it now; then the standings, the agent's last kept
	// row.
	rows, err := tx.QueryContext(ctx, "SELECT agent_id, round_id, elo, lo, hi, games FROM ratings ORDER BY agent_id, round_id")
	if err != nil {
		return err
	}
	var kept []Rating
	fits := map[int64]float64{}
	for rows.Next() {
		var r Rating
		if err := rows.Scan(&r.Agent, &r.Round, &r.Elo, &r.Lo, &r.Hi, &r.Games); err != nil {
			rows.Close()
			return err
		}
		fits[r.Agent] = r.Elo
		if n := len(kept); n == 0 || kept[n-1].Agent != r.Agent || r.MovedFrom(kept[n-1]) {
			kept = append(kept, r)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i, r := range kept {
		if _, err := tx.ExecContext(ctx, "INSERT INTO history (agent_id, round_id, elo, lo, hi, games) VALUES (?, ?, ?, ?, ?, ?)",
			r.Agent, r.Round, r.Elo, r.Lo, r.Hi, r.Games); err != nil {
			return err
		}
		if i+1 < len(kept) && kept[i+1].Agent == r.Agent {
			continue // not its last row
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO standings (agent_id, round_id, elo, lo, hi, wins, draws, losses, class)
			SELECT ?, ?, ?, ?, ?, 0, 0, 0, CASE WHEN kind IN ('random', 'perfect') THEN NULL ELSE class END
			FROM agents WHERE id = ?`, r.Agent, r.Round, r.Elo, r.Lo, r.Hi, r.Agent); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE standings SET (wins, draws, losses) = (
		SELECT coalesce(sum(w), 0), coalesce(sum(d), 0), coalesce(sum(l), 0) FROM (
			SELECT wins AS w, draws AS d, losses AS l FROM matches WHERE a = standings.agent_id
			UNION ALL
			SELECT losses, draws, wins FROM matches WHERE b = standings.agent_id))`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DROP TABLE ratings"); err != nil {
		return err
	}

	// STEP 3: the fit's ratings: schema 1 refitted every round, so each
	// agent's newest rating is an exact maximum, the one a league now goes
	// on from.
	var last sql.Null[int64]
	if err := tx.QueryRowContext(ctx, "SELECT max(id) FROM rounds").Scan(&last); err != nil {
		return err
	}
	if !last.Valid {
		return nil
	}
	full := &Fits{Full: true}
	for _, id := range slices.Sorted(maps.Keys(fits)) {
		full.Agents, full.Elo = append(full.Agents, id), append(full.Elo, fits[id])
	}
	return insertFits(ctx, tx, last.V, full)
}

// checksum sets the CRC-32C of a blob in every row that query returns as
// (id, blob), with update (crc, id).
func checksum(ctx context.Context, tx *sql.Tx, query, update string) error {
	type sum struct{ id, crc int64 }
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	var sums []sum
	for rows.Next() {
		var s sum
		var blob []byte
		if err := rows.Scan(&s.id, &blob); err != nil {
			rows.Close()
			return err
		}
		s.crc = int64(crc32.Checksum(blob, crc))
		sums = append(sums, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range sums {
		if _, err := tx.ExecContext(ctx, update, s.crc, s.id); err != nil {
			return err
		}
	}
	return nil
}
