package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"

	"modernc.org/sqlite"

	"ttt/agents/game"
)

// Errors that callers may test for with errors.Is.
var (
	// ErrNotDatabase: the file is not a ttt league database. Open leaves
	// such a file as it was.
	ErrNotDatabase = errors.New("not a ttt database")
	// ErrNewerSchema: the database was written by a newer ttt, whose
	// schema this one does not know.
	ErrNewerSchema = errors.New("database was written by a newer ttt")
	// ErrOlderSchema: a reader met a database of an older ttt, which only
	// a writer (Open) brings up to date.
	ErrOlderSchema = errors.New("database was written by an older ttt")
	// ErrNoLeague: a reader met a missing or empty file, or an SQLite
	// file with no league in it yet.
	ErrNoLeague = errors.New("no league database")
	// ErrLinked: the file has more than one hard link. SQLite keeps the
	// -wal and -shm files beside the name it opened, so two programs
	// working through two names would each keep a journal of their own
	// and could damage the file.
	ErrLinked = errors.New("the database file has more than one hard link")
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
	// ErrWrite: reading or writing the file failed for another reason
	// than a full disk: most often a file size limit (ulimit -f) or a
	// disk quota, which SQLite cannot tell from an I/O error. The
	// transaction was rolled back.
	ErrWrite = errors.New("cannot write the database file (a file size limit, a disk quota or an I/O error)")
	// ErrIO: reading the database file failed (EIO and the like): the
	// disk or its file system, not the file's contents. A read that
	// SQLite took for damage is looked at again (see secondLook).
	ErrIO = errors.New("an I/O error reading the database file (the disk or its file system failed)")
)

// sqliteHeader is how every SQLite database file starts; examine checks
// it before SQLite sees a file.
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
//   - cache_size: 4 MiB of pages per connection. A round touches a few
//     hundred pages, the system caches the file anyway, and every MiB
//     more is resident memory of a process that runs all night, for no
//     faster rounds (BENCHMARKS.md, "BenchmarkNight: rounds of leagues
//     of 1,000, 10,000 and 100,000 checkpoints").
//   - journal_size_limit: the -wal file stays (see connector); the last
//     connection to close empties it, and a running league's is cut back
//     to 64 MiB when it starts over.
//
// WAL mode is set once in Open rather than here: it is a persistent
// property of the file, and setting it must wait until Open has checked
// that the file is ours.
const dsnQuery = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(1)&_pragma=cache_size(-4096)&_pragma=journal_size_limit(67108864)&_txlock=immediate"

// DB is an open league database. It is safe for concurrent use.
type DB struct {
	mu      sync.RWMutex // reads hold it; follow swaps db under it
	db      *sql.DB
	path    string      // as the caller named it, for messages
	abs     string      // the file's absolute path, symbolic links resolved
	query   string      // the DSN parameters of its connections
	keeps   bool        // whether they keep the -wal and -shm (connector)
	file    fs.FileInfo // the file its connections open (identify); nil before
	frozen  *frozenFile // a reader's file read as immutable, as it was then; nil for others
	pinned  *sql.Tx     // the read transaction of every read, after Pin
	lock    *os.File    // the file Lock locked (or tried to)
	locked  bool        // Lock took the lock
	renamed []Renamed   // by the upgrade that Open made
	// upgradedFrom is the schema version that Open upgraded from; 0 for
	// none.
	upgradedFrom int
	game         game.Game // the league's
}

// Game returns the game the league plays.
func (db *DB) Game() game.Game { return db.game }

// readGame reads the league's game.
func (db *DB) readGame(ctx context.Context) error {
	var name string
	err := db.db.QueryRowContext(ctx, "SELECT game FROM league").Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: its table league, which names the league's game, has no row", ErrCorrupt)
	}
	if err != nil {
		return err
	}
	if db.game, err = game.Named(name); err != nil {
		return fmt.Errorf("%w: the league's game: %w", ErrCorrupt, err)
	}
	return nil
}

// Open opens the league database at path for reading and writing,
// creating it when the file is missing or empty (as setup says: its game
// and built-in players), and brings its schema up to date.
//
// It refuses, with ErrNotDatabase, a file that is not SQLite or that is an
// SQLite database of another program, and leaves it untouched; with
// ErrNewerSchema a database written by a newer ttt; with ErrLinked a file
// with other hard links; and with ErrReadOnly a file or directory that
// this process cannot write, before SQLite has made any file next to it.
// When it fails to create a new database, for any reason (a full disk, a
// file size limit, ctx cancelled by Ctrl-C), it removes what it made.
func Open(ctx context.Context, path string, setup func() Setup) (*DB, error) {
	abs, fresh, err := examine(path)
	if err == nil {
		err = underAnotherName(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := writable(abs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	removeAbandoned(abs)
	if fresh != nil && !fresh.existed {
		testHookCreating()
		if err := create(ctx, abs, path, setup); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		// A league now, whoever made it, and whole: a Ctrl-C from here
		// on no longer undoes it, and opening it takes milliseconds.
		fresh, ctx = nil, context.WithoutCancel(ctx)
	}
	if err := ownJournal(ctx, abs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// As a reader does (see OpenRead), it makes the -wal and -shm files
	// stay only once the file has proved to be a league of this ttt.
	_, walErr := os.Stat(abs + "-wal")
	db := open(abs, path, dsnQuery, walErr == nil)
	err = db.identify()
	if err == nil {
		err = db.init(ctx, setup)
	}
	if err == nil {
		err = db.readGame(ctx)
	}
	if err == nil && walErr != nil {
		// The league is whole by now: a Ctrl-C no longer undoes it.
		err = db.persist(context.WithoutCancel(ctx), dsnQuery)
	}
	if err != nil {
		err = db.secondLook(ctx, translate(err), false)
		db.db.Close()
		// A file that another process holds, or that turned out to be
		// another's database, was made meanwhile by someone else: it
		// stays. Anything else the failed creation left is ours.
		if fresh != nil && !errors.Is(err, ErrBusy) && !errors.Is(err, ErrNotDatabase) && !errors.Is(err, ErrNewerSchema) {
			fresh.undo()
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return db, nil
}

// OpenRead opens the league database at path for commands that only
// read it. It never creates, upgrades or writes anything: a missing or
// empty file, or an SQLite file with no league in it, is ErrNoLeague; a
// league of an older schema is ErrOlderSchema (ttt upgrade brings it up
// to date).
//
// Where this process may write the file and its directory, it opens the
// file as writers do, so that it sees a running league's newest commits
// through the -wal file. Where it cannot (a file made read-only, a
// directory of another user, a read-only mount), it opens the file
// read-only (SQLite's mode=ro), and reads the -wal file through the -shm
// file that every ttt keeps beside the database (see connector): it
// sees each commit of a league that its owner runs meanwhile, as any
// reader does. Without them, it opens the file as immutable (no locks, no
// -wal) only when nobody can write it (a read-only mount, or no write
// permission for anyone), and otherwise says how to have them made.
func OpenRead(ctx context.Context, path string) (*DB, error) {
	abs, fresh, err := examine(path)
	if err == nil {
		err = underAnotherName(abs)
	}
	if err == nil && fresh != nil {
		err = ErrNoLeague
		if fresh.existed {
			err = fmt.Errorf("%w: the file is empty", ErrNoLeague)
		}
	}
	if err == nil {
		err = ownJournal(ctx, abs)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	query := readerQuery
	// A reader keeps the -wal and -shm files that it finds. Where there
	// are none (a copy, a league of an older ttt), it makes them stay
	// only once it has found a league of this ttt: a file refused keeps
	// nothing beside it.
	_, walErr := os.Stat(abs + "-wal")
	canWrite := writable(abs)
	var frozen *frozenFile
	if canWrite != nil {
		if query, err = readOnlyQuery(abs, canWrite); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if query == immutableQuery {
		// Taken before the first read: a write from now on is seen.
		now := frozenNow(abs)
		frozen = &now
	}
	db := open(abs, path, query, walErr == nil)
	db.frozen = frozen
	err = db.identify()
	var version int
	var files []string
	if err == nil {
		version, files, err = db.schema(ctx)
	}
	switch {
	case err != nil:
	case version == 0:
		err = fmt.Errorf("%w: an SQLite file with no league in it yet", ErrNoLeague)
	case version < len(files):
		err = fmt.Errorf("%w (schema %d, this ttt knows %d): ttt upgrade brings it up to date", ErrOlderSchema, version, len(files))
	default:
		err = db.readGame(ctx)
	}
	if err == nil && walErr != nil && canWrite == nil {
		err = db.persist(ctx, query)
	}
	if err != nil {
		// Every read above, the game's too, may be the one that the disk
		// fails: each error is looked at again.
		err = db.secondLook(ctx, translate(err), true)
		db.db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return db, nil
}

// readerQuery are the DSN parameters of a reader that may write the file
// and its directory. query_only: SQLite itself refuses any statement that
// would write, on every connection of a reader, whatever a caller runs;
// the file is still opened read-write, so that the -wal is seen and
// cleaned up.
const readerQuery = dsnQuery + "&_pragma=query_only(1)"

// immutableQuery are the DSN parameters of a reader of a file that
// nobody can write, with no -wal beside it: SQLite reads it with no locks
// and no -wal, and a league that starts on it all the same is seen by
// the reader's next read (follow).
const immutableQuery = "immutable=1"

// readOnlyQuery returns the DSN parameters of a reader that may not write
// the database file at abs or its directory (why says which), or why it
// cannot read it.
func readOnlyQuery(abs string, why error) (string, error) {
	_, walErr := os.Stat(abs + "-wal")
	_, shmErr := os.Stat(abs + "-shm")
	switch {
	case walErr == nil && shmErr == nil:
		// SQLite maps the -shm read-only, or, when it cannot, reads the
		// -wal itself at each transaction: either way it sees every
		// commit, and writes nothing.
		return "mode=ro&_pragma=busy_timeout(10000)", nil
	case walErr == nil:
		return "", fmt.Errorf("%w, and its -wal file (a league running, or one that stopped abruptly) cannot be read without the -shm file beside it, which is missing and which this user cannot make: run any ttt command on it (ttt check) as a user who may write the file and its directory", why)
	case frozen(abs):
		// Nobody can write the file, so no league can start on it:
		// SQLite may read it as it is, with no locks and no -wal.
		return immutableQuery, nil
	}
	return "", fmt.Errorf("%w, and the file has no -wal and -shm files beside it, through which a reader that cannot write follows a league's commits: run any ttt command on it once (ttt check) as a user who may write the file and its directory, and they stay", why)
}

// connect makes a connection pool of db's file, with the DSN parameters
// query, and with persistent -wal and -shm files if persist (see
// connector). The DSN is a file: URI of the absolute path, so that any
// path (with '?' or '#' in it) reaches SQLite as it is, percent-encoded.
// sql.OpenDB only keeps its arguments; the first query connects.
func (db *DB) connect(query string, persist bool) *sql.DB {
	dsn := (&url.URL{Scheme: "file", Path: db.abs, RawQuery: query}).String()
	c, _ := sqlite.NewConnector(dsn) // fails only on a query that does not parse, and ours do
	return sql.OpenDB(connector{Connector: c, db: db, persist: persist})
}

// open makes a DB of the database at abs, which the caller named path,
// connected with the DSN parameters query (see connect).
func open(abs, path, query string, persist bool) *DB {
	db := &DB{path: path, abs: abs, query: query, keeps: persist}
	db.db = db.connect(query, persist)
	return db
}

// persist closes db's connections, which do not keep the -wal and -shm
// files, and opens new ones with the DSN parameters query that do, and
// that have made them: a league that holds the lock of a file with no
// -wal beside it would be taken for one under another name (see
// underAnotherName).
func (db *DB) persist(ctx context.Context, query string) error {
	db.db.Close()
	db.db, db.query, db.keeps = db.connect(query, true), query, true
	var n int
	return db.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n)
}

// Close closes the database, and then releases the league lock if Lock
// took it: the lock covers the last commit, and the lock's descriptor
// must outlive SQLite's (see lockFile). The -wal file stays (see
// connector), so that a ttt starting in the instant between the two
// finds it and does not take the lock for a league under another name.
func (db *DB) Close() error {
	if db.pinned != nil {
		db.pinned.Rollback()
	}
	err := db.db.Close()
	if db.lock != nil {
		db.lock.Close()
	}
	return err
}

// Checkpoint copies what the -wal file holds into the database file, as
// far as readers allow, without waiting for them (SQLite's PASSIVE
// checkpoint). SQLite checkpoints by itself when a commit finds the -wal
// file long, inside that commit; a league calls Checkpoint between its
// commits, while it trains, so that its commits rarely have to.
func (db *DB) Checkpoint(ctx context.Context) error {
	_, err := db.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	return translate(err)
}
