package store_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
	"ttt/store"
)

// A match's games, stored as EncodeGames writes them, read back as they
// were played, in both games and with every length of opening; and a
// stored number that holds more than the match's games, or games that
// make another record, is refused.
func TestLadderGamesRoundTrip(t *testing.T) {
	for _, g := range []game.Game{tictactoe.Game, connect4.Game} {
		for plies := range 3 {
			rng := rand.New(rand.NewPCG(uint64(plies), 7))
			var played [][]int
			m := store.Match{Plies: plies}
			for _, opening := range game.Openings(g, plies) {
				for colour := range 2 {
					moves := slices.Clone(opening)
					p, _ := game.Replay(g, moves)
					for g.Result(p) == game.Ongoing {
						mv := game.RandomMove(g, p, rng)
						moves, p = append(moves, mv), g.Play(p, mv)
					}
					side := game.X
					if colour == 1 {
						side = game.O
					}
					m.Record.Add(g.Result(p), side)
					played = append(played, moves)
				}
			}
			m.Moves = store.EncodeGames(g, plies, played)
			var read [][]int
			err := store.MatchGames(g, m, func(moves []int, aIsX bool, r game.Result) error {
				if aIsX != (len(read)%2 == 0) {
					t.Errorf("%s, %d plies: game %d: A plays X %v", g.Name(), plies, len(read)+1, aIsX)
				}
				read = append(read, moves)
				return nil
			})
			if err != nil || !slices.EqualFunc(read, played, slices.Equal) {
				t.Fatalf("%s, %d plies: read %d games (%v), want the %d played", g.Name(), plies, len(read), err, len(played))
			}
			moves := 0
			for _, p := range played {
				moves += len(p)
			}
			t.Logf("%s, %d plies: %d games, %d moves in %d bytes", g.Name(), plies, len(played), moves, len(m.Moves))

			// A number larger than every match's games can make: each
			// of its moves chose among at most 9, 4 bits.
			more := m
			more.Moves = append(append(slices.Clone(m.Moves), make([]byte, 4*g.MaxPlies()*len(played)/8)...), 1)
			if err := store.MatchGames(g, more, func([]int, bool, game.Result) error { return nil }); err == nil {
				t.Errorf("%s, %d plies: a number too large read without an error", g.Name(), plies)
			}
			other := m
			other.Wins++
			if err := store.MatchGames(g, other, func([]int, bool, game.Result) error { return nil }); err == nil {
				t.Errorf("%s, %d plies: another record read without an error", g.Name(), plies)
			}
			stop := errors.New("stop")
			if err := store.MatchGames(g, m, func([]int, bool, game.Result) error { return stop }); !errors.Is(err, stop) {
				t.Errorf("%s, %d plies: the callback's error: %v", g.Name(), plies, err)
			}
		}
	}
}
