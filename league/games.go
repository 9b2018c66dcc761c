package league

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/store"
)

// StoredGame is one game of a stored match, replayed: its players (X
// first), the squares in order (the opening included), the number of
// opening plies, how it ended, and the round that played it. (pgn.Game
// is the same game as a PGN file writes it.)
type StoredGame struct {
	X, O         int64
	XName, OName string
	Moves        []int
	Opening      int
	Result       game.Result
	Round        int64
	Date         time.Time // when its round was committed; zero where the league did not record it (schema 1)
	// Extra: one of the extra games of a network against the ladder,
	// played after Round for its ladder rating (not in the league's fit).
	Extra bool
}

// ErrNotReproduced is the error of a stored match that, replayed, gave
// another record than the one stored. Its games cannot be told, since
// the league stores seeds and records rather than games.
var ErrNotReproduced = errors.New("the stored result cannot be reproduced by this ttt")

// Games replays the games of the matches f chooses, match by match in the
// order that store.DB.Matches gives them (by the newer agent, then the
// older: the order the league played them), and hands each game
// to each. The league stores one record per match with the seed of its
// random games, not the games themselves (see migrations/0001_init.sql):
// greedy agents are deterministic and the random player is seeded per
// game, so a replay gives the games exactly as they were played. Games
// checks that: when a match replays to another record than the stored
// one, it returns ErrNotReproduced before handing on any game of that
// match. The matches against the ladder (the MCTS players and the
// solver, whose searches would take seconds to play again) keep their
// moves since schema 9, and are read rather than replayed. With
// f.Ladder, the games against the built-in players alone, and then the
// extra matches that make a network's ladder rating
// (store.DB.LadderMatches), which the league's fit does not count: the
// games of the ladder ratings. It stops at the first error from each, or
// when ctx is done.
//
// It streams: memory stays bounded however many games a night made, one
// match's games at a time (at most 144) and caches of move tables and
// names of bounded size.
func Games(ctx context.Context, db *store.DB, f store.MatchFilter, each func(StoredGame) error) error {
	cons, mt, err := replayer(ctx, db)
	if err != nil {
		return err
	}
	names, _ := lru.New[int64, string](contestantCache) // the size is positive
	name := func(id int64) (string, error) {
		if n, ok := names.Get(id); ok {
			return n, nil
		}
		var a store.AgentName
		err := db.View(ctx, func(v *store.View) (err error) {
			a, err = v.Name(strconv.FormatInt(id, 10))
			return err
		})
		if err != nil {
			return "", err
		}
		names.Add(id, a.Name)
		return a.Name, nil
	}

	// The date of a round, read once for its matches, which come in a
	// row: a league plays a round's matches together.
	var dated int64
	var date time.Time
	var games []StoredGame // one match's, reused
	f.Moves = true
	extra := false // the matches read are the extra ones against the ladder
	match := func(m store.Match) error {
		if m.Round != dated {
			rounds, err := db.Rounds(ctx, m.Round, m.Round)
			if err != nil {
				return err
			}
			dated, date = m.Round, time.Time{}
			if len(rounds) == 1 {
				date = rounds[0].Finished
			}
		}
		nameA, err := name(m.A)
		if err != nil {
			return err
		}
		nameB, err := name(m.B)
		if err != nil {
			return err
		}
		if m.Plies < 0 || m.Plies > MaxOpening {
			return fmt.Errorf("round %d: match %s v %s: %d opening plies, this ttt knows 0..%d",
				m.Round, nameA, nameB, m.Plies, MaxOpening)
		}
		games = games[:0]
		add := func(moves []int, aIsX bool, r game.Result) {
			g := StoredGame{X: m.A, O: m.B, XName: nameA, OName: nameB, Moves: moves, Opening: m.Plies, Result: r, Round: m.Round, Date: date, Extra: extra}
			if !aIsX {
				g.X, g.O, g.XName, g.OName = m.B, m.A, nameB, nameA
			}
			games = append(games, g)
		}
		if m.Moves != nil { // a match against the ladder, which kept its moves
			err := store.MatchGames(mt.game, m, func(moves []int, aIsX bool, r game.Result) error {
				add(moves, aIsX, r)
				return nil
			})
			if err != nil {
				return fmt.Errorf("round %d: match %s v %s: %w: %w", m.Round, nameA, nameB, err, store.ErrCorrupt)
			}
		} else {
			players, err := cons.get(ctx, []int64{m.A, m.B})
			if err != nil {
				return fmt.Errorf("round %d: %w", m.Round, err)
			}
			sides := mt.play(ctx, players[m.A], players[m.B], m.Plies, m.Seed, add)
			if err := ctx.Err(); err != nil {
				return err // cut short: neither the games nor a mismatch
			}
			if rec := sides[game.X].Plus(sides[game.O]); rec != m.Record {
				return fmt.Errorf("round %d: match %s v %s replays as %v, stored as %v: %w",
					m.Round, nameA, nameB, rec, m.Record, ErrNotReproduced)
			}
		}
		for _, g := range games {
			if err := each(g); err != nil {
				return err
			}
		}
		return nil
	}
	if err := db.Matches(ctx, f, match); err != nil || !f.Ladder {
		return err
	}
	extra = true
	return db.LadderMatches(ctx, f, match)
}

// Replay replays every sample-th stored match (the first, then every
// sample-th after it, in the order Games takes them), and hands each that
// does not give its stored record to found; it returns how many it
// replayed. A match replays to its record unless the database was
// changed under ttt, or this ttt plays differently from the one that
// stored it.
func Replay(ctx context.Context, db *store.DB, sample int, found func(string)) (replayed int, err error) {
	cons, mt, err := replayer(ctx, db)
	if err != nil {
		return 0, err
	}
	n := 0
	err = db.Matches(ctx, store.MatchFilter{}, func(m store.Match) error {
		if n++; (n-1)%max(sample, 1) != 0 {
			return nil
		}
		players, err := cons.get(ctx, []int64{m.A, m.B})
		if err != nil && !store.Damaged(err) {
			return err // the disk's fault, or a stop: nothing to say of the match
		}
		if err != nil {
			found(fmt.Sprintf("round %d, match %d v %d: %v", m.Round, m.A, m.B, err))
			return nil
		}
		replayed++
		if m.Plies < 0 || m.Plies > MaxOpening {
			found(fmt.Sprintf("round %d, match %d v %d: %d opening plies, this ttt knows 0..%d", m.Round, m.A, m.B, m.Plies, MaxOpening))
			return nil
		}
		sides := mt.play(ctx, players[m.A], players[m.B], m.Plies, m.Seed, nil)
		if err := ctx.Err(); err != nil {
			return err
		}
		if rec := sides[game.X].Plus(sides[game.O]); rec != m.Record {
			found(fmt.Sprintf("round %d, match %d v %d: replays as %v, stored as %v", m.Round, m.A, m.B, rec, m.Record))
		}
		return nil
	})
	return replayed, err
}

// replayer returns what replaying db's matches needs: its agents as
// evaluation plays them, and its game's openings.
func replayer(ctx context.Context, db *store.DB) (*contestants, *match, error) {
	kit, err := agents.KitOf(db.Game().Name())
	if err != nil {
		return nil, nil, err
	}
	cons, err := newContestants(ctx, db, kit)
	if err != nil {
		return nil, nil, err
	}
	return cons, newMatch(kit.Game), nil
}
