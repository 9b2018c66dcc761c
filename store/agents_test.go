package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/agents/verify"
	"ttt/store"
)

// testNet returns a freshly initialised network.
func testNet(hidden int, seed uint64) *nn.Net {
	return nn.New(hidden, rand.New(rand.NewPCG(seed, 0)))
}

// addNets stores n baseline networks and returns their ids.
func addNets(tb testing.TB, db *store.DB, n int) []int64 {
	tb.Helper()
	var ids []int64
	for i := range n {
		a := &store.Agent{Kind: store.Baseline, Net: testNet(5, uint64(i))}
		if err := db.AddAgent(context.Background(), a); err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	return ids
}

// addRound commits a round with the given ratings, as the league does.
func addRound(tb testing.TB, db *store.DB, elo map[int64]float64) {
	tb.Helper()
	r := &store.Round{Started: time.Now(), Finished: time.Now()}
	for _, id := range slices.Sorted(maps.Keys(elo)) {
		e := elo[id]
		r.Ratings = append(r.Ratings, store.Rating{Agent: id, Elo: e, Lo: e - 50, Hi: e + 50, Games: 10})
	}
	if err := db.CommitRound(context.Background(), r, func(int64) error { return nil }); err != nil {
		tb.Fatal(err)
	}
}

func TestAddAgent(t *testing.T) {
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
		net := testNet(100, 7)
		a := &store.Agent{Kind: store.Checkpoint, Name: "gen-1", ParentID: 2, Generation: 1, TrainGames: 5000, Net: net}
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
		if got, want := a.ID, int64(3); got != want {
			t.Errorf("id %d, want %d", got, want)
		}
		got, err := db.Agent(ctx, "3")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Net.Bytes(), net.Bytes()) {
			t.Error("the weights changed on their way through the database")
		}
		if got.Kind != store.Checkpoint || got.Name != "gen-1" || got.ParentID != 2 || got.Generation != 1 ||
			got.TrainGames != 5000 || got.Hidden != 100 || got.Rating != nil || !got.CreatedAt.Equal(a.CreatedAt) {
			t.Errorf("stored %+v, read %+v", a, got)
		}
		table := net.Table()
		for i, side := range []game.Side{game.X, game.O} {
			if want := verify.Check(table, side); got.Verify[i] != want || a.Verify[i] != want {
				t.Errorf("verify %s: stored %v, read %v, want %v", side, a.Verify[i], got.Verify[i], want)
			}
		}
	})

	t.Run("DefaultName", func(t *testing.T) {
		db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
		a := &store.Agent{Kind: store.Baseline, Net: testNet(3, 1)}
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
		if got, want := a.Name, "baseline-3"; got != want {
			t.Errorf("name %q, want %q", got, want)
		}
	})

	// A refused agent leaves nothing behind.
	refusals := []struct {
		name  string
		agent store.Agent
		want  error
	}{
		{"ErrBadName/Best", store.Agent{Kind: store.Imported, Name: "best"}, store.ErrBadName},
		{"ErrBadName/Latest", store.Agent{Kind: store.Imported, Name: "latest"}, store.ErrBadName},
		{"ErrBadName/Digits", store.Agent{Kind: store.Imported, Name: "42"}, store.ErrBadName},
		{"ErrBadName/Space", store.Agent{Kind: store.Imported, Name: "my net"}, store.ErrBadName},
		{"ErrBadName/Long", store.Agent{Kind: store.Imported, Name: strings.Repeat("n", 101)}, store.ErrBadName},
		{"ErrNameTaken", store.Agent{Kind: store.Imported, Name: "perfect"}, store.ErrNameTaken},
		{"ErrUnknownParent", store.Agent{Kind: store.Checkpoint, ParentID: 99}, nil},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
			a := tc.agent
			a.Net = testNet(3, 1)
			err := db.AddAgent(ctx, &a)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if list, _ := db.Agents(ctx); len(list) != 2 {
				t.Errorf("%d agents after a refusal, want 2", len(list))
			}
		})
	}

	t.Run("NotANetwork", func(t *testing.T) {
		db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
		for _, a := range []*store.Agent{{Kind: store.Random}, {Kind: store.Baseline}} {
			if err := db.AddAgent(ctx, a); err == nil {
				t.Errorf("stored %+v", a)
			}
		}
	})
}

func TestAgentLookup(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))

	t.Run("ErrNoCheckpoints", func(t *testing.T) {
		for _, ref := range []string{store.Best, store.Latest} {
			if _, err := db.Agent(ctx, ref); !errors.Is(err, store.ErrNoCheckpoints) {
				t.Errorf("%s in an empty league: got %v, want ErrNoCheckpoints", ref, err)
			}
		}
	})

	addNets(t, db, 1)
	for _, ref := range []string{"1", "random"} {
		a, err := db.Agent(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind != store.Random || a.Net != nil {
			t.Errorf("%s: %+v", ref, a)
		}
	}
	for _, ref := range []string{"3", "baseline-3"} {
		if a, err := db.Agent(ctx, ref); err != nil || a.ID != 3 || a.Net == nil {
			t.Errorf("%s: %+v, %v", ref, a, err)
		}
	}

	t.Run("ErrNotFound", func(t *testing.T) {
		for _, ref := range []string{"4", "0", "-1", "nobody", ""} {
			if _, err := db.Agent(ctx, ref); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%q: got %v, want ErrNotFound", ref, err)
			}
		}
	})
}

func TestBestAndLatest(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := mustOpen(t, path)
	ids := addNets(t, db, 3) // 3, 4, 5

	ref := func(ref string) int64 {
		t.Helper()
		a, err := db.Agent(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		return a.ID
	}
	// Nothing rated: best is the latest.
	if got, want := ref(store.Latest), ids[2]; got != want {
		t.Errorf("latest = %d, want %d", got, want)
	}
	if got, want := ref(store.Best), ids[2]; got != want {
		t.Errorf("best while unrated = %d, want %d", got, want)
	}
	// Perfect is rated highest but is not a network.
	addRound(t, db, map[int64]float64{1: 0, 2: 900, ids[0]: 100, ids[1]: 50})
	if got, want := ref(store.Best), ids[0]; got != want {
		t.Errorf("best after round 1 = %d, want %d", got, want)
	}
	// Only each network's latest rating counts.
	addRound(t, db, map[int64]float64{1: 0, 2: 900, ids[0]: 20, ids[1]: 80})
	if got, want := ref(store.Best), ids[1]; got != want {
		t.Errorf("best after round 2 = %d, want %d", got, want)
	}
	if got, want := ref(store.Latest), ids[2]; got != want {
		t.Errorf("latest = %d, want %d", got, want)
	}
	// Ties go to the newer network.
	addRound(t, db, map[int64]float64{ids[0]: 80, ids[1]: 80})
	if got, want := ref(store.Best), ids[1]; got != want {
		t.Errorf("best on a tie = %d, want %d", got, want)
	}

	// A network verify finds unbeatable on both sides comes first, even
	// rated lower.
	data, err := os.ReadFile("../league/commands/testdata/unbeatable.bin")
	if err != nil {
		t.Fatal(err)
	}
	net, err := nn.Parse(data, 19)
	if err != nil {
		t.Fatal(err)
	}
	solid := &store.Agent{Kind: store.Imported, Net: net}
	if err := db.AddAgent(ctx, solid); err != nil {
		t.Fatal(err)
	}
	if !solid.Verify[0].Unbeatable() || !solid.Verify[1].Unbeatable() {
		t.Fatalf("testdata/unbeatable.bin is beatable: %v", solid.Verify)
	}
	addRound(t, db, map[int64]float64{ids[0]: 80, ids[1]: 80, solid.ID: 10})
	if got, want := ref(store.Best), solid.ID; got != want {
		t.Errorf("best with an unbeatable net = %d, want %d", got, want)
	}

	list, err := db.Agents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := list[2].Rating; r == nil || r.Round != 4 || r.Elo != 80 || r.Lo != 30 || r.Hi != 130 || r.Games != 10 {
		t.Errorf("latest rating of %d: %+v", ids[0], r)
	}
	if r := list[1].Rating; r == nil || r.Round != 2 || r.Elo != 900 {
		t.Errorf("latest rating of perfect: %+v", r)
	}
	if r := list[4].Rating; r != nil {
		t.Errorf("unrated %d has a rating: %+v", ids[2], r)
	}
}

func TestRecord(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := mustOpen(t, path)
	id := addNets(t, db, 1)[0]
	// As A (the newer agent) against random and perfect, and as B against
	// a later net.
	later := addNets(t, db, 1)[0]
	matches := []store.Match{
		{A: id, B: 1, Wins: 3, Draws: 1, Losses: 0},
		{A: id, B: 2, Wins: 0, Draws: 2, Losses: 5},
		{A: later, B: id, Wins: 1, Draws: 4, Losses: 7},
		{A: later, B: 1, Wins: 9}, // not id's
	}
	if err := db.CommitRound(ctx, &store.Round{Matches: matches}, func(int64) error { return nil }); err != nil {
		t.Fatal(err)
	}
	got, err := db.Record(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if want := (verify.Tally{Wins: 10, Draws: 7, Losses: 6}); got != want {
		t.Errorf("record %v, want %v", got, want)
	}
}

// Readers keep working, and new ones open the database, while two writers
// (another store and another program) commit rounds and agents as fast as
// they can: WAL, the busy timeout and immediate write transactions
// together mean nobody sees "database is locked".
func TestReaderWhileWriting(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	reader := mustOpen(t, path)
	writer := mustOpen(t, path)
	league := mustOpen(t, path)
	addNets(t, writer, 1)

	// The writers go on until the readers have done a fixed amount of work
	// (no timing in the test); the readers start after the first round is
	// in, so the two overlap.
	stop, firstRound := make(chan struct{}), make(chan struct{})
	writing := func() bool {
		select {
		case <-stop:
			return false
		default:
			return true
		}
	}
	var writers, readers errgroup.Group
	var first sync.Once
	writers.Go(func() error { // a league's rounds: a snapshot, matches, ratings
		defer first.Do(func() { close(firstRound) }) // never leave the readers waiting
		for i := 0; writing(); i++ {
			r := &store.Round{Started: time.Now(), Finished: time.Now(), Learner: []byte("state"),
				Snapshot: &store.Agent{Kind: store.Checkpoint, Net: testNet(5, uint64(i))}}
			err := league.CommitRound(ctx, r, func(id int64) error {
				r.Matches = []store.Match{{A: id, B: 1, Wins: 100}, {A: id, B: 2, Losses: 100}}
				r.Ratings = []store.Rating{{Agent: id, Elo: float64(i)}}
				return nil
			})
			if err != nil {
				return fmt.Errorf("league: %w", err)
			}
			first.Do(func() { close(firstRound) })
		}
		return nil
	})
	writers.Go(func() error { // imports at the same time
		for i := 0; writing(); i++ {
			if err := writer.AddAgent(ctx, &store.Agent{Kind: store.Imported, Net: testNet(5, uint64(i))}); err != nil {
				return fmt.Errorf("writer: %w", err)
			}
		}
		return nil
	})
	readers.Go(func() error {
		<-firstRound
		for range 30 {
			if _, err := reader.Agents(ctx); err != nil {
				return fmt.Errorf("reader: %w", err)
			}
			if _, err := reader.Agent(ctx, store.Best); err != nil {
				return fmt.Errorf("reader: %w", err)
			}
			if _, err := reader.Record(ctx, 3); err != nil {
				return fmt.Errorf("reader: %w", err)
			}
		}
		return nil
	})
	readers.Go(func() error { // ttt checkpoints, started again and again
		<-firstRound
		for range 10 {
			db, err := store.Open(ctx, path)
			if err != nil {
				return fmt.Errorf("opener: %w", err)
			}
			_, err = db.Agent(ctx, store.Latest)
			db.Close()
			if err != nil {
				return fmt.Errorf("opener: %w", err)
			}
		}
		return nil
	})
	rerr := readers.Wait()
	close(stop)
	if err := errors.Join(rerr, writers.Wait()); err != nil {
		t.Fatal(err)
	}
}
