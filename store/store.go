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
	ErrReadOnly = errors.New("the database is read-only")
	// ErrFull: the disk is full; the transaction was rolled back.
	ErrFull = errors.New("the disk is full")
	// ErrCorrupt: the file starts like SQLite but its pages are damaged.
	ErrCorrupt = errors.New("the database file is damaged")
	// ErrCannotOpen: SQLite could not open or create the file.
	ErrCannotOpen = errors.New("cannot open the database file (does its directory exist?)")
	// ErrWrite: a write failed for another reason than a full disk: most
	// often a file size limit (ulimit -f) or a disk quota, which SQLite
	// cannot tell from an I/O error. The transaction was rolled back.
	ErrWrite = errors.New("cannot write the database file (a file size limit, a disk quota or an I/O error)")
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
	db   *sql.DB
	path string   // as the caller named it, for messages
	lock *os.File // the league lock, once Lock has taken it
}

// Open opens the league database at path for reading and writing,
// creating it when the file is missing or empty, and brings its schema up
// to date.
//
// It refuses, with ErrNotDatabase, a file that is not SQLite or that is an
// SQLite database of another program, and leaves it untouched; with
// ErrNewerSchema a database written by a newer ttt; and with ErrReadOnly
// a file or directory that this process cannot write, before SQLite has
// made any file next to it.
func Open(ctx context.Context, path string) (*DB, error) {
	if err := checkHeader(path); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := writable(abs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	db, err := open(abs, path, dsnQuery)
	if err != nil {
		return nil, err
	}
	if err := db.init(ctx); err != nil {
		db.db.Close()
		return nil, fmt.Errorf("%s: %w", path, translate(err))
	}
	return db, nil
}

// OpenRead opens the league database at path for commands that only
// read it. Where this process can write the file and its directory, it
// is Open. Where it cannot (a file made read-only, a directory of another
// user, a read-only mount), it opens the file read-only and never writes
// or creates anything:
//   - with no -wal file (a database closed cleanly), as immutable: SQLite
//     then reads the file as it is, with no locks and no -shm file, which
//     it could not create. Nobody who can write the file is running a
//     league on it at that moment, or its -wal would be there.
//   - with a -wal file (a league running under another user, or one that
//     crashed), read-only with the usual locks, so that the rounds in the
//     -wal are seen; SQLite needs the -shm file to exist for that.
//
// A read-only database whose schema is older than this ttt's is refused
// with ErrReadOnly: only a writable open can bring it up to date.
func OpenRead(ctx context.Context, path string) (*DB, error) {
	if err := checkHeader(path); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if writable(abs) == nil {
		return Open(ctx, path)
	}
	query := "immutable=1"
	_, err = os.Stat(abs + "-wal")
	wal := err == nil
	if wal {
		query = "mode=ro&_pragma=busy_timeout(10000)"
	}
	db, err := open(abs, path, query)
	if err != nil {
		return nil, err
	}
	version, files, err := db.schema(ctx)
	switch err = translate(err); {
	case errors.Is(err, ErrReadOnly) && wal:
		err = fmt.Errorf("%w, and its -wal file (a league runs on it, or stopped abruptly) cannot be read without a -shm file that this process cannot make", err)
	case err == nil && version < len(files):
		err = fmt.Errorf("%w, and its schema (version %d) is older than this ttt's (%d): open it once where it can be written", ErrReadOnly, version, len(files))
	}
	if err != nil {
		db.db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return db, nil
}

// open makes the connection pool of the database at abs, which the
// caller named path, with the DSN parameters query. The DSN is a file:
// URI of the absolute path, so that any path (with '?' or '#' in it)
// reaches SQLite as it is, percent-encoded.
func open(abs, path, query string) (*DB, error) {
	dsn := (&url.URL{Scheme: "file", Path: abs, RawQuery: query}).String()
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &DB{db: sqldb, path: path}, nil
}

// Close closes the database, and then releases the league lock if Lock
// took it: the lock covers the last commit.
func (db *DB) Close() error {
	err := db.db.Close()
	if db.lock != nil {
		db.lock.Close()
	}
	return err
}

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
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return fmt.Errorf("%w: a directory", ErrNotDatabase)
	}
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
	// STEP 1: whose database is it, and which schema?
	version, files, err := db.schema(ctx)
	if err != nil {
		return err
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

// schema checks that the database is a ttt database (or a new, empty
// one) of a schema this ttt knows, and returns its schema version and
// the migration files. An empty database has no tables and application
// id 0.
func (db *DB) schema(ctx context.Context) (version int, files []string, err error) {
	if files, err = migrationFiles(); err != nil {
		return 0, nil, err
	}
	var appID, tables int
	err = db.db.QueryRowContext(ctx, `SELECT
		(SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &tables)
	switch {
	case err != nil:
		return 0, nil, err
	case appID != applicationID && (appID != 0 || tables > 0):
		return 0, nil, fmt.Errorf("%w: an SQLite database of another program (left as it was)", ErrNotDatabase)
	case version > len(files):
		return 0, nil, fmt.Errorf("%w (schema %d, this ttt knows %d)", ErrNewerSchema, version, len(files))
	}
	return version, files, nil
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
	if e.Code() == sqlite3.SQLITE_IOERR_WRITE {
		return ErrWrite
	}
	switch e.Code() & 0xff { // the primary code; extended codes add detail above it
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return ErrBusy
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("%w: the file or its directory cannot be written", ErrReadOnly)
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
