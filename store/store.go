// Package store keeps a league in one SQLite file: its agents and their
// networks, the rounds that made and rated them, the results of their
// matches, their standings and a sparse rating history. The schema lives
// in package migrations; the store persists and nothing else: what an
// agent is worth (its exhaustive check, its move table, its rating) is
// computed above it, before it gets here.
//
// The file is the league's only copy, so the store guards it: a file that
// is not a ttt database is refused and left as it was; one league run at
// a time holds a lock on the file itself; readers never create, migrate
// or write; blobs carry checksums that every read checks.
//
// Every public method is one transaction: BeginTx, a lowercase helper that
// takes the *sql.Tx, Commit. Errors from SQLite come back as the sentinel
// errors below where one fits, translated in one place (translate).
package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"ttt/agents"
	"ttt/agents/game"
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
//     more is resident memory of a process that runs all night (16 MiB
//     a connection cost a league of 100,000 checkpoints 30 MB, and its
//     rounds no time).
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
	game    game.Game   // the league's
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
	kit, err := agents.KitOf(name)
	if err != nil {
		return fmt.Errorf("%w: the league's game: %w", ErrCorrupt, err)
	}
	db.game = kit.Game
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
		// fails: each error is looked at again (issue 26).
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

// testHookCreating runs when Open is about to create a new league; tests
// make another ttt create it first.
var testHookCreating = func() {}

// create makes a new league at abs, where there is no file: it builds
// the league in a file of its own beside abs, and gives it the name abs
// once its schema is committed and folded into it, unless another ttt has
// made a league there meanwhile (then that league is the one). A failed
// creation removes that file alone, never anything at abs: not another
// ttt's league, nor the user's symbolic link that names abs.
func create(ctx context.Context, abs, path string, setup func() Setup) error {
	tmp := fmt.Sprintf("%s.%d.new", abs, os.Getpid())
	removeTmp := func() {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(tmp + suffix)
		}
	}
	removeTmp() // a creation of this pid that was killed
	defer removeTmp()
	db := open(tmp, path, dsnQuery, false)
	err := db.init(ctx, setup)
	// The last connection folds the -wal into the file and removes it.
	if cerr := db.db.Close(); err == nil {
		err = cerr
	}
	if _, walErr := os.Stat(tmp + "-wal"); err == nil && walErr == nil {
		err = fmt.Errorf("%w: the new league's -wal could not be folded into it", ErrWrite)
	}
	if err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
	if err := placeNew(tmp, abs); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// removeAbandoned removes what creations of a league at abs left when
// their process was killed (SIGKILL, a power cut) before they could
// clean up: the file of the league they were making, abs.PID.new, and
// its -wal, -shm and -journal, where process PID is gone. A creation that
// is still under way keeps its files.
func removeAbandoned(abs string) {
	dir, base := filepath.Split(abs)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ours := strings.CutPrefix(e.Name(), base+".")
		pid, suffix, made := strings.Cut(rest, ".new")
		n, err := strconv.Atoi(pid)
		if ours && made && err == nil && n > 0 && slices.Contains([]string{"", "-wal", "-shm", "-journal"}, suffix) && processGone(n) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// linkNew gives the file at tmp the name abs, unless abs names a file
// already: a hard link, which fails on an existing name, and the removal
// of tmp.
func linkNew(tmp, abs string) error {
	if err := os.Link(tmp, abs); err != nil {
		return err
	}
	return os.Remove(tmp)
}

// newFile records the files that opening a new database is about to make,
// so that a failed creation can take them away again.
type newFile struct {
	path    string
	existed bool // the file was there, empty; SQLite fills it
}

// undo removes what a failed creation left: the database file if it did
// not exist before (an empty one stays empty), and SQLite's -wal and -shm
// files, which nobody else can be using, since there was no league yet.
func (f *newFile) undo() {
	if f.existed {
		os.Truncate(f.path, 0)
	} else {
		os.Remove(f.path)
	}
	os.Remove(f.path + "-wal")
	os.Remove(f.path + "-shm")
}

// sqliteHeaderSize is the size of the header at the start of every
// SQLite database file: a shorter file that starts like one is a
// database cut short.
const sqliteHeaderSize = 100

// examine checks the file at path before SQLite sees it, and returns its
// absolute path with symbolic links resolved (where SQLite keeps the -wal
// and -shm files, and the directory whose permissions count), plus a newFile when there is no database there yet (no
// file, or an empty one), which SQLite would create. It refuses a
// directory, a FIFO, a device or anything else that is not a regular
// file, a file that does not start with SQLite's header (SQLite would
// otherwise turn an unrelated file into a database, or try to, and a file
// that is not ours must be left exactly as it was), a file with more than
// one hard link, and a database cut short within its header.
func examine(path string) (abs string, fresh *newFile, err error) {
	if abs, err = filepath.Abs(path); err != nil {
		return "", nil, err
	}
	abs = followLinks(abs)
	// Stat, never open, what may not be a file: opening a FIFO blocks
	// until a writer comes, in a system call that no signal interrupts.
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return abs, &newFile{path: abs}, nil
	case err != nil:
		return "", nil, err
	case info.IsDir():
		return "", nil, fmt.Errorf("%w: a directory", ErrNotDatabase)
	case !info.Mode().IsRegular():
		return "", nil, fmt.Errorf("%w: not a regular file", ErrNotDatabase)
	case links(info) > 1:
		return "", nil, fmt.Errorf("%w (%d names): SQLite keeps its journal beside the name it opens, so two programs using two names could damage the league; keep one name and remove the others, or copy the file", ErrLinked, links(info))
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	head := make([]byte, sqliteHeaderSize)
	n, err := io.ReadFull(f, head)
	switch {
	case n == 0 && err == io.EOF:
		return abs, &newFile{path: abs, existed: true}, nil
	case err != nil && err != io.ErrUnexpectedEOF:
		return "", nil, fmt.Errorf("cannot read the database file: %w", err)
	case !bytes.HasPrefix(head[:n], sqliteHeader):
		return "", nil, fmt.Errorf("%w: not an SQLite file (left as it was)", ErrNotDatabase)
	case n < sqliteHeaderSize:
		return "", nil, fmt.Errorf("%w: %d bytes, cut short within SQLite's header", ErrCorrupt, n)
	}
	// SQLite would open a file with another version in its header
	// read-only, or not at all, and say so in terms of its own.
	write, read, format := head[18], head[19], binary.BigEndian.Uint32(head[44:48])
	if write < 1 || write > 2 || read < 1 || read > 2 || format > 4 {
		return "", nil, fmt.Errorf("%w: its header gives file format versions %d and %d and schema format %d, where SQLite writes 1 or 2, and 4 at most", ErrCorrupt, write, read, format)
	}
	return abs, nil, nil
}

// maxLinks is how many symbolic links followLinks follows, as Linux does.
const maxLinks = 40

// followLinks returns the absolute path abs with its symbolic links
// resolved, as SQLite resolves them, even a last one that names no file
// yet (a league to create through a link): SQLite creates the file the
// link names, and its -wal and -shm files beside it. A link it cannot
// read stays as it is, for the open to report.
func followLinks(abs string) string {
	for range maxLinks {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(dir, filepath.Base(abs))
		}
		info, err := os.Lstat(abs)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return abs
		}
		target, err := os.Readlink(abs)
		if err != nil {
			return abs
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		abs = target
	}
	return abs
}

// init checks that the file is a ttt database (or a new one), turns on
// WAL and applies the migrations this database lacks.
func (db *DB) init(ctx context.Context, setup func() Setup) error {
	// STEP 1: whose database is it, and which schema? A league's file
	// that SQLite finds damaged is not written to.
	version, files, err := db.schema(ctx)
	if err != nil {
		return err
	}
	if version > 0 {
		if err := db.refuseDamaged(ctx); err != nil {
			return err
		}
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

	// STEP 3: the migrations it lacks.
	if version < len(files) {
		if err := db.migrate(ctx, files, setup); err != nil {
			return err
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
	case version < 0 || (version == 0 && tables > 0):
		return 0, nil, fmt.Errorf("%w: schema version %d, which no ttt writes (left as it was)", ErrNotDatabase, version)
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

// migrate brings the database up to the last schema in files: each
// migration it lacks in order, each followed by its Go step (upgrades),
// and for a new database the built-in agents, all in one transaction with
// the version it records, so that a database is always wholly at one
// version. Another ttt may open the same database at the same moment: the
// write lock serialises the two, and the one that comes second finds the
// work done.
//
// Foreign keys are off while it runs, on a connection of its own: SQLite
// cannot switch them inside a transaction, and a migration that rebuilds
// a table (create the new one, copy, drop the old one, rename) must not
// have the drop cascade or fail. foreign_key_check then proves, before
// the commit, that no row lost what it refers to.
func (db *DB) migrate(ctx context.Context, files []string, setup func() Setup) error {
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	// The connection goes back to the pool: foreign keys on again.
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	for v := version + 1; v <= len(files); v++ {
		script, err := fs.ReadFile(migrations.FS, files[v-1])
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(script)); err != nil {
			return fmt.Errorf("migration %s: %w", files[v-1], err)
		}
		if step := upgrades[v]; step != nil {
			if err := step(ctx, tx); err != nil {
				return fmt.Errorf("migration %s: %w", files[v-1], err)
			}
		}
	}
	// A new league's game and built-in players belong to it from its
	// creation; an older league's agents take the names this ttt allows.
	var renamed []Renamed
	if version == 0 {
		err = setUp(ctx, tx, setup())
	} else {
		renamed, err = renameRefused(ctx, tx)
	}
	if err != nil {
		return err
	}
	var broken int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&broken); err != nil {
		return err
	}
	if broken > 0 {
		return fmt.Errorf("the migration would leave %d rows referring to rows that are gone", broken)
	}
	// PRAGMA takes no parameters; the version is an int.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(files))); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	db.renamed = renamed
	return nil
}

// translate turns SQLite's errors into the sentinel errors above, which
// say what happened in the user's terms, and keeps the driver's error
// after them, in the message and in the chain (errors.As finds the
// *sqlite.Error and its extended code); a stored value that does not fit
// what it is read into is ErrCorrupt (badValue); other errors pass
// unchanged. It is the one place that knows the driver's error codes.
func translate(err error) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return badValue(err)
	}
	as := func(kind error, what string) error {
		return fmt.Errorf("%w%s (SQLite: %w)", kind, what, err)
	}
	switch e.Code() {
	case sqlite3.SQLITE_IOERR_READ, sqlite3.SQLITE_IOERR_SHORT_READ, sqlite3.SQLITE_IOERR_CORRUPTFS:
		return as(ErrIO, "")
	}
	switch e.Code() & 0xff { // the primary code; extended codes add detail above it
	case sqlite3.SQLITE_IOERR:
		return as(ErrWrite, "")
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return as(ErrBusy, "")
	case sqlite3.SQLITE_READONLY:
		return as(ErrReadOnly, ": the file or its directory cannot be written")
	case sqlite3.SQLITE_FULL:
		return as(ErrFull, "")
	case sqlite3.SQLITE_NOTADB:
		// examine let it by: it starts as an SQLite file does.
		return as(ErrCorrupt, ": its header is not one SQLite can read")
	case sqlite3.SQLITE_CORRUPT:
		return as(ErrCorrupt, "")
	case sqlite3.SQLITE_CANTOPEN:
		return as(ErrCannotOpen, "")
	}
	return err
}

// scanError matches database/sql's error for a stored value that does not
// fit what it is read into: text where a number is due, a NULL, a number
// out of range. SQLite lets a column hold a value of any kind.
var scanError = regexp.MustCompile(`sql: Scan error on column index [0-9]+, name "([^"]*)": (?:converting driver\.Value type \S+ \((.*)\) to a (\S+): .*|converting NULL to (\S+) is unsupported|(.*))$`)

// badValue is err, unless it is a stored value that does not fit what it
// is read into (scanError): ErrCorrupt then, in the user's words.
func badValue(err error) error {
	m := scanError.FindStringSubmatch(fmt.Sprint(err))
	if m == nil {
		return err
	}
	kinds := map[string]string{"int": "a whole number", "int64": "a whole number", "uint64": "a whole number", "float64": "a number", "string": "text"}
	switch {
	case m[2] != "":
		return fmt.Errorf("%w: its column %s holds %s, not %s", ErrCorrupt, m[1], m[2], cmp.Or(kinds[m[3]], m[3]))
	case m[4] != "":
		return fmt.Errorf("%w: its column %s holds NULL, not %s", ErrCorrupt, m[1], cmp.Or(kinds[m[4]], m[4]))
	}
	return fmt.Errorf("%w: its column %s holds a value it cannot: %s", ErrCorrupt, m[1], m[5])
}

// secondLook is err, unless err is SQLite's own report of damage
// (ErrCorrupt, from translate) and the file turns out healthy when read
// again (PRAGMA quick_check): SQLite reports a page that a read failed to
// bring (EIO) as damaged, and a healthy file must not be called so. Then
// it is ErrIO, as it is when the check meets the disk's error in its turn.
//
// A reader's I/O error (reading says so) is ErrIO, whichever code SQLite
// gave it: SQLite's plain SQLITE_IOERR does not tell a read from a write.
func (db *DB) secondLook(ctx context.Context, err error, reading bool) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return err // not SQLite's word: damage that ttt found itself stays so
	}
	if reading && errors.Is(err, ErrWrite) {
		return fmt.Errorf("%w (SQLite: %w)", ErrIO, e)
	}
	if !errors.Is(err, ErrCorrupt) || ctx.Err() != nil {
		return err
	}
	// On connections of their own: SQLite keeps a connection whose read
	// failed in an error state until it is reset. Up to three times:
	// damage is there at every read, a failing disk now and then.
	for range 3 {
		var result string
		again := db.connect(db.query, db.keeps)
		qerr := again.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&result)
		again.Close()
		unread := unreadable(result)
		switch terr := translate(qerr); {
		case errors.Is(terr, ErrIO), errors.Is(terr, ErrWrite):
			return fmt.Errorf("%w (SQLite, reading again: %w)", ErrIO, qerr)
		case errors.Is(qerr, ErrReplaced), errors.Is(qerr, ErrMoved):
			return qerr // no longer the file that err is of (connector)
		case qerr == nil && result == "ok":
			// What SQLite said first was its guess at a page it could
			// not read, which the file's check disproves: not kept.
			return fmt.Errorf("%w; read again, the file checks healthy: run the command again", ErrIO)
		case qerr == nil && unread != "":
			return fmt.Errorf("%w; read again, %s: run the command again", ErrIO, unread)
		case qerr == nil && !strings.Contains(result, "unable to get the page"):
			return err // damaged
		}
		// The check met what SQLite takes for damage where a read may
		// have failed (its error, a page it could not get): look again.
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
