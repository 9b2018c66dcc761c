package league

import (
	"math"
	"math/bits"
)

// The pool of a member that joins the league (a snapshot, or a network
// added by ttt import or ttt train --db) is who it plays, once each,
// before it is rated. It holds at most Config.Opponents agents, chosen in
// this order (docs/league.md, "How a league stays fast all night", says
// where each rule comes from):
//
//  1. the game's fixed built-in players: random, the scale's 0, and
//     perfect, the ceiling, in tic-tac-toe; random and the tactician in
//     Connect Four.
//  2. its parent, the snapshot it was trained on from: the step it made;
//     and the rungs of the game's ladder around its parent's rating
//     (rungs): the MCTS players, and in Connect Four the solver. A
//     member without a parent (the first snapshot of a line, a network
//     of ttt import or ttt train --db) plays the rungs around the rating
//     its first games suggest, before the nearest members.
//  3. the topOpponents best-rated networks: whether it has caught up with
//     the league's best, and the games that decide who is best.
//  4. a spread over the whole history: the snapshots made 2^k rounds
//     before it, for exponents k spread evenly between 1 and the age of
//     the league, (Opponents-7)/2 of them. Old checkpoints keep being
//     measured (each meets the snapshots made 2, 4, 8, ... rounds after
//     it), and long links tie the late league to the early one, so that
//     the graph of results stays one piece.
//  5. the rest: the networks nearest to it in rating, given the rating
//     its games so far suggest. An even match tells the most about a
//     rating (its outcome is least predictable), and these are the
//     members a learner's next snapshot is likeliest to be mixed up with.
//
// A league younger than its pools plays every network, and of the ladder
// the rungs around it (see rungs); a round's matches stay bounded however
// large the league grows. Pools depend only on the ratings, the round and
// the seed, never on timing or workers. A pair never plays twice: every
// pairing has a member that has not played before.
const (
	minOpponents = 4 // random, perfect (or the tactician), the parent and one more
	maxOpponents = 1024
	topOpponents = 4
)

// entrant is an agent that plays its pool this round: the snapshot (id 0
// until the commit gives it one) or a newcomer.
type entrant struct {
	id int64
	contestant
	parent int64 // 0 for none
}

// fixedPool returns the first part of e's pool in round, items 1 to 4.
func (lg *league) fixedPool(e entrant, round int64) []int64 {
	var pool []int64
	chosen := map[int64]bool{}
	add := func(id int64) bool {
		if id == 0 || chosen[id] || len(pool) == lg.cfg.Opponents {
			return false
		}
		chosen[id] = true
		pool = append(pool, id)
		return true
	}
	for _, id := range lg.fixed {
		add(id)
	}
	if add(e.parent) {
		lg.rungs(lg.member(e.parent).shown.Elo, add)
	}
	top := 0
	lg.ranking.Descend(func(r ranked) bool {
		if add(r.id) {
			top++
		}
		return top < topOpponents
	})
	// The oldest age is round-1 (round 1's snapshot); exponents k_j =
	// ceil(j*L/S) for j = 1..S spread S ages over 2^1..2^L.
	if spread, oldest := (lg.cfg.Opponents-7)/2, bits.Len64(uint64(round-1))-1; spread > 0 && oldest > 0 {
		for j := 1; j <= spread; j++ {
			k := (j*oldest + spread - 1) / spread
			if target := round - 1<<k; target >= 1 && int(target) <= len(lg.byRound) {
				add(lg.byRound[target-1])
			}
		}
	}
	return pool
}

// nearest returns up to n rated networks not in chosen, the nearest to
// rating elo first; of two as near, the one below.
func (lg *league) nearest(elo float64, chosen map[int64]bool, n int) []int64 {
	var above, below []ranked
	collect := func(list *[]ranked) func(ranked) bool {
		return func(r ranked) bool {
			if !chosen[r.id] {
				*list = append(*list, r)
			}
			return len(*list) < n
		}
	}
	pivot := ranked{elo: elo, id: math.MinInt64}
	lg.ranking.AscendGreaterOrEqual(pivot, collect(&above))
	lg.ranking.DescendLessOrEqual(pivot, collect(&below))
	var out []int64
	for len(out) < n && (len(above) > 0 || len(below) > 0) {
		if len(above) == 0 || (len(below) > 0 && elo-below[0].elo <= above[0].elo-elo) {
			out, below = append(out, below[0].id), below[1:]
		} else {
			out, above = append(out, above[0].id), above[1:]
		}
	}
	return out
}

// rungs adds the ladder's rungs around rating elo with add: the weakest
// rung rated above it, and the strongest rung below that one; the
// strongest rung when none is above. A rung of the ladder (the MCTS
// players, and Connect Four's solver) is a fixed point of the game's
// scale, anchored at its value (agents.Builtin.Elo), but the strong ones
// think for milliseconds a move: each newcomer plays the two that bracket
// it, where its result says the most, and ties its rating to the scale
// there.
func (lg *league) rungs(elo float64, add func(int64) bool) {
	for i, id := range lg.ladder {
		if lg.contestants.builtins[id].Elo > elo {
			if i > 0 {
				add(lg.ladder[i-1])
			}
			add(id)
			return
		}
	}
	if n := len(lg.ladder); n > 0 {
		add(lg.ladder[n-1])
	}
}
