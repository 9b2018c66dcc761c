package store

import (
	"context"
	"database/sql"
)

// How a method's transaction runs (see the package doc): a read, in the
// pinned transaction if there is one, and a write of the league's, which
// must still be to the file the league locked. Each says SQLite's errors
// in the store's words (translate, secondLook) and a stop as a stop
// (stopped).

// leagueWrite runs fn in a write transaction of the league and commits
// it, as a round's commit does: the name is checked, under SQLite's
// write lock and just before the writes, to still name the file the
// league locked and SQLite writes; a stop (ctx) says so, and errors are
// translated as every read's are (secondLook).
func (db *DB) leagueWrite(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
	defer tx.Rollback()
	if err := db.sameFile(); err != nil {
		return err
	}
	if err := markJournal(ctx, tx); err != nil {
		return db.secondLook(ctx, translate(stopped(ctx, err)), false)
	}
	if err := fn(tx); err != nil {
		return db.secondLook(ctx, translate(stopped(ctx, err)), false)
	}
	return db.secondLook(ctx, translate(stopped(ctx, tx.Commit())), false)
}

// read runs fn in a read-only transaction, which in WAL mode never waits
// for the league's writer (after Pin, in the pinned one), and translates
// its error (see secondLook). What was read is handed on only if the file
// is still the one opened, and unwritten for a reader that reads it as
// immutable (unchanged); such a reader follows its file first (follow).
func (db *DB) read(ctx context.Context, fn func(*sql.Tx) error) error {
	if err := db.follow(ctx); err != nil {
		return err
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	err := db.inReadTx(ctx, fn)
	if changed := db.unchanged(); changed != nil {
		return changed
	}
	return db.secondLook(ctx, translate(err), true)
}

// inReadTx runs fn in a read-only transaction, the pinned one if any.
func (db *DB) inReadTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx := db.pinned
	if tx == nil {
		var err error
		if tx, err = db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
			return err
		}
		defer tx.Rollback()
	}
	err := fn(tx)
	if err == nil && tx != db.pinned {
		err = tx.Commit()
	}
	if err = stopped(ctx, err); err != nil && tx != db.pinned {
		tx.Rollback() // now: the second look reads on another connection
	}
	return err
}

// stopped is err, or ctx's error when ctx is done. What a read or a
// write under way met then came of the stop (a statement closed, the
// transaction rolled back, SQLite interrupted). A stop is what the
// caller is to see, not "sql: statement is closed". Cancelling ctx rolls
// the transaction back, and may end a read before its last row without
// an error: Commit then says that the transaction is done.
func stopped(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
