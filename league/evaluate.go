package league

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"ttt/agents/game"
	"ttt/league/elo"
	"ttt/store"
)

// pairing is a match to play: A against B, A the newer agent (the larger
// id, or 0: the snapshot), as the database keeps a pair.
type pairing struct {
	a, b   int64
	ca, cb contestant
}

// evaluate plays each entrant's pool in round: the fixed part for every
// entrant, then the members nearest to each entrant's rating as those
// first games suggest it. It returns the matches as the database keeps
// them. tell, if not nil, hears after each match how many are played,
// and of how many: until the second part is dealt, the most it can be.
func (lg *league) evaluate(ctx context.Context, round int64, entrants []entrant, tell func(round int64, done, total int)) ([]store.Match, error) {
	// STEP 1: the fixed part of every pool.
	pools := make([][]int64, len(entrants))
	var first []pairing
	most := 0 // the matches of both parts, at most
	for i, e := range entrants {
		pools[i] = lg.fixedPool(e, round)
		ps, err := lg.pairings(ctx, e, pools[i])
		if err != nil {
			return nil, err
		}
		first = append(first, ps...)
		// The second part: two rungs for an entrant without a parent,
		// then rated networks, up to the pool's size.
		rest := lg.ranking.Len()
		if e.parent == 0 {
			rest += 2
		}
		most += len(ps) + max(0, min(lg.cfg.Opponents-len(pools[i]), rest))
	}
	var mu sync.Mutex // keeps done, and the order of what tell hears
	done := 0
	played := func(total int) func() {
		if tell == nil {
			return nil
		}
		return func() {
			mu.Lock()
			defer mu.Unlock()
			done++
			tell(round, done, total)
		}
	}
	matches, err := lg.play(ctx, round, first, 0, played(most))
	if err != nil {
		return nil, err
	}

	// STEP 2: the rungs around an entrant without a parent, then the
	// nearest members, fill each pool up.
	var second []pairing
	for i, e := range entrants {
		n := lg.cfg.Opponents - len(pools[i])
		if n <= 0 {
			continue
		}
		var results []elo.Pair
		chosen := map[int64]bool{}
		for _, m := range matches {
			if m.A == e.id || m.B == e.id {
				results = append(results, elo.Pair{A: m.A, B: m.B, Record: m.Record})
				chosen[m.A], chosen[m.B] = true, true
			}
		}
		estimate, err := lg.ratings.Estimate(results, e.id)
		if err != nil {
			return nil, err
		}
		var rest []int64
		if e.parent == 0 {
			lg.rungs(estimate, func(id int64) bool {
				if chosen[id] || len(rest) == n {
					return false
				}
				chosen[id] = true
				rest = append(rest, id)
				return true
			})
		}
		ps, err := lg.pairings(ctx, e, append(rest, lg.nearest(estimate, chosen, n-len(rest))...))
		if err != nil {
			return nil, err
		}
		second = append(second, ps...)
	}
	more, err := lg.play(ctx, round, second, len(first), played(len(first)+len(second)))
	if err != nil {
		return nil, err
	}
	return append(matches, more...), nil
}

// pairings pairs entrant e with each opponent in pool, the newer of the
// two first.
func (lg *league) pairings(ctx context.Context, e entrant, pool []int64) ([]pairing, error) {
	cons, err := lg.contestants.get(ctx, pool)
	if err != nil {
		return nil, err
	}
	list := make([]pairing, 0, len(pool))
	for _, id := range pool {
		if e.id == 0 || e.id > id {
			list = append(list, pairing{a: e.id, b: id, ca: e.contestant, cb: cons[id]})
		} else {
			list = append(list, pairing{a: id, b: e.id, ca: cons[id], cb: e.contestant})
		}
	}
	return list, nil
}

// play plays the pairings on cfg.Workers goroutines, each of which takes
// the next pairing as soon as it is done with one, so that all stay busy
// to the end. Each match's random games are seeded from the league seed,
// the round and the match's place among the round's matches (offset is
// the place of the first), so results do not depend on the number of
// workers or on scheduling. played, if not nil, is called after each
// match.
func (lg *league) play(ctx context.Context, round int64, list []pairing, offset int, played func()) ([]store.Match, error) {
	results := make([]store.Match, len(list))
	var next atomic.Int64 // the next pairing to take
	g, ctx := errgroup.WithContext(ctx)
	for range min(lg.cfg.Workers, len(list)) {
		g.Go(func() error {
			for i := int(next.Add(1) - 1); i < len(list); i = int(next.Add(1) - 1) {
				if err := ctx.Err(); err != nil {
					return err
				}
				p := list[i]
				seed := mix(lg.cfg.Seed, uint64(round), uint64(offset+i))
				plies := lg.openings(p)
				// The games against a rung of the ladder keep their moves:
				// playing them again for games export would take seconds.
				var games [][]int
				var record func([]int, bool, game.Result)
				if lg.onLadder(p) {
					record = func(m []int, _ bool, _ game.Result) { games = append(games, m) }
				}
				sides := lg.match.play(ctx, p.ca, p.cb, plies, seed, record)
				if err := ctx.Err(); err != nil {
					return err // the match was cut short: not a result
				}
				if !p.ca.random && !p.cb.random {
					seed = 0 // no random games to replay; SQLite stores a 0 in no bytes
				}
				m := store.Match{A: p.a, B: p.b, Plies: plies, Seed: seed, Record: sides[game.X].Plus(sides[game.O])}
				if record != nil {
					m.Moves = store.EncodeGames(lg.match.game, plies, games)
				}
				if _, builtin := lg.contestants.builtins[p.b]; builtin {
					m.First = &sides[game.X] // a result against a fixed player, by side
				}
				results[i] = m
				if played != nil {
					played()
				}
			}
			return nil
		})
	}
	return results, g.Wait()
}

// openings is the length of the openings pairing p plays: the league's,
// but at most the game's LadderOpenings against a rung of the ladder
// (the MCTS players and the solver), which think for milliseconds a
// move where a model answers in microseconds: in Connect Four a match of
// every two-move opening against MCTS with 10,000 playouts took longer
// than the round's training.
func (lg *league) openings(p pairing) int {
	if lg.onLadder(p) {
		return min(lg.cfg.Openings, lg.kit.League.LadderOpenings)
	}
	return lg.cfg.Openings
}

// onLadder reports whether p plays a rung of the ladder.
func (lg *league) onLadder(p pairing) bool {
	return slices.Contains(lg.ladder, p.a) || slices.Contains(lg.ladder, p.b)
}

// mix hashes its inputs into a seed (SplitMix64's finaliser over each).
func mix(xs ...uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range xs {
		h ^= x
		h += 0x9e3779b97f4a7c15
		h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
		h = (h ^ h>>27) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}
