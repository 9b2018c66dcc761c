package league_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"ttt/agents/game"
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

func TestGamesReplayTheStoredMatches(t *testing.T) {
	_, db := smallLeague(t, 12)
	ctx := context.Background()
	for _, f := range []store.MatchFilter{{}, {Agent: 5}, {First: 3, Last: 4}} {
		list := matches(t, db, f)
		// Each match's games come in a row: 2 per opening, 144 with two
		// plies; they add up to its record from its newer agent's side.
		i, played := 0, 0
		var rec game.Record
		err := league.Games(ctx, db, f, func(g league.Game) error {
			m := list[i]
			if g.Round != m.Round || !(g.X == m.A && g.O == m.B || g.X == m.B && g.O == m.A) || g.Opening != m.Plies {
				t.Fatalf("game %+v in match %+v", g, m)
			}
			// The moves are legal and end the game with its result.
			var b game.Board
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
	err = league.Games(ctx, db, store.MatchFilter{}, func(g league.Game) error {
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

func TestGamesStopAtTheFirstError(t *testing.T) {
	_, db := smallLeague(t, 1)
	stop := errors.New("stop")
	calls := 0
	err := league.Games(context.Background(), db, store.MatchFilter{}, func(league.Game) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("%d calls, err %v; want 1 call and the callback's error", calls, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := league.Games(ctx, db, store.MatchFilter{}, func(league.Game) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
