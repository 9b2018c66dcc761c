package league

import (
	"context"
	"errors"
	"fmt"

	"ttt/store"
)

// StoredGame is one game of a stored match, replayed: the game, the names
// of its players, the round that played it, and where its match stands
// in the replay.
type StoredGame struct {
	Game
	XName, OName string
	Round        int64
	Match        int // the match's place in the replay, from 1
	Matches      int // the matches to replay
}

// ErrNotReproduced: a stored match, replayed, gave another record than
// the one stored. Its games cannot be told, since the league stores
// seeds and records rather than games.
var ErrNotReproduced = errors.New("the stored result cannot be reproduced by this ttt")

// Games replays every game of the league in db, match by match in the
// order they were played (by round, then by agents), and hands each game
// to each. The league stores one record per match with the seed of its
// random games, not the games themselves (see migrations/0001_init.sql):
// greedy agents are deterministic and the random player is seeded per
// game, so a replay gives the games exactly as they were played. Games
// checks that: when a match replays to another record than the stored
// one, it returns ErrNotReproduced before handing on any game of that
// match. It stops at the first error from each, or when ctx is done.
//
// Memory stays bounded: one match's games at a time (at most 144), and
// one move table per agent.
func Games(ctx context.Context, db *store.DB, each func(StoredGame) error) error {
	// The matches first, then the agents and their nets: a league running
	// meanwhile only adds to them, so every agent a match names is there.
	matches, err := db.Matches(ctx)
	if err != nil {
		return err
	}
	list, err := db.Agents(ctx)
	if err != nil {
		return err
	}
	nets, err := db.Nets(ctx)
	if err != nil {
		return err
	}
	members := make(map[int64]Member, len(list))
	names := make(map[int64]string, len(list))
	for _, a := range list {
		members[a.ID], names[a.ID] = member(a, nets), a.Name
	}

	var games []Game // one match's, reused
	for i, m := range matches {
		if err := ctx.Err(); err != nil {
			return err
		}
		a, okA := members[m.A]
		b, okB := members[m.B]
		switch {
		case !okA || !okB:
			return fmt.Errorf("round %d: a match between agents %d and %d, one of which is not stored", m.Round, m.A, m.B)
		case m.Plies < 0 || m.Plies > MaxPlies:
			return fmt.Errorf("round %d: match %s v %s: %d opening plies, this ttt knows 0..%d",
				m.Round, names[m.A], names[m.B], m.Plies, MaxPlies)
		}
		games = games[:0]
		w, d, l := playMatch(a, b, m.Plies, m.Seed, func(g Game) { games = append(games, g) })
		if w != m.Wins || d != m.Draws || l != m.Losses {
			return fmt.Errorf("round %d: match %s v %s replays as %d/%d/%d, stored as %d/%d/%d: %w",
				m.Round, names[m.A], names[m.B], w, d, l, m.Wins, m.Draws, m.Losses, ErrNotReproduced)
		}
		for _, g := range games {
			err := each(StoredGame{Game: g, XName: names[g.X], OName: names[g.O], Round: m.Round, Match: i + 1, Matches: len(matches)})
			if err != nil {
				return err
			}
		}
	}
	return nil
}
