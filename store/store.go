// Package store keeps a league in one SQLite file: its agents and their
// networks, the rounds that made and rated them, their games and the
// rating history (SPEC, Storage). The schema lives in package migrations.
//
// Every public method is one transaction: BeginTx, a lowercase helper that
// takes the *sql.Tx, Commit. Errors from SQLite come back as the sentinel
// errors below where one fits, translated in one place (translate).
package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"ttt/migrations"
)

// Errors that callers may test for with errors.Is.
var (
	// ErrNotDatabase: the file is not a ttt league database. Open leaves
	// such a file as it was.
	ErrNotDatabase = errors.New("not a ttt database")
	// ErrNewerSchema: the database was written by a newer ttt, whose
	// schema this one does not know.
	ErrNewerSchema = errors.New("database was written by a newer ttt")
	// ErrBusy: another connection held a lock for longer than the busy
	// timeout.
	ErrBusy = errors.New("the database is busy: another ttt held its lock for too long")
	// ErrReadOnly: the file or its directory cannot be written.
	ErrReadOnly = errors.New("the database cannot be written (read-only file or directory)")
	// ErrFull: the disk is full; the transaction was rolled back.
	ErrFull = errors.New("the disk is full")
	// ErrCorrupt: the file starts like SQLite but its pages are damaged.
	ErrCorrupt = errors.New("the database file is damaged")
	// ErrCannotOpen: SQLite could not open or create the file.
	ErrCannotOpen = errors.New("cannot open the database file (does its directory exist?)")
)

// sqliteHeader is how every SQLite database file starts. Open checks it
// before SQLite sees the file: SQLite would otherwise turn an unrelated
// file into a database (or try to), and a file that is not ours must be
// left exactly as it was.
var sqliteHeader = []byte("SQLite format 3\x00")

// applicationID is "ttt!", written into the header by migration 0001, so
// that a ttt database can be told from other SQLite files.
const applicationID = 0x74747421

// dsnQuery configures every connection of the pool:
//   - busy_timeout: a writer (ttt league run) commits its rounds while
//     readers list and export; a statement that meets a lock waits up to
//     10 s for it instead of failing at once with "database is locked".
//   - foreign_keys: off by default in SQLite; on, a game or rating can
//     never name an agent or round that does not exist.
//   - _txlock=immediate: write transactions take the write lock when they
//     begin. A deferred transaction that reads and then writes cannot wait
//     for the lock (SQLite returns SQLITE_BUSY at once to avoid a
//     deadlock); an immediate one waits under the busy timeout. Read-only
//     transactions (sql.TxOptions.ReadOnly) still begin deferred, so
//     readers never queue behind a writer.
//
// WAL mode is set once in Open rather than here: it is a persistent
// property of the file, and setting it must wait until Open has checked
// that the file is ours.
const dsnQuery = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate"

// DB is an open league database. It is safe for concurrent use.
type DB struct {
	db *sql.DB
}

// Open opens the league database at path, creating it when the file is
// missing or empty, and brings its schema up to date.
//
// It refuses, with ErrNotDatabase, a file that is not SQLite or that is an
// SQLite database of another program, and leaves it untouched; and with
// ErrNewerSchema a database written by a newer ttt.
func Open(ctx context.Context, path string) (*DB, error) {
	if err := checkHeader(path); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// A file: URI of the absolute path, so that any path (with '?' or '#'
	// in it) reaches SQLite as it is, percent-encoded.
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dsn := (&url.URL{Scheme: "file", Path: abs, RawQuery: dsnQuery}).String()
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	db := &DB{db: sqldb}
	if err := db.init(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("%s: %w", path, translate(err))
	}
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error { return db.db.Close() }

// checkHeader refuses a file that exists, is not empty and does not start
// with SQLite's header. A missing or empty file is fine: SQLite makes a
// new database in it.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	switch {
	case n == 0 && err == io.EOF:
		return nil
	case err != nil && err != io.ErrUnexpectedEOF:
		return fmt.Errorf("cannot read the database file: %w", err)
	case !bytes.Equal(head[:n], sqliteHeader):
		return fmt.Errorf("%w: not an SQLite file (left as it was)", ErrNotDatabase)
	}
	return nil
}

// init checks that the file is a ttt database (or a new one), turns on
// WAL and applies the migrations this database lacks.
func (db *DB) init(ctx context.Context) error {
	files, err := migrationFiles()
	if err != nil {
		return err
	}
	// STEP 1: whose database is it, and which schema? An empty database
	// has no tables and application id 0.
	var appID, version, tables int
	err = db.db.QueryRowContext(ctx, `SELECT
		(SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &tables)
	if err != nil {
		return err
	}
	switch {
	case appID != applicationID && (appID != 0 || tables > 0):
		return fmt.Errorf("%w: an SQLite database of another program (left as it was)", ErrNotDatabase)
	case version > len(files):
		return fmt.Errorf("%w (schema %d, this ttt knows %d)", ErrNewerSchema, version, len(files))
	}

	// STEP 2: WAL, so that readers never block the league's writer nor
	// wait for it. SQLite answers with the mode it is in, which stays
	// "delete" where WAL cannot work (some network file systems), and the
	// readers-while-writing guarantee rests on it: check.
	var mode string
	if err := db.db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("cannot put the database in WAL mode (SQLite answered %q)", mode)
	}

	// STEP 3: the migrations it lacks, in order.
	for v := version + 1; v <= len(files); v++ {
		if err := db.migrate(ctx, v, files[v-1]); err != nil {
			return fmt.Errorf("migration %s: %w", files[v-1], err)
		}
	}
	return nil
}

// migrationFiles returns the names of the migration files in order, and
// checks that they are numbered 0001, 0002, ... without gaps: the number
// is the schema version.
func migrationFiles() ([]string, error) {
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	for i, name := range files {
		if want := fmt.Sprintf("%04d_", i+1); len(name) < len(want) || name[:len(want)] != want {
			return nil, fmt.Errorf("migration %s: want a name starting with %s", name, want)
		}
	}
	return files, nil
}

// migrate applies migration file name as schema version v, in one
// transaction with the version it records. Another ttt may have opened
// the same new database at the same moment: the write lock serialises
// the two, and the one that comes second finds the version applied.
func (db *DB) migrate(ctx context.Context, v int, name string) error {
	script, err := fs.ReadFile(migrations.FS, name)
	if err != nil {
		return err
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version >= v {
		return nil
	}
	if _, err := tx.ExecContext(ctx, string(script)); err != nil {
		return err
	}
	// The first migration makes the agents table: random and perfect
	// belong to every league from its creation, in the same transaction.
	if v == 1 {
		if err := addBuiltins(ctx, tx); err != nil {
			return err
		}
	}
	// PRAGMA takes no parameters; v is an int.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		return err
	}
	return tx.Commit()
}

// translate turns SQLite's errors into the sentinel errors above, which
// say what happened in the user's terms; other errors pass unchanged. It
// is the one place that knows the driver's error codes.
func translate(err error) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Code() & 0xff { // the primary code; extended codes add detail above it
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return ErrBusy
	case sqlite3.SQLITE_READONLY:
		return ErrReadOnly
	case sqlite3.SQLITE_FULL:
		return ErrFull
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%w: not an SQLite file", ErrNotDatabase)
	case sqlite3.SQLITE_CORRUPT:
		return ErrCorrupt
	case sqlite3.SQLITE_CANTOPEN:
		return ErrCannotOpen
	}
	return err
}
