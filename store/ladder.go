package store

import (
	"errors"
	"fmt"
	"slices"

	"ttt/agents/game"
)

// AppendGame appends a game's moves, the opening's included, to a match's
// stored games (Match.Moves): a byte of their number, then a byte a move.
// A match appends its games in the order it plays them: for each opening,
// the game where A moves first, then the one where B does.
func AppendGame(games []byte, moves []int) []byte {
	games = append(games, byte(len(moves)))
	for _, m := range moves {
		games = append(games, byte(m))
	}
	return games
}

// MatchGames hands each of m's stored games (m.Moves) to each, with its
// moves, whether A played X, and how it ended, once it has found them to
// be m's games: two for each opening of m.Plies moves of g, every move
// legal, each game ending at its last move, and A's record m's.
func MatchGames(g game.Game, m Match, each func(moves []int, aIsX bool, r game.Result) error) error {
	openings := game.Openings(g, m.Plies)
	type played struct {
		moves []int
		r     game.Result
	}
	var games []played
	var rec game.Record
	for rest := m.Moves; len(rest) > 0; {
		n := int(rest[0])
		if len(rest) < 1+n {
			return errors.New("its stored games end within a game")
		}
		i := len(games)
		if i >= 2*len(openings) {
			return fmt.Errorf("more stored games than the %d of its openings", 2*len(openings))
		}
		moves := make([]int, n)
		for k, b := range rest[1 : 1+n] {
			moves[k] = int(b)
		}
		rest = rest[1+n:]
		if len(moves) < m.Plies || !slices.Equal(moves[:m.Plies], openings[i/2]) {
			return fmt.Errorf("stored game %d does not start with its opening", i+1)
		}
		p, err := game.Replay(g, moves)
		if err != nil {
			return fmt.Errorf("stored game %d: %w", i+1, err)
		}
		r := g.Result(p)
		if r == game.Ongoing {
			return fmt.Errorf("stored game %d ends before the game does", i+1)
		}
		aIsX := i%2 == 0
		side := game.X
		if !aIsX {
			side = game.O
		}
		rec.Add(r, side)
		games = append(games, played{moves, r})
	}
	if len(games) != 2*len(openings) {
		return fmt.Errorf("%d stored games where its openings make %d", len(games), 2*len(openings))
	}
	if rec != m.Record {
		return fmt.Errorf("its stored games make the record %v, stored as %v", rec, m.Record)
	}
	for i, pg := range games {
		if err := each(pg.moves, i%2 == 0, pg.r); err != nil {
			return err
		}
	}
	return nil
}
