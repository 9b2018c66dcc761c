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
// returns its path, open.
func smallLeague(t *testing.T, rounds int) (string, *store.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "league.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := small()
	cfg.Rounds = rounds
	cfg.GamesPerRound = 500 // the games are the point, not the learning
	if _, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	return path, db
}

func TestGamesReplayTheStoredMatches(t *testing.T) {
	_, db := smallLeague(t, 3)
	ctx := context.Background()
	matches, err := db.Matches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	list, err := db.Agents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := map[int64]string{}
	for _, a := range list {
		names[a.ID] = a.Name
	}

	// Each match's games, in order, with the record they add up to from
	// its newer agent's side.
	type record struct{ games, wins, draws, losses int }
	got := make([]record, len(matches))
	err = league.Games(ctx, db, func(g league.StoredGame) error {
		if g.Matches != len(matches) || g.Match < 1 || g.Match > len(matches) {
			t.Fatalf("match %d of %d, want one of %d", g.Match, g.Matches, len(matches))
		}
		m := matches[g.Match-1]
		if g.Round != m.Round || g.XName != names[g.X] || g.OName != names[g.O] ||
			!(g.X == m.A && g.O == m.B || g.X == m.B && g.O == m.A) {
			t.Fatalf("game %+v in match %+v", g, m)
		}
		// The moves are legal and end the game with its result.
		var b game.Board
		for _, sq := range g.Moves {
			if err := b.CheckMove(sq); err != nil || b.Result() != game.Ongoing {
				t.Fatalf("moves %v: %d: %v", g.Moves, sq, err)
			}
			b = b.Play(sq)
		}
		if b.Result() != g.Result || g.Opening != m.Plies {
			t.Fatalf("moves %v end %v, game says %v; opening %d plies", g.Moves, b.Result(), g.Result, g.Opening)
		}
		r := &got[g.Match-1]
		r.games++
		switch {
		case g.Result == game.Tie:
			r.draws++
		case (g.Result == game.XWins) == (g.X == m.A):
			r.wins++
		default:
			r.losses++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range matches {
		want := record{2 * len(league.Openings(m.Plies)), m.Wins, m.Draws, m.Losses}
		if got[i] != want {
			t.Errorf("match %d v %d (round %d): replayed %+v, stored %+v", m.A, m.B, m.Round, got[i], want)
		}
	}
}

func TestGamesRefuseARecordTheyCannotReproduce(t *testing.T) {
	path, db := smallLeague(t, 2)
	ctx := context.Background()
	matches, err := db.Matches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Another program (or another ttt's rules) changed one result.
	bad := matches[len(matches)-1]
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("UPDATE matches SET draws = draws + 1 WHERE a = ? AND b = ?", bad.A, bad.B); err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = league.Games(ctx, db, func(g league.StoredGame) error {
		if g.Match == len(matches) {
			t.Fatal("a game of the changed match was handed on")
		}
		seen++
		return nil
	})
	if !errors.Is(err, league.ErrNotReproduced) {
		t.Fatalf("got %v, want ErrNotReproduced", err)
	}
	want := 0
	for _, m := range matches[:len(matches)-1] {
		want += m.Wins + m.Draws + m.Losses
	}
	if seen != want {
		t.Errorf("%d games handed on before the error, want the %d of the other matches", seen, want)
	}
}

func TestGamesStopAtTheFirstError(t *testing.T) {
	_, db := smallLeague(t, 1)
	stop := errors.New("stop")
	calls := 0
	err := league.Games(context.Background(), db, func(league.StoredGame) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("%d calls, err %v; want 1 call and the callback's error", calls, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := league.Games(ctx, db, func(league.StoredGame) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
