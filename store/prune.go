package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrPruned is the error of a checkpoint whose weights ttt prune dropped.
// Its record, ratings, history, facts and move table remain, so the
// league still rates it, plays it and replays its games; only what needs
// the network or the table itself (export, verify, play) cannot use it.
var ErrPruned = errors.New("its weights were dropped by ttt prune; its record, ratings and games remain")

// Pruning keeps a pruned checkpoint's row as it is, with weights of
// length 0: the schema asks every network for its weights (its checks
// predate pruning), and a table rebuilt to relax them would copy every
// blob of a night's league. An empty blob has a checksum of 0.

// Prune drops the weights (a network's, or a table's file) of every
// tic-tac-toe checkpoint but those keep names and those of the rounds
// that every divides (none when every is 0), in one transaction, and
// returns how many it dropped and their bytes. Only checkpoints with a
// move table are pruned: the league plays and replays them by it.
// Connect Four's checkpoints, which have none, keep their weights.
func (db *DB) Prune(ctx context.Context, keep []int64, every int) (pruned int, bytes int64, err error) {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, db.secondLook(ctx, translate(err), false)
	}
	defer tx.Rollback()
	if err := markJournal(ctx, tx); err != nil {
		return 0, 0, db.secondLook(ctx, translate(err), false)
	}
	// A searched agent plays its parent's model: the parent keeps it.
	where := "kind = 'checkpoint' AND moves IS NOT NULL AND length(weights) > 0 AND id NOT IN (SELECT parent_id FROM agents WHERE kind = 'searched')"
	args := make([]any, 0, len(keep)+1)
	if len(keep) > 0 {
		where += " AND id NOT IN (?" + strings.Repeat(", ?", len(keep)-1) + ")"
		for _, id := range keep {
			args = append(args, id)
		}
	}
	if every > 0 {
		where += " AND generation % ? != 0"
		args = append(args, every)
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(length(weights)), 0) FROM agents WHERE "+where, args...).Scan(&pruned, &bytes); err != nil {
		return 0, 0, db.secondLook(ctx, translate(err), false)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE agents SET weights = x'', weights_crc = 0 WHERE "+where, args...); err != nil {
		return 0, 0, db.secondLook(ctx, translate(err), false)
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, db.secondLook(ctx, translate(err), false)
	}
	return pruned, bytes, nil
}

// Vacuum rewrites the database file without its free pages, which
// pruning leaves (SQLite reuses them for new rows, but never gives them
// back to the file system by itself). It needs as much free space again
// as the file, and the league lock (Lock).
//
// In WAL mode the compacted file is written into the -wal file first, and
// the file gives back its space only when a checkpoint has copied all of
// it (SQLite's TRUNCATE checkpoint, which then empties the -wal). That
// waits for the reads under way of other ttt, up to a second (ttt
// serve's last a few milliseconds); it cannot end while one reads an
// older state all along: the space then comes back when the last of them
// closes the league, and the caller sees the -wal file still full.
func (db *DB) Vacuum(ctx context.Context) error {
	if _, err := db.db.ExecContext(ctx, "VACUUM"); err != nil {
		return fmt.Errorf("compacting the file: %w", db.secondLook(ctx, translate(err), false))
	}
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("compacting the file: %w", db.secondLook(ctx, translate(err), false))
	}
	defer conn.Close()
	var timeout int // the pool's, which the connection goes back to
	if err = conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&timeout); err == nil {
		_, err = conn.ExecContext(ctx, "PRAGMA busy_timeout = 1000")
	}
	if err == nil {
		_, err = conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	if err == nil {
		_, err = conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", timeout))
	}
	if err != nil {
		return fmt.Errorf("compacting the file: %w", db.secondLook(ctx, translate(err), false))
	}
	return nil
}
