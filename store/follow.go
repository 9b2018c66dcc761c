package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"time"

	"modernc.org/sqlite"
)

// Errors of a database file that changed under the DB that opened it.
var (
	// ErrReplaced: the name the database was opened by no longer names
	// the file it opened (cp other.db x.new && mv x.new league.db, a
	// rename, a removal). SQLite finds the -wal and -shm files by name:
	// a connection opened now would read the new file through the old
	// file's journal, two leagues as one. The DB reads no more; a new
	// one opens whatever the name names now.
	ErrReplaced = errors.New("the database file was replaced, renamed or removed since this ttt opened it")
	// ErrChanged: a file read as one that nobody writes (see
	// readOnlyQuery) was written while a read was under way, which may
	// have read pages of two states of the league. The DB follows the
	// file at its next read.
	ErrChanged = errors.New("the database file changed while it was read")
)

// frozenFile is what a reader that opened its file as immutable (no
// locks, no -wal: see readOnlyQuery) knows of it, to see whether anyone
// has written it since. A league that starts on the file, through
// another path (a read-only bind mount of a writable directory) or as a
// user who may write it (root, on a 0444 file), makes the -wal file
// before its first write; another program's write moves the size or the
// time of the last change.
type frozenFile struct {
	size int64
	mod  time.Time
	wal  bool // a -wal file beside it
}

// frozenNow is what the database file at abs looks like now, to a
// reader that reads it as immutable.
func frozenNow(abs string) frozenFile {
	var f frozenFile
	if info, err := os.Stat(abs); err == nil {
		f.size, f.mod = info.Size(), info.ModTime()
	}
	_, err := os.Stat(abs + "-wal")
	f.wal = err == nil
	return f
}

// identify records which file db's connections open: the file at its
// name now, which examine has checked. From then on a connection is made
// (connector) and a read is handed on (read) only while the name still
// names that file.
func (db *DB) identify() error {
	info, err := os.Stat(db.abs)
	if err != nil {
		return err
	}
	db.file = info
	return nil
}

// sameFile returns ErrReplaced when db's name no longer names the file
// it opened, or, for a league that holds the lock (Lock), ErrMoved,
// which says what a league run is to do. A DB that has not opened its
// file yet (identify) has nothing to compare.
func (db *DB) sameFile() error {
	if db.file == nil {
		return nil
	}
	if info, err := os.Stat(db.abs); err == nil && os.SameFile(info, db.file) {
		return nil
	}
	if db.locked {
		return ErrMoved
	}
	return fmt.Errorf("%w: run the command again to read the file that has the name now (ttt serve: start it again)", ErrReplaced)
}

// unchanged returns ErrReplaced (or ErrMoved) when db's file was
// replaced, and for a reader of a file it reads as immutable, ErrChanged
// when the file was written since its state was taken: what a read that
// ends now may have read is not one state of one league.
func (db *DB) unchanged() error {
	if err := db.sameFile(); err != nil {
		return err
	}
	if db.frozen != nil && frozenNow(db.abs) != *db.frozen {
		return fmt.Errorf("%w: a league started on it meanwhile, through another path or as a user who may write it, where this reader, which cannot write beside it, read it as a file that nobody writes: run the command again, which follows the league through its -wal and -shm files", ErrChanged)
	}
	return nil
}

// follow reopens the connections of a reader that reads its file as
// immutable once the file has been written since (see frozenFile): with
// the -wal and -shm files that a league keeps beside it, as a reader
// that cannot write reads a running league (readOnlyQuery); without
// them, as immutable again, at the file's new state. It says why when the
// file can no longer be read: a -wal without its -shm.
func (db *DB) follow(ctx context.Context) error {
	db.mu.RLock()
	stale := db.frozen != nil && db.pinned == nil && frozenNow(db.abs) != *db.frozen
	db.mu.RUnlock()
	if !stale {
		return nil // a pinned DB reads its one state, or says it changed
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.frozen == nil || frozenNow(db.abs) == *db.frozen {
		return nil // another read followed it first
	}
	if err := db.sameFile(); err != nil {
		return err
	}
	now := frozenNow(db.abs)
	query := readerQuery
	if why := writable(db.abs); why != nil {
		var err error
		if query, err = readOnlyQuery(db.abs, why); err != nil {
			return fmt.Errorf("the database file was written since this ttt opened it (a league started on it), and %w", err)
		}
	}
	again := db.connect(query, now.wal)
	var n int
	if err := again.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		again.Close()
		return db.secondLook(ctx, translate(err), true)
	}
	db.db.Close()
	db.db, db.query, db.keeps, db.frozen = again, query, now.wal, nil
	if query == immutableQuery {
		db.frozen = &now
	}
	return nil
}

// connector connects as its Connector does, and then, on a DB whose file
// is known (identify), checks that the name still names that file: a
// connection that opened another file (see ErrReplaced) is closed before
// it reads a page. With persist, the connection keeps the -wal and -shm
// files beside the database when it closes (SQLite's persistent WAL),
// emptied by the last connection. Writers make them so, and readers keep
// them. A reader that may not write the directory needs both to exist to
// see a league's commits, and could not make them: SQLite removing them
// at each close would leave it to read the file as it was when it
// started, while its owner's league went on.
type connector struct {
	driver.Connector
	db      *DB
	persist bool
}

// Connect connects, checks the file and makes the -wal and -shm files
// persistent.
func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.db.sameFile(); err != nil {
		conn.Close()
		return nil, err
	}
	if fc, ok := conn.(sqlite.FileControl); ok && c.persist {
		if _, err := fc.FileControlPersistWAL("main", 1); err != nil {
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

// Pin makes every read of db, until Close, read the league as it is now:
// one read transaction, in which a league run's commits meanwhile are
// not seen. A command that prints what several reads found (the ratings
// and the results they must agree with, a count and a listing) prints one
// state of the league. A reader that must follow the league (ttt serve)
// does not pin: a read transaction that lasts keeps the league's -wal
// file from being emptied.
func (db *DB) Pin(ctx context.Context) error {
	if err := db.follow(ctx); err != nil {
		return err
	}
	tx, err := db.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err == nil {
		// The snapshot is taken at the first read.
		var n int
		err = tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n)
	}
	if changed := db.unchanged(); changed != nil {
		err = changed
	} else {
		err = db.secondLook(ctx, translate(err), true)
	}
	if err != nil {
		if tx != nil {
			tx.Rollback()
		}
		return err
	}
	db.pinned = tx
	return nil
}
