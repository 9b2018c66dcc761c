package league_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/league"
	"ttt/store"
)

// smallLeague plays rounds of a small league into a new database and
// returns its path and the database, open.
func smallLeague(t *testing.T, rounds int) (string, *store.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "league.db")
	db := open(t, path)
	cfg := small()
	cfg.Rounds = rounds
	cfg.GamesPerRound = 500 // the games are the point, not the learning
	if _, err := league.Run(context.Background(), db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	return path, db
}

// matches returns the matches f chooses, in the order Games replays them.
func matches(t *testing.T, db *store.DB, f store.MatchFilter) []store.Match {
	t.Helper()
	var list []store.Match
	if err := db.Matches(context.Background(), f, func(m store.Match) error { list = append(list, m); return nil }); err != nil {
		t.Fatal(err)
	}
	return list
}

// withExtra returns the matches f chooses and then, with f.Ladder, the
// extra matches against the ladder it chooses: every match Games hands
// on, in order.
func withExtra(t *testing.T, db *store.DB, f store.MatchFilter) []store.Match {
	t.Helper()
	list := matches(t, db, f)
	if !f.Ladder {
		return list
	}
	if err := db.LadderMatches(context.Background(), f, func(m store.Match) error { list = append(list, m); return nil }); err != nil {
		t.Fatal(err)
	}
	return list
}

func TestGamesReplayTheStoredMatches(t *testing.T) {
	t.Parallel()
	_, db := smallLeague(t, 12)
	ctx := context.Background()
	for _, f := range []store.MatchFilter{{}, {Agent: builtins + 3}, {First: 3, Last: 4}, {Ladder: true}, {Agent: builtins + 3, Ladder: true}} {
		list := withExtra(t, db, f)
		// Each match's games come in a row: 2 per opening, 144 with two
		// plies; they add up to its record from its newer agent's side.
		i, played := 0, 0
		var rec game.Record
		err := league.Games(ctx, db, f, func(g league.StoredGame) error {
			m := list[i]
			if g.Round != m.Round || !(g.X == m.A && g.O == m.B || g.X == m.B && g.O == m.A) || g.Opening != m.Plies {
				t.Fatalf("game %+v in match %+v", g, m)
			}
			// The moves are legal and end the game with its result.
			var b tictactoe.Board
			for _, sq := range g.Moves {
				if err := b.CheckMove(sq); err != nil {
					t.Fatalf("moves %v: %d: %v", g.Moves, sq, err)
				}
				b = b.Play(sq)
			}
			if b.Result() != g.Result {
				t.Fatalf("moves %v end %v, game says %v", g.Moves, b.Result(), g.Result)
			}
			side := game.X
			if g.O == m.A {
				side = game.O
			}
			rec.Add(g.Result, side)
			if played++; played == m.Games() {
				if rec != m.Record {
					t.Errorf("match %d v %d (round %d): replayed %v, stored %v", m.A, m.B, m.Round, rec, m.Record)
				}
				i, played, rec = i+1, 0, game.Record{}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if i != len(list) || len(list) == 0 {
			t.Errorf("%+v: %d matches replayed, want %d", f, i, len(list))
		}
	}
}

func TestGamesRefuseARecordTheyCannotReproduce(t *testing.T) {
	t.Parallel()
	path, db := smallLeague(t, 2)
	ctx := context.Background()
	list := matches(t, db, store.MatchFilter{})
	// Another program (or another ttt's rules) changed one result.
	bad := list[len(list)-1]
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("UPDATE matches SET draws = draws + 1 WHERE a = ? AND b = ?", bad.A, bad.B); err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = league.Games(ctx, db, store.MatchFilter{}, func(g league.StoredGame) error {
		seen++
		return nil
	})
	if !errors.Is(err, league.ErrNotReproduced) {
		t.Fatalf("got %v, want ErrNotReproduced", err)
	}
	want := 0
	for _, m := range list[:len(list)-1] {
		want += m.Games()
	}
	if seen != want {
		t.Errorf("%d games handed on before the error, want the %d of the other matches", seen, want)
	}
}

// The matches against the ladder keep their moves, and Games reads them
// rather than play the searches again: the very games a replay gives. A
// stored game that does not make the match's record is damage.
func TestLadderGamesAreTheReplayedGames(t *testing.T) {
	t.Parallel()
	path, db := smallLeague(t, 12)
	all := func() []league.StoredGame {
		var games []league.StoredGame
		err := league.Games(context.Background(), db, store.MatchFilter{}, func(g league.StoredGame) error {
			games = append(games, g)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return games
	}
	stored := all()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var kept int
	if err := raw.QueryRow("SELECT count(*) FROM ladder_games").Scan(&kept); err != nil || kept == 0 {
		t.Fatalf("%d matches keep their games (%v), want some: the league played its ladder", kept, err)
	}
	if _, err := raw.Exec("DELETE FROM ladder_games"); err != nil {
		t.Fatal(err)
	}
	if replayed := all(); !reflect.DeepEqual(stored, replayed) {
		t.Fatalf("the %d games read differ from the %d replayed", len(stored), len(replayed))
	}

	// A stored game cut short: its match's games are not handed on.
	path2, db2 := smallLeague(t, 12)
	raw2, err := sql.Open("sqlite", path2)
	if err != nil {
		t.Fatal(err)
	}
	defer raw2.Close()
	if _, err := raw2.Exec("UPDATE ladder_games SET games = substr(games, 1, length(games) - 1) WHERE (a, b) = (SELECT a, b FROM ladder_games LIMIT 1)"); err != nil {
		t.Fatal(err)
	}
	err = league.Games(context.Background(), db2, store.MatchFilter{}, func(league.StoredGame) error { return nil })
	if !errors.Is(err, store.ErrChecksum) {
		t.Errorf("a stored game cut short: %v, want damage", err)
	}
}

func TestGamesStopAtTheFirstError(t *testing.T) {
	t.Parallel()
	_, db := smallLeague(t, 1)
	stop := errors.New("stop")
	calls := 0
	err := league.Games(context.Background(), db, store.MatchFilter{}, func(league.StoredGame) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("%d calls, err %v; want 1 call and the callback's error", calls, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := league.Games(ctx, db, store.MatchFilter{}, func(league.StoredGame) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// The matches of a range of rounds or of an agent are read from ranges of
// the matches' key, not by an index of rounds: whatever a league did (a
// network imported during a round's training, which plays in that same
// round, and a round-robin among old agents), each filter chooses exactly
// the matches SQLite finds by a plain scan, and count says how many.
func TestMatchFilters(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "league.db")
	db := open(t, path)
	ctx := context.Background()
	cfg := small()
	cfg.Rounds = 6
	imported := 0
	_, err := league.Run(ctx, db, cfg, league.Hooks{Training: func(round int64, done, total int) {
		if (round == 3 || round == 5) && done == 1000 {
			imported++
			a := netAgent(store.Imported, fmt.Sprintf("during-%d", round), nn.New(tictactoe.Game, 8, rand.New(rand.NewPCG(uint64(round), 0))))
			if err := db.AddAgent(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if imported != 2 {
		t.Fatalf("%d networks imported during training, want 2", imported)
	}
	if _, err := league.RoundRobin(ctx, db, []int64{1, 2, 3, 4, 5}, cfg); err != nil {
		t.Fatal(err)
	}

	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	scan := func(where string, args ...any) map[[2]int64]bool {
		rows, err := raw.Query("SELECT a, b FROM matches NOT INDEXED WHERE "+where, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		set := map[[2]int64]bool{}
		for rows.Next() {
			var a, b int64
			if err := rows.Scan(&a, &b); err != nil {
				t.Fatal(err)
			}
			set[[2]int64{a, b}] = true
		}
		return set
	}
	var filters []store.MatchFilter
	for first := int64(0); first <= 8; first++ {
		for last := first; last <= 8; last++ {
			filters = append(filters, store.MatchFilter{First: first, Last: last})
		}
	}
	for _, agent := range []int64{1, 2, 3, 7, 9} {
		filters = append(filters, store.MatchFilter{Agent: agent}, store.MatchFilter{Agent: agent, First: 3, Last: 5})
	}
	for _, f := range filters {
		last := f.Last
		if last == 0 {
			last = 1 << 62
		}
		want := scan("round_id BETWEEN ? AND ? AND (? = 0 OR a = ? OR b = ?)", f.First, last, f.Agent, f.Agent, f.Agent)
		got := map[[2]int64]bool{}
		for _, m := range matches(t, db, f) {
			got[[2]int64{m.A, m.B}] = true
		}
		n, err := db.MatchCount(ctx, f)
		if err != nil || !maps.Equal(got, want) || n != len(want) {
			t.Errorf("%+v: %d matches read, count %d (%v); a scan finds %d", f, len(got), n, err, len(want))
		}
	}
}

// A match against a built-in player keeps its record by side, and the
// games it replays to give the same split: for every snapshot, each
// built-in player it met, as X and as O. Matches between networks keep
// no split.
func TestSidesAgainstTheBuiltins(t *testing.T) {
	t.Parallel()
	_, db := smallLeague(t, 8)
	ctx := context.Background()
	names, err := db.Builtins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for snap := builtins + 1; snap <= builtins+8; snap++ {
		var opponents []store.Opponent
		if err := db.View(ctx, func(v *store.View) (err error) {
			opponents, err = v.Opponents(snap, 0, 1000)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		// The replayed games, from the snapshot's side, by opponent and
		// by the side it played.
		replayed := map[int64]*[2]game.Record{}
		err := league.Games(ctx, db, store.MatchFilter{Agent: snap}, func(g league.StoredGame) error {
			side, opp := game.X, g.O
			if g.O == snap {
				side, opp = game.O, g.X
			}
			if replayed[opp] == nil {
				replayed[opp] = &[2]game.Record{}
			}
			replayed[opp][side].Add(g.Result, side)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range opponents {
			_, builtin := names[o.ID]
			switch {
			case builtin != (o.First != nil):
				t.Errorf("agent %d v %s: a split %v, want one against a built-in player only", snap, o.Name, o.First)
			case builtin && (*o.First != replayed[o.ID][game.X] || o.Second() != replayed[o.ID][game.O]):
				t.Errorf("agent %d v %s: stored as X %v, as O %v; the games replay as %v and %v", snap, o.Name, *o.First, o.Second(), replayed[o.ID][game.X], replayed[o.ID][game.O])
			case builtin:
				checked++
			}
		}
	}
	if checked < 8*3 {
		t.Errorf("%d splits checked, want random, perfect and a rung for each of 8 snapshots", checked)
	}
}
