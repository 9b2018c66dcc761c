package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/table"
	"ttt/agents/toy"
	"ttt/store"
)

// addRound commits a round in which each agent of elo gets that rating
// and played a game, as the league does, which ranks the networks (ids
// from 3), not random and perfect.
func addRound(tb testing.TB, db *store.DB, elo map[int64]float64) *store.Round {
	tb.Helper()
	r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now()}
	for id := int64(1); id <= 1000; id++ {
		if e, ok := elo[id]; ok {
			r.History = append(r.History, store.HistoryRow{Agent: id, Elo: e, Lo: e - 50, Hi: e + 50, Games: 10})
			r.Updates = append(r.Updates, store.Update{Agent: id, Played: game.Record{Wins: 1}, Ranked: id > 2})
		}
	}
	if err := db.CommitRound(context.Background(), r); err != nil {
		tb.Fatal(err)
	}
	return r
}

func TestAddAgent(t *testing.T) {
	ctx := context.Background()

	t.Run("OK", func(t *testing.T) {
		db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
		net := testNet(100, 7)
		a := network(store.Checkpoint, net, 7)
		a.Name, a.ParentID, a.Generation, a.TrainGames = "gen-1", 2, 1, 5000
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
		if !bytes.Equal(got.Weights, net.Bytes()) {
			t.Error("the weights changed on their way through the database")
		}
		if got.Kind != store.Checkpoint || got.Name != "gen-1" || got.ParentID != 2 || got.Generation != 1 ||
			got.TrainGames != 5000 || got.Hidden != 100 || got.Standing != nil || !got.CreatedAt.Equal(a.CreatedAt) {
			t.Errorf("stored %+v, read %+v", a, got)
		}
		if fmt.Sprint(got.Verify, got.Class, got.VsRandom) != fmt.Sprint(a.Verify, a.Class, a.VsRandom) {
			t.Errorf("facts stored %v %v %v, read %v %v %v", a.Verify, a.Class, a.VsRandom, got.Verify, got.Class, got.VsRandom)
		}
		moves, err := db.Compiled(ctx, []int64{3})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(moves[3], a.Compiled) {
			t.Error("the move table changed on its way through the database")
		}
	})

	t.Run("DefaultName", func(t *testing.T) {
		db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
		a := network(store.Baseline, testNet(3, 1), 1)
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
		if got, want := a.Name, "baseline-3"; got != want {
			t.Errorf("name %q, want %q", got, want)
		}
	})

	// A refused agent leaves nothing behind.
	refusals := []struct {
		name string
		edit func(a *store.Agent)
		want error
	}{
		{"ErrBadName/Best", func(a *store.Agent) { a.Name = "best" }, store.ErrBadName},
		{"ErrBadName/Latest", func(a *store.Agent) { a.Name = "latest" }, store.ErrBadName},
		{"ErrBadName/Digits", func(a *store.Agent) { a.Name = "42" }, store.ErrBadName},
		{"ErrBadName/Plus", func(a *store.Agent) { a.Name = "+3" }, store.ErrBadName},
		{"ErrBadName/Flag", func(a *store.Agent) { a.Name = "-5" }, store.ErrBadName},
		{"ErrBadName/Dash", func(a *store.Agent) { a.Name = "--net" }, store.ErrBadName},
		{"ErrBadName/LeagueName", func(a *store.Agent) { a.Name = "checkpoint-15" }, store.ErrBadName},
		{"ErrBadName/Space", func(a *store.Agent) { a.Name = "my net" }, store.ErrBadName},
		{"ErrBadName/Long", func(a *store.Agent) { a.Name = strings.Repeat("n", 101) }, store.ErrBadName},
		{"ErrNameTaken", func(a *store.Agent) { a.Name = "perfect" }, store.ErrNameTaken},
		{"UnknownParent", func(a *store.Agent) { a.ParentID = 99 }, nil},
		{"NoFacts", func(a *store.Agent) { a.Verify = nil }, nil},
		{"NotANetwork", func(a *store.Agent) { a.Kind = agents.Random }, nil},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
			a := network(store.Imported, testNet(3, 1), 1)
			tc.edit(a)
			err := db.AddAgent(ctx, a)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if all, _ := db.Count(ctx); all != 2 {
				t.Errorf("%d agents after a refusal, want 2", all)
			}
		})
	}
}

// TestKinds holds the store's list of kinds to the schema's, which admits
// an agent's kind, finds every game's built-in players' kinds in it, and
// finds a name of the league's own (kind-number) refused for every kind
// of the list: a kind that a migration adds must join the list, and with
// it the names CheckName keeps for the league.
func TestKinds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "league.db")
	mustOpen(t, path)
	var schema string
	if err := rawDB(t, path).QueryRow("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'agents'").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`kind +TEXT NOT NULL CHECK \(kind IN \(([^)]*)\)\)`).FindStringSubmatch(schema)
	if m == nil {
		t.Fatalf("no list of kinds in the agents table's schema:\n%s", schema)
	}
	var kinds []string
	for _, k := range store.Kinds {
		kinds = append(kinds, "'"+string(k)+"'")
	}
	if got, want := strings.Join(kinds, ", "), m[1]; got != want {
		t.Errorf("the store's kinds are %s, the schema's %s", got, want)
	}
	for _, kit := range append(slices.Clone(agents.Games), toy.Kit) {
		for _, b := range kit.Builtins {
			if !slices.Contains(store.Kinds, store.Kind(b.Kind)) {
				t.Errorf("%s's built-in player %s is of kind %q, which the schema does not admit", kit.Name(), b.Name, b.Kind)
			}
		}
	}
	for _, k := range store.Kinds {
		if err := store.CheckName(string(k) + "-15"); !errors.Is(err, store.ErrBadName) {
			t.Errorf("CheckName(%q) = %v, want %v", string(k)+"-15", err, store.ErrBadName)
		}
		if err := store.CheckName(string(k) + "-net"); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", string(k)+"-net", err)
		}
	}
}

func TestAgentLookup(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))

	t.Run("ErrNoCheckpoints", func(t *testing.T) {
		if _, err := db.Agent(ctx, store.Latest); !errors.Is(err, store.ErrNoCheckpoints) {
			t.Errorf("latest in an empty league: got %v, want ErrNoCheckpoints", err)
		}
	})

	addNets(t, db, 1)
	for _, ref := range []string{"1", "random"} {
		a, err := db.Agent(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind != agents.Random || a.Weights != nil {
			t.Errorf("%s: %+v", ref, a)
		}
	}
	for _, ref := range []string{"3", "baseline-3"} {
		if a, err := db.Agent(ctx, ref); err != nil || a.ID != 3 || a.Weights == nil {
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

// Ranked reads the rated networks in the order the league's best rule
// reads (league.Best): the highest class, then the highest lower end of
// the interval, then the newest. Perfect and random, built-in players,
// are not among them. Latest is the newest network.
func TestRankedAndLatest(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	var ids []int64
	for i, class := range []game.Class{game.Beatable, game.Beatable, game.Unbeatable, game.Perfect, game.Beatable} {
		a := network(store.Baseline, testNet(5, uint64(i)), uint64(i))
		a.Class = class // the store orders by the class it is given
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID) // 3 to 7
	}
	ref := func(ref string) int64 {
		t.Helper()
		a, err := db.Agent(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		return a.ID
	}
	first := func() int64 {
		t.Helper()
		list, err := db.Ranked(ctx, 1)
		if err != nil || len(list) != 1 {
			t.Fatalf("ranked: %v, %v", list, err)
		}
		return list[0].ID
	}
	if got, want := ref(store.Latest), ids[4]; got != want {
		t.Errorf("latest = %d, want %d", got, want)
	}
	if list, err := db.Ranked(ctx, 0); err != nil || len(list) != 0 {
		t.Errorf("ranked while unrated = %v, %v; want none", list, err)
	}
	addRound(t, db, map[int64]float64{1: 0, 2: 900, ids[0]: 100, ids[1]: 50})
	if got, want := first(), ids[0]; got != want {
		t.Errorf("best among beatable nets = %d, want %d", got, want)
	}
	addRound(t, db, map[int64]float64{ids[0]: 50})
	if got, want := first(), ids[1]; got != want {
		t.Errorf("best on a tie = %d, want the newer, %d", got, want)
	}
	addRound(t, db, map[int64]float64{ids[2]: 10})
	if got, want := first(), ids[2]; got != want {
		t.Errorf("best with an unbeatable net = %d, want %d", got, want)
	}
	addRound(t, db, map[int64]float64{ids[3]: -20})
	if got, want := first(), ids[3]; got != want {
		t.Errorf("best with a perfect net = %d, want %d", got, want)
	}
	// A perfect net of a higher rating, on a few games: its interval is
	// wide, its lower end below the other's, and it does not lead.
	lucky := network(store.Baseline, testNet(5, 9), 9)
	lucky.Class = game.Perfect
	if err := db.AddAgent(ctx, lucky); err != nil {
		t.Fatal(err)
	}
	r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(),
		History: []store.HistoryRow{{Agent: lucky.ID, Elo: 300, Lo: -200, Hi: 800, Games: 12}},
		Updates: []store.Update{{Agent: lucky.ID, Played: game.Record{Wins: 12}, Ranked: true}}}
	if err := db.CommitRound(ctx, r); err != nil {
		t.Fatal(err)
	}
	if got, want := first(), ids[3]; got != want {
		t.Errorf("best with a luckier perfect net on 12 games = %d, want %d, whose interval's lower end is higher", got, want)
	}
	addRound(t, db, map[int64]float64{lucky.ID: 300})
	if got, want := first(), lucky.ID; got != want {
		t.Errorf("best once its interval narrowed = %d, want %d", got, want)
	}
}

// A damaged blob is found out on read, not played.
func TestChecksums(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := mustOpen(t, path)
	id := addNets(t, db, 1)[0]
	raw := rawDB(t, path)
	for _, column := range []string{"weights", "moves"} {
		// Flip a bit in the middle of the blob, as a bad sector might:
		// SQLite's own checks see nothing.
		var blob []byte
		if err := raw.QueryRow("SELECT "+column+" FROM agents WHERE id = ?", id).Scan(&blob); err != nil {
			t.Fatal(err)
		}
		blob[len(blob)/2] ^= 1
		if _, err := raw.Exec("UPDATE agents SET "+column+" = ? WHERE id = ?", blob, id); err != nil {
			t.Fatal(err)
		}
	}
	if pragma[string](t, raw, "integrity_check") != "ok" {
		t.Fatal("the edit broke the file itself")
	}
	if _, err := db.Agent(ctx, "3"); !errors.Is(err, store.ErrChecksum) {
		t.Errorf("Agent: got %v, want ErrChecksum", err)
	}
	if _, err := db.Compiled(ctx, []int64{id}); !errors.Is(err, store.ErrChecksum) {
		t.Errorf("Moves: got %v, want ErrChecksum", err)
	}
	if _, err := db.Models(ctx, []int64{id}); !errors.Is(err, store.ErrChecksum) {
		t.Errorf("Models: got %v, want ErrChecksum", err)
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
			r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(), Learner: []byte("state"),
				Snapshot: network(store.Checkpoint, testNet(5, uint64(i)), uint64(i)),
				Matches:  []store.Match{{A: 0, B: 1, Record: game.Record{Wins: 100}}, {A: 0, B: 2, Record: game.Record{Losses: 100}}},
				Updates:  []store.Update{{Agent: 0}},
				History:  []store.HistoryRow{{Agent: 0, Elo: float64(i)}}}
			if err := league.CommitRound(ctx, r); err != nil {
				return fmt.Errorf("league: %w", err)
			}
			first.Do(func() { close(firstRound) })
		}
		return nil
	})
	writers.Go(func() error { // imports at the same time
		for i := 0; writing(); i++ {
			if err := writer.AddAgent(ctx, network(store.Imported, testNet(5, uint64(i)), 1)); err != nil {
				return fmt.Errorf("writer: %w", err)
			}
		}
		return nil
	})
	readers.Go(func() error {
		<-firstRound
		for range 30 {
			if _, _, err := reader.Standings(ctx, 20); err != nil {
				return fmt.Errorf("reader: %w", err)
			}
			if _, err := reader.Ranked(ctx, 1); err != nil {
				return fmt.Errorf("reader: %w", err)
			}
			if _, err := reader.History(ctx, 4); err != nil {
				return fmt.Errorf("reader: %w", err)
			}
		}
		return nil
	})
	readers.Go(func() error { // ttt show, started again and again
		<-firstRound
		for range 10 {
			db, err := store.OpenRead(ctx, path)
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

// SameAgent finds a stored network or table by its weights, and a table
// is pruned as a network is, keeping its method.
func TestSameAgentAndPrunedTable(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	tab := table.New(1, 0.5, 0, 0.5)
	tab.Set(game.X, tictactoe.Board{}.Play(4), 0.75)
	tableAgent := func(kind store.Kind) *store.Agent {
		return &store.Agent{Kind: kind, Method: "table", Weights: tab.Bytes(), Facts: agents.TicTacToe.Check(tictactoe.NewTable(tab)),
			Compiled: bytes.Repeat([]byte{1}, 4520)}
	}
	net := network(store.Baseline, testNet(5, 1), 1)
	for _, a := range []*store.Agent{tableAgent(store.Checkpoint), net} {
		if _, found, err := db.SameAgent(ctx, a); err != nil || found {
			t.Fatalf("SameAgent before it is stored: found %v, %v", found, err)
		}
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		a    *store.Agent
		want int64
	}{{tableAgent(store.Imported), 3}, {network(store.Imported, testNet(5, 1), 1), 4}} {
		if same, found, err := db.SameAgent(ctx, c.a); err != nil || !found || same.ID != c.want {
			t.Errorf("SameAgent: %+v, %v, %v; want agent %d", same, found, err, c.want)
		}
	}
	if _, found, _ := db.SameAgent(ctx, network(store.Imported, testNet(5, 2), 2)); found {
		t.Error("SameAgent found another network")
	}

	got, err := db.Agent(ctx, "3")
	if err != nil || !bytes.Equal(got.Weights, tab.Bytes()) || got.Method != "table" || got.Hidden != 0 {
		t.Fatalf("the table read back: %+v, %v", got, err)
	}
	if n, _, err := db.Prune(ctx, nil, 0); err != nil || n != 1 {
		t.Fatalf("Prune: %d, %v; want the table checkpoint", n, err)
	}
	if got, err := db.Agent(ctx, "3"); !errors.Is(err, store.ErrPruned) || got.Weights != nil || got.Method != "table" {
		t.Errorf("the pruned table: %+v, %v; want its method and ErrPruned", got, err)
	}
}
