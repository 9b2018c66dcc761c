package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ttt/migrations"
	"ttt/store"
)

// mustOpen opens (or creates) the database at path and closes it when the
// test ends.
func mustOpen(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), path)
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
		list, err := db.Agents(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(list), 2; got != want {
			t.Fatalf("%d agents in a new league, want %d", got, want)
		}
		for i, kind := range []store.Kind{store.Random, store.Perfect} {
			a := list[i]
			if a.ID != int64(i+1) || a.Kind != kind || a.Name != string(kind) || a.Hidden != 0 || a.Rating != nil {
				t.Errorf("agent %d: %+v", i+1, a)
			}
		}
		if list[0].Verify != nil {
			t.Errorf("random has verify figures: %v", list[0].Verify)
		}
		for _, r := range list[1].Verify {
			if !r.Unbeatable() || r.Optimal != r.Positions || r.Positions == 0 {
				t.Errorf("perfect's stored figures: %v", r)
			}
		}
	})

	t.Run("EmptyFile", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "league.db")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		db := mustOpen(t, path)
		if _, err := db.Agent(ctx, "perfect"); err != nil {
			t.Error(err)
		}
	})

	t.Run("ReopenAppliesNothing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "league.db")
		db := mustOpen(t, path)
		if err := db.AddAgent(ctx, &store.Agent{Kind: store.Baseline, Net: testNet(3, 1)}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		before := readFile(t, path)
		db = mustOpen(t, path)
		list, err := db.Agents(ctx)
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

	t.Run("ErrNewerSchema", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "league.db")
		mustOpen(t, path).Close()
		raw := rawDB(t, path)
		if _, err := raw.Exec("PRAGMA user_version = 7"); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		before := readFile(t, path)
		_, err := store.Open(ctx, path)
		if !errors.Is(err, store.ErrNewerSchema) {
			t.Fatalf("got %v, want ErrNewerSchema", err)
		}
		if got, want := err.Error(), "database was written by a newer ttt (schema 7, this ttt knows"; !strings.Contains(got, want) {
			t.Errorf("message %q does not say %q", got, want)
		}
		if !bytes.Equal(readFile(t, path), before) {
			t.Error("the refused database changed")
		}
	})

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
			db, err := store.Open(ctx, path)
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
			if !bytes.Equal(readFile(t, path), before) {
				t.Error("the refused file changed")
			}
			entries, _ := os.ReadDir(dir)
			if got, want := len(entries), 1; got != want {
				t.Errorf("%d files in the directory, want %d", got, want)
			}
		})
	}

	t.Run("ErrCannotOpen", func(t *testing.T) {
		_, err := store.Open(ctx, filepath.Join(t.TempDir(), "no", "such", "dir", "league.db"))
		if !errors.Is(err, store.ErrCannotOpen) {
			t.Errorf("got %v, want ErrCannotOpen", err)
		}
	})

	t.Run("ErrNotDatabase/Directory", func(t *testing.T) {
		for _, open := range []func(context.Context, string) (*store.DB, error){store.Open, store.OpenRead} {
			if _, err := open(ctx, t.TempDir()); !errors.Is(err, store.ErrNotDatabase) {
				t.Errorf("got %v, want ErrNotDatabase", err)
			}
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

// writeFile writes data to path.
func writeFile(tb testing.TB, path string, data []byte) {
	tb.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}
