package store

import (
	"context"
	"database/sql"
	"fmt"
	"hash/crc32"
)

// Check looks for damage in the database and hands what it finds, one
// line each, to found: SQLite's integrity check (pages, indexes), the
// foreign-key check, and the checksum of every stored blob, which SQLite
// cannot see into. It returns the number of blobs it checked, and an error
// only when it cannot go on reading.
func (db *DB) Check(ctx context.Context, found func(string)) (blobs int, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		// STEP 1: SQLite's own checks, which report "ok" when all is well.
		rows, err := tx.QueryContext(ctx, "PRAGMA integrity_check")
		if err != nil {
			return err
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				rows.Close()
				return err
			}
			if line != "ok" {
				found("SQLite: " + line)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
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
		return nil
	})
	return blobs, err
}
