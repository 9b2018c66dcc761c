package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/agents/testkit"
	"ttt/league"
	"ttt/migrations"
	"ttt/store"
)

// twoBuiltins is what a tic-tac-toe league started with before it had an
// MCTS ladder, random and perfect, so that the store's tests know the ids
// of the agents they add: the first is 3.
func twoBuiltins() store.Setup {
	kit := *agents.TicTacToe
	kit.Builtins = kit.Builtins[:2]
	return league.Setup(&kit)
}

// mustOpen opens (or creates) the database at path and closes it when the
// test ends.
func mustOpen(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), path, twoBuiltins)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// rawDB opens the file directly, as another program (or a later ttt)
// would: to look at what Open wrote and to write what the store does not.
func rawDB(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	dsn := (&url.URL{Scheme: "file", Path: path, RawQuery: "_pragma=busy_timeout(10000)&_txlock=immediate"}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// pragma reads one integer or text PRAGMA.
func pragma[T any](tb testing.TB, db *sql.DB, name string) T {
	tb.Helper()
	var v T
	if err := db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		tb.Fatal(err)
	}
	return v
}

// knownVersion is the schema version of this ttt: the number of
// migration files.
func knownVersion(tb testing.TB) int {
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no migrations: %v", err)
	}
	return len(files)
}

// readFile returns the bytes of path.
func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// writeFile writes data to path.
func writeFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// testNet returns a freshly initialised network.
func testNet(hidden int, seed uint64) *nn.Net {
	return nn.New(tictactoe.Game, hidden, rand.New(rand.NewPCG(seed, 0)))
}

// network returns a network agent of kind with the facts the league
// computes before it stores one. The store keeps a move table as opaque
// bytes, so any will do: these are the seed's.
func network(kind store.Kind, net *nn.Net, seed uint64) *store.Agent {
	method := "policy"
	if net.IsValue() {
		method = "tdlambda"
	}
	return &store.Agent{Kind: kind, Method: method, Weights: net.Bytes(), Hidden: net.Hidden,
		Facts: agents.TicTacToe.Check(tictactoe.NewTable(&nn.Player{Net: net})), Classed: true, Compiled: bytes.Repeat([]byte{byte(seed)}, 4520)}
}

// addNets stores n baseline networks and returns their ids.
func addNets(tb testing.TB, db *store.DB, n int) []int64 {
	tb.Helper()
	var ids []int64
	for i := range n {
		a := network(store.Baseline, testNet(5, uint64(i)), uint64(i))
		if err := db.AddAgent(context.Background(), a); err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	return ids
}

// files lists the names in dir.
func files(tb testing.TB, dir string) string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

func TestOpen(t *testing.T) {
	ctx := context.Background()

	t.Run("Fresh", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "league.db")
		db := mustOpen(t, path)
		raw := rawDB(t, path)
		if got, want := pragma[int](t, raw, "user_version"), knownVersion(t); got != want {
			t.Errorf("user_version = %d, want %d", got, want)
		}
		if got, want := pragma[string](t, raw, "journal_mode"), "wal"; got != want {
			t.Errorf("journal_mode = %q, want %q", got, want)
		}
		if got, want := pragma[int](t, raw, "application_id"), 0x74747421; got != want {
			t.Errorf("application_id = %#x, want %#x", got, want)
		}
		list, err := db.Agents(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(list), 2; got != want {
			t.Fatalf("%d agents in a new league, want %d", got, want)
		}
		for i, kind := range []store.Kind{agents.Random, agents.Perfect} {
			a := list[i]
			if a.ID != int64(i+1) || a.Kind != kind || a.Name != string(kind) || a.Hidden != 0 || a.Standing != nil {
				t.Errorf("agent %d: %+v", i+1, a)
			}
		}
		if list[0].Verify != nil || list[0].VsRandom != nil {
			t.Errorf("random has verify figures: %v %v", list[0].Verify, list[0].VsRandom)
		}
		perfect := list[1]
		for _, r := range perfect.Verify {
			if !r.Unbeatable() || r.Optimal != r.Positions || r.Positions == 0 {
				t.Errorf("perfect's stored figures: %v", r)
			}
		}
		if perfect.Class != game.Perfect || len(perfect.VsRandom) != 2 || perfect.VsRandom[0].Loss != 0 || perfect.VsRandom[0].Win < 0.9 {
			t.Errorf("perfect: class %v, vs random %v", perfect.Class, perfect.VsRandom)
		}
	})

	t.Run("EmptyFile", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "league.db")
		writeFile(t, path, nil)
		db := mustOpen(t, path)
		if _, err := db.Agent(ctx, "perfect"); err != nil {
			t.Error(err)
		}
	})

	t.Run("ReopenAppliesNothing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "league.db")
		db := mustOpen(t, path)
		addNets(t, db, 1)
		db.Close()
		before := readFile(t, path)
		db = mustOpen(t, path)
		list, err := db.Agents(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(list), 3; got != want {
			t.Errorf("%d agents after re-open, want %d", got, want)
		}
		db.Close()
		// Re-running a migration or re-adding the built-in agents would
		// have written to the file.
		if !bytes.Equal(readFile(t, path), before) {
			t.Error("re-opening changed the file")
		}
	})

	// A schema version that no ttt writes, newer or nonsense, is refused,
	// for readers and writers, and the file stays as it was.
	for _, tc := range []struct {
		version int
		want    error
		message string
	}{
		{99, store.ErrNewerSchema, "database was written by a newer ttt (schema 99, this ttt knows"},
		{-1, store.ErrNotDatabase, "schema version -1, which no ttt writes"},
	} {
		t.Run(fmt.Sprintf("Schema%d", tc.version), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "league.db")
			mustOpen(t, path).Close()
			raw := rawDB(t, path)
			if _, err := raw.Exec(fmt.Sprintf("PRAGMA user_version = %d", tc.version)); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			before := readFile(t, path)
			for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
				_, err := open(ctx, path)
				if !errors.Is(err, tc.want) {
					t.Fatalf("got %v, want %v", err, tc.want)
				}
				if !strings.Contains(err.Error(), tc.message) {
					t.Errorf("message %q does not say %q", err, tc.message)
				}
			}
			if !bytes.Equal(readFile(t, path), before) {
				t.Error("the refused database changed")
			}
		})
	}

	// Files that are not ttt databases are refused and left byte for
	// byte as they were, with no -wal or -shm beside them.
	notOurs := map[string]func(t *testing.T, path string){
		"Text": func(t *testing.T, path string) {
			writeFile(t, path, []byte("these are my notes, not a database\n"))
		},
		"Short": func(t *testing.T, path string) { writeFile(t, path, []byte("SQLite")) },
		"WeightFile": func(t *testing.T, path string) {
			writeFile(t, path, testNet(100, 2).FoldedBytes(0))
		},
		"DamagedSQLite": func(t *testing.T, path string) {
			writeFile(t, path, append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0xA5}, 4080)...))
		},
		"AnotherProgramsSQLite": func(t *testing.T, path string) {
			raw := rawDB(t, path)
			if _, err := raw.Exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')"); err != nil {
				t.Fatal(err)
			}
			raw.Close()
		},
	}
	for name, make := range notOurs {
		t.Run("ErrNotDatabase/"+name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "league.db")
			make(t, path)
			before := readFile(t, path)
			for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
				db, err := open(ctx, path)
				if err == nil {
					db.Close()
					t.Fatal("opened a file that is not a ttt database")
				}
				if !errors.Is(err, store.ErrNotDatabase) && !errors.Is(err, store.ErrCorrupt) {
					t.Errorf("got %v, want ErrNotDatabase", err)
				}
				if !strings.HasPrefix(err.Error(), path+": ") {
					t.Errorf("message %q does not name the file", err)
				}
			}
			if !bytes.Equal(readFile(t, path), before) {
				t.Error("the refused file changed")
			}
			if got := files(t, dir); got != "league.db" {
				t.Errorf("files in the directory: %s, want league.db alone", got)
			}
		})
	}

	// A league cut short anywhere is damaged, not "not SQLite": within
	// SQLite's 100-byte header too, where SQLite itself says NOTADB.
	t.Run("ErrCorrupt/Truncated", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "league.db")
		mustOpen(t, path).Close()
		whole := readFile(t, path)
		// A copy cut short: the file alone, without the -wal and -shm
		// that stay beside a league.
		os.Remove(path + "-wal")
		os.Remove(path + "-shm")
		for _, n := range []int{16, 50, 99, 100, 2000} {
			writeFile(t, path, whole[:n])
			for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
				db, err := open(ctx, path)
				if err == nil {
					db.Close()
				}
				if !errors.Is(err, store.ErrCorrupt) || !strings.HasPrefix(err.Error(), path+": the database file is damaged") {
					t.Errorf("%d bytes: got %v, want ErrCorrupt", n, err)
				}
				if n >= 100 { // past the header, SQLite is the one to say so
					wantDriverError(t, err, sqlite3.SQLITE_CORRUPT)
				}
			}
			if !bytes.Equal(readFile(t, path), whole[:n]) || files(t, dir) != "league.db" {
				t.Errorf("%d bytes: the refused file changed, or files appeared: %s", n, files(t, dir))
			}
		}
	})

	t.Run("ErrCannotOpen", func(t *testing.T) {
		_, err := store.Open(ctx, filepath.Join(t.TempDir(), "no", "such", "dir", "league.db"), twoBuiltins)
		if !errors.Is(err, store.ErrCannotOpen) {
			t.Errorf("got %v, want ErrCannotOpen", err)
		}
		wantDriverError(t, err, sqlite3.SQLITE_CANTOPEN)
	})

	t.Run("ErrNotDatabase/Directory", func(t *testing.T) {
		for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
			if _, err := open(ctx, t.TempDir()); !errors.Is(err, store.ErrNotDatabase) {
				t.Errorf("got %v, want ErrNotDatabase", err)
			}
		}
	})

	// A second hard link would give SQLite a second journal: refused by
	// readers and writers, whichever name they use.
	t.Run("ErrLinked", func(t *testing.T) {
		dir := t.TempDir()
		path, link := filepath.Join(dir, "league.db"), filepath.Join(dir, "link.db")
		mustOpen(t, path).Close()
		if err := os.Link(path, link); err != nil {
			t.Skip("no hard links here:", err)
		}
		before := readFile(t, path)
		for _, p := range []string{path, link} {
			for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
				if _, err := open(ctx, p); !errors.Is(err, store.ErrLinked) {
					t.Errorf("%s: got %v, want ErrLinked", p, err)
				}
			}
		}
		if !bytes.Equal(readFile(t, path), before) || files(t, dir) != "league.db league.db-shm league.db-wal link.db" {
			t.Errorf("the refused database changed, or files appeared: %s", files(t, dir))
		}
	})

	t.Run("OddPath", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "a league?#%20.db")
		mustOpen(t, path).Close()
		if _, err := os.Stat(path); err != nil {
			t.Errorf("the database is not at its path: %v", err)
		}
	})
}

// A creation cut short at any moment (Ctrl-C just after ttt league run
// began on a new file) leaves what was there: no file, or the empty file
// it was given; never an SQLite file with no league, nor its -wal and
// -shm. The context is cancelled later and later, until a creation
// completes (go test's -timeout catches one that never does).
func TestInterruptedCreation(t *testing.T) {
	for _, existed := range []bool{false, true} {
		t.Run(fmt.Sprintf("Existed=%v", existed), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "league.db")
			want := ""
			if existed {
				want = "league.db"
			}
			for delay := time.Duration(0); ; delay += max(50*time.Microsecond, delay/20) {
				if existed {
					writeFile(t, path, nil)
				}
				ctx, cancel := context.WithTimeout(context.Background(), delay)
				db, err := store.Open(ctx, path, twoBuiltins)
				cancel()
				if err == nil {
					db.Close()
					t.Logf("a creation took less than %v", delay)
					return
				}
				if got := files(t, dir); got != want {
					t.Fatalf("cancelled after %v (%v): files %q, want %q", delay, err, got, want)
				}
				if existed && len(readFile(t, path)) != 0 {
					t.Fatalf("cancelled after %v (%v): the empty file is no longer empty", delay, err)
				}
			}
		})
	}
}

// A creation killed before it could clean up (SIGKILL) leaves the
// league it was making, NAME.PID.new, and its -wal and -shm. The next
// writer of that name removes them once process PID is gone, whether it
// makes the league or opens it. It leaves those of a creation under way,
// and readers leave everything.
func TestAbandonedCreations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "league.db")
	gone := testkit.DieWithTest(exec.Command("true"))
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	alive := os.Getppid()
	abandon := func() {
		for _, pid := range []int{gone.Process.Pid, alive} {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				writeFile(t, fmt.Sprintf("%s.%d.new%s", path, pid, suffix), []byte("SQLite format 3\x00"))
			}
		}
		writeFile(t, path+".other", nil) // not a creation's
	}
	left := strings.Fields(fmt.Sprintf("league.db league.db-shm league.db-wal league.db.other league.db.%[1]d.new league.db.%[1]d.new-shm league.db.%[1]d.new-wal", alive))
	slices.Sort(left)
	want := strings.Join(left, " ")
	abandon()
	mustOpen(t, path).Close()
	if got := files(t, dir); got != want {
		t.Errorf("after a creation: %s, want %s", got, want)
	}
	abandon()
	db, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := files(t, dir); !strings.Contains(got, fmt.Sprintf("league.db.%d.new-wal", gone.Process.Pid)) {
		t.Errorf("a reader removed files: %s", got)
	}
	mustOpen(t, path).Close()
	if got := files(t, dir); got != want {
		t.Errorf("after opening the league: %s, want %s", got, want)
	}
}

// Readers never create, upgrade or write a league: a missing or empty
// file, an SQLite file with no league and a league of an older ttt are
// each refused, with the file as it was and nothing beside it.
func TestOpenReadNeverWrites(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		make  func(t *testing.T, path string)
		want  error
		files string
	}{
		{"Missing", func(*testing.T, string) {}, store.ErrNoLeague, ""},
		{"Empty", func(t *testing.T, path string) { writeFile(t, path, nil) }, store.ErrNoLeague, "league.db"},
		{"NoLeague", func(t *testing.T, path string) {
			raw := rawDB(t, path)
			if _, err := raw.Exec("PRAGMA user_version = 0; VACUUM"); err != nil {
				t.Fatal(err)
			}
			raw.Close()
		}, store.ErrNoLeague, "league.db"},
		{"Schema1", func(t *testing.T, path string) {
			writeFile(t, path, readFile(t, filepath.Join("testdata", "schema1.db")))
		}, store.ErrOlderSchema, "league.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "league.db")
			tc.make(t, path)
			var before []byte
			if tc.files != "" {
				before = readFile(t, path)
			}
			db, err := store.OpenRead(ctx, path)
			if err == nil {
				db.Close()
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if got := files(t, dir); got != tc.files {
				t.Errorf("files after the refusal: %q, want %q", got, tc.files)
			}
			if tc.files != "" && !bytes.Equal(readFile(t, path), before) {
				t.Error("the file changed")
			}
		})
	}
}

// openWrite opens the league at path for writing, making a tic-tac-toe
// league there if there is none.
func openWrite(ctx context.Context, path string) (*store.DB, error) {
	return store.Open(ctx, path, twoBuiltins)
}

// Two ttt creating the same new league at once. The one whose creation
// fails (Ctrl-C, here) removes only what it made, never the league that
// the other made meanwhile. One that succeeds second opens the league
// made first.
func TestCreationRace(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	var first int64
	store.SetCreatingHook(t, func() {
		store.SetCreatingHook(t, func() {})
		other := mustOpen(t, path)
		first = addNets(t, other, 1)[0]
		other.Close()
	})
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := openWrite(cancelled, path); err == nil {
		t.Fatal("Open with a cancelled context succeeded")
	}
	db := mustOpen(t, path)
	defer db.Close()
	if _, err := db.Agent(ctx, strconv.FormatInt(first, 10)); err != nil {
		t.Errorf("the league made meanwhile lost its agent %d: %v", first, err)
	}

	// The second to create, successfully, opens the first one's league.
	path = filepath.Join(t.TempDir(), "league.db")
	store.SetCreatingHook(t, func() {
		store.SetCreatingHook(t, func() {})
		other := mustOpen(t, path)
		first = addNets(t, other, 1)[0]
		other.Close()
	})
	second := mustOpen(t, path)
	defer second.Close()
	if _, err := second.Agent(ctx, strconv.FormatInt(first, 10)); err != nil {
		t.Errorf("the second creation does not see the first one's agent %d: %v", first, err)
	}
}

// wantDriverError checks that err, one of the store's errors, keeps the
// SQLite error it was translated from, with its primary code, in its
// chain and in its message.
func wantDriverError(t *testing.T, err error, code int) {
	t.Helper()
	var e *sqlite.Error
	if !errors.As(err, &e) || e.Code()&0xff != code || !strings.HasSuffix(err.Error(), "(SQLite: "+e.Error()+")") {
		t.Errorf("got %v, want the driver's error of code %d in it", err, code)
	}
}

// A page that SQLite's integrity check could not read is the disk's
// fault when SQLite's error says I/O (EIO comes as 8458,
// SQLITE_IOERR_CORRUPTFS), or when the page is an overflow or free page,
// whose number the check has found sound before reading it; anything else
// the check says is damage. TestIOFaults meets these lines under strace.
func TestUnreadable(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"*** in database main ***\nTree 4 page 4: unable to get the page. error code=8458", "page 4: unable to get the page. error code=8458"},
		{"Tree 9 page 15: unable to get the page. error code=266", "page 15: unable to get the page. error code=266"},
		{"On tree page 7 cell 2: failed to get page 12", "failed to get page 12"},
		{"Tree 3 page 3: unable to get the page. error code=11", ""},
		{"wrong # of entries in index standings_by_elo", ""},
		{"Page 5: never used", ""},
		{"ok", ""},
	} {
		if got := store.Unreadable(tt.line); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.line, got, tt.want)
		}
	}
}

// A -wal file beside a league that is another league's (copied there,
// both of the same page size) is refused by readers and writers alike,
// before SQLite reads the file with it, with the file left as it was:
// read, it would show the other league's pages as this one's, and its
// last connection would fold them into the file. The league's own -wal,
// left by a writer that did not close, is read as ever.
func TestForeignJournal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	mustOpen(t, a).Close()
	other := mustOpen(t, b)
	if err := other.SetSettings(ctx, map[string]string{"lr": "0.1"}); err != nil {
		t.Fatal(err)
	}
	wal := readFile(t, b+"-wal") // b's commit, not yet folded into b
	if len(wal) <= 32 {
		t.Fatalf("b's -wal holds %d bytes: no commit", len(wal))
	}
	other.Close()

	before := readFile(t, a)
	writeFile(t, a+"-wal", wal)
	os.Remove(a + "-shm")
	for name, open := range map[string]func() (*store.DB, error){
		"OpenRead": func() (*store.DB, error) { return store.OpenRead(ctx, a) },
		"Open":     func() (*store.DB, error) { return openWrite(ctx, a) },
	} {
		db, err := open()
		if err == nil {
			db.Close()
		}
		if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "the -wal file beside it is not its journal") {
			t.Errorf("%s with b's -wal: %v", name, err)
		}
		if !bytes.Equal(readFile(t, a), before) {
			t.Fatalf("%s changed the file", name)
		}
	}

	// Its own -wal: a's commit, as a writer killed before it closed would
	// leave it.
	os.Remove(a + "-wal")
	own := mustOpen(t, a)
	if err := own.SetSettings(ctx, map[string]string{"lr": "0.2"}); err != nil {
		t.Fatal(err)
	}
	wal = readFile(t, a+"-wal")
	own.Close()
	writeFile(t, a+"-wal", wal)
	db, err := store.OpenRead(ctx, a)
	if err != nil {
		t.Fatalf("a with its own -wal: %v", err)
	}
	defer db.Close()
	if settings, err := db.Settings(ctx); err != nil || settings["lr"] != "0.2" {
		t.Errorf("a's settings read with its own -wal: %v (%v)", settings, err)
	}
}
