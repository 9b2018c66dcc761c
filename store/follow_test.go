package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/league"
	"ttt/store"
)

// A league file replaced under a running reader (cp other.db x.new && mv
// x.new league.db) is not read as one file: SQLite finds the
// -wal by name, so a connection opened after the replacement would read
// the new file through the old one's journal. Every read after it says
// so, whether it would reuse a connection to the old file or open one to
// the new; a reader opened afterwards is refused the old league's -wal,
// and reads the new file, a Connect Four league here, without it.
func TestReplacedUnderAReader(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, other := filepath.Join(dir, "league.db"), filepath.Join(dir, "other.db")
	writer := mustOpen(t, path)
	addNets(t, writer, 2) // in the -wal, which the writer keeps open
	c4, err := store.Open(ctx, other, func() store.Setup { return league.Setup(agents.ConnectFour) })
	if err != nil {
		t.Fatal(err)
	}
	c4.Close()

	reader, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if _, err := reader.Agent(ctx, store.Latest); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".new", readFile(t, other), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	// Several at once: some reuse a connection, others open one.
	errs := make(chan error, 8)
	for range cap(errs) {
		go func() {
			_, err := reader.Agent(ctx, store.Latest)
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; !errors.Is(err, store.ErrReplaced) {
			t.Errorf("a read after the replacement: got %v, want ErrReplaced", err)
		}
	}
	if _, err := reader.Count(ctx); err == nil || err.Error() != store.ErrReplaced.Error()+": run the command again to read the file that has the name now (ttt serve: start it again)" {
		t.Errorf("the message: %v", err)
	}

	// The old league's -wal, beside the name, is not the new file's: a
	// reader is refused it (in another process, always: see
	// TestForeignJournal; in this one, SQLite may not read it at all), and
	// reads the new file once it is moved away.
	reader.Close()
	writer.Close()
	if db, err := store.OpenRead(ctx, path); err == nil {
		db.Close()
	} else if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "is not its journal") {
		t.Fatalf("a reader of the new file, the old league's -wal beside it: %v", err)
	}
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	again, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := again.Game().Name(); got != "connect4" {
		t.Errorf("a reader opened after the replacement reads a %s league", got)
	}
}

// A pinned DB reads one state of the league whatever a league commits
// meanwhile, so that check --ratings reads the results and the standings
// of one state. An unpinned one follows the commits.
func TestPin(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	writer := mustOpen(t, path)
	addRound(t, writer, map[int64]float64{1: 0, 2: 100})
	pinned, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer pinned.Close()
	if err := pinned.Pin(ctx); err != nil {
		t.Fatal(err)
	}
	following, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer following.Close()

	addRound(t, writer, map[int64]float64{1: 0, 2: 200})
	addNets(t, writer, 1)
	for _, c := range []struct {
		db     *store.DB
		rounds int64
		agents int
		elo    float64
	}{{pinned, 1, 2, 100}, {following, 2, 3, 200}} {
		last, _, err := c.db.LastRound(ctx)
		if err != nil || last != c.rounds {
			t.Errorf("last round %d (%v), want %d", last, err, c.rounds)
		}
		if n, err := c.db.Count(ctx); err != nil || n != c.agents {
			t.Errorf("%d agents (%v), want %d", n, err, c.agents)
		}
		list, _, err := c.db.Standings(ctx, 0)
		if err != nil || len(list) != 2 || list[0].Standing.Elo != c.elo {
			t.Errorf("standings %v (%v), want agent 2 at %g first", list, err, c.elo)
		}
	}
}
