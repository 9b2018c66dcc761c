//go:build linux

package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttt/store"
)

// One process at a time holds the league lock of a database, whatever
// name it opened it by; the others are told and still read; Close
// releases it, and no lock file is left beside the database. (That the kernel
// releases it when its process is killed is TestReliability's, in package
// main.)
func TestLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "league.db")
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	holder := mustOpen(t, path)
	if err := holder.Lock(); err != nil {
		t.Fatal(err)
	}
	tryLock := func(p string) {
		t.Helper()
		other := mustOpen(t, p)
		err := other.Lock()
		if !errors.Is(err, store.ErrLocked) {
			t.Fatalf("second Lock through %s: got %v, want ErrLocked", p, err)
		}
		if want := fmt.Sprintf("%s: another ttt league run or ttt roundrobin is using this database (pid %d)", p, os.Getpid()); err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
		if _, err := other.Agent(ctx, "perfect"); err != nil {
			t.Errorf("reading beside the lock: %v", err)
		}
		other.Close()
	}
	tryLock(path)
	tryLock(link)
	holder.Close()
	next := mustOpen(t, link)
	if err := next.Lock(); err != nil {
		t.Errorf("Lock after the holder closed: %v", err)
	}
	next.Close()
	if got := files(t, dir); got != "league.db league.db-shm league.db-wal" {
		t.Errorf("files beside the database: %s, want league.db and its -wal and -shm", got)
	}
}

// A database that this user may not write: OpenRead reads it and leaves
// no file behind; Open refuses it before SQLite makes any.
func TestOpenReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes read-only files; TestReliability/ReadOnly runs the program as nobody instead")
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "league.db")
	db := mustOpen(t, path)
	addNets(t, db, 1)
	db.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if list, err := ro.Agents(ctx, 0, 0); err != nil || len(list) != 3 {
		t.Errorf("Agents on a read-only database: %d agents, %v", len(list), err)
	}
	ro.Close()
	if _, err := store.Open(ctx, path, twoBuiltins); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("Open of a read-only file: got %v, want ErrReadOnly", err)
	}
	if got := files(t, dir); got != "league.db" {
		t.Errorf("files: %s, want the database alone", got)
	}
}

// A FIFO named as the database is refused from its stat, by readers and
// writers: opening it would block until a writer came, in a system call
// that Ctrl-C does not interrupt.
func TestOpenFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fifo.db")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
		done := make(chan error, 1)
		go func() {
			db, err := open(context.Background(), path)
			if err == nil {
				db.Close()
			}
			done <- err
		}()
		// An open that blocks hangs here: go test's -timeout says where.
		if err, want := <-done, path+": not a ttt database: not a regular file"; err == nil || err.Error() != want {
			t.Errorf("got %v, want %q", err, want)
		}
	}
	if got := files(t, dir); got != "fifo.db" {
		t.Errorf("files: %s, want the FIFO alone", got)
	}
}

// The lock follows the file and SQLite's journal follows the name: a
// league's file renamed while the league runs has its journal under the
// old name. Every ttt that opens the file by the new name is refused, as
// SQLite would keep a second journal beside it; the league, whose name no
// longer names its file, commits nothing more, until the file has its
// name back.
func TestRenamedUnderTheLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, moved := filepath.Join(dir, "league.db"), filepath.Join(dir, "moved.db")
	holder := mustOpen(t, path)
	if err := holder.Lock(); err != nil {
		t.Fatal(err)
	}
	addRound(t, holder, map[int64]float64{1: 0, 2: 1000})
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s: another ttt league run or ttt roundrobin is using this database under another name (pid %d)", moved, os.Getpid())
	for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
		db, err := open(ctx, moved)
		if err == nil {
			db.Close()
		}
		if !errors.Is(err, store.ErrLocked) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("opening the renamed file: got %v, want %q", err, want)
		}
	}
	if got := files(t, dir); got != "league.db-shm league.db-wal moved.db" {
		t.Errorf("files: %s, want no journal beside moved.db", got)
	}
	r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now()}
	if err := holder.CommitRound(ctx, r); !errors.Is(err, store.ErrMoved) {
		t.Errorf("a commit after the rename: got %v, want ErrMoved", err)
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	addRound(t, holder, map[int64]float64{1: 0, 2: 1000})
	holder.Close()
	if last, _, err := mustOpen(t, path).LastRound(ctx); err != nil || last != 2 {
		t.Errorf("last round %d (%v), want 2: the refused commit left nothing", last, err)
	}
}

// In the instant inside Close between SQLite's last connection closing
// and the league lock's release, a ttt that opens the file finds its
// -wal where the league kept it, and is not refused as if the file had
// been renamed under a running league.
func TestCloseReleasesTheLockLast(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	holder := mustOpen(t, path)
	if err := holder.Lock(); err != nil {
		t.Fatal(err)
	}
	addRound(t, holder, map[int64]float64{1: 0, 2: 1000})
	if err := store.CloseSQLite(holder); err != nil {
		t.Fatal(err)
	}
	for _, open := range []func(context.Context, string) (*store.DB, error){openWrite, store.OpenRead} {
		db, err := open(ctx, path)
		if err != nil {
			t.Errorf("opening the file as its league closes: %v", err)
			continue
		}
		db.Close()
	}
	holder.Close()
}
