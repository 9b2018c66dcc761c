package elo_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"ttt/league/elo"
)

// perfectID is the id of the perfect player in the league-shaped tests:
// the hub that every agent plays, at the top of the strengths.
const perfectID = 1

// simLeague grows a league of the shape ttt's takes at scale: agent 2, 3,
// ... join one per round, each playing a pool of about 32 opponents (the
// anchor, perfect, its parent, the top 4, the 10 nearest, and the agents
// 2, 4, 8, ... rounds older) 144 games a pair, with results drawn from
// hidden strengths that rise quickly, then level off near perfect's.
type simLeague struct {
	rng      *rand.Rand
	strength []float64 // by id

	// How the league ranks agents to choose the top 4 and the nearest
	// 10: the tests use the ratings; benchmarks use an index of the
	// hidden strengths (byStrength), much faster at 100,000 agents.
	top     func() []int64
	nearest func(elo float64, n int) []int64
	place   func(first []elo.Pair, id int64) float64
}

// newSimLeague returns a league of the anchor and perfect, not yet played.
func newSimLeague(seed uint64) *simLeague {
	return &simLeague{rng: rand.New(rand.NewPCG(seed, 77)), strength: []float64{0, 1000}}
}

// first returns the pair of perfect and the anchor, round 0's.
func (s *simLeague) first() elo.Pair { return s.play(perfectID, anchor) }

// play returns a record of a against b. Strong agents draw more, as in
// tic-tac-toe.
func (s *simLeague) play(a, b int64) elo.Pair {
	draw := 0.3 + 0.6*min(1, max(0, min(s.strength[a], s.strength[b]))/900)
	return simulate(s.rng, a, b, s.strength[a], s.strength[b], 144, draw)
}

// next adds the next agent and returns its pairs: first the three that
// place it, then the rest of its pool.
func (s *simLeague) next() []elo.Pair {
	id := int64(len(s.strength))
	s.strength = append(s.strength, 900*(1-math.Exp(-float64(id)/150))+30*s.rng.NormFloat64())
	pairs := []elo.Pair{s.play(id, anchor), s.play(id, perfectID)}
	if id > 2 {
		pairs = append(pairs, s.play(id, id-1))
	}
	pool := s.top()
	if id > 2 {
		pool = append(pool, s.nearest(s.place(pairs, id), 10)...)
	}
	for age := int64(2); id-age >= 2; age *= 2 {
		pool = append(pool, id-age)
	}
	slices.Sort(pool)
	for _, b := range slices.Compact(pool) {
		if b != anchor && b != perfectID && b != id-1 {
			pairs = append(pairs, s.play(id, b))
		}
	}
	return pairs
}

// rankByRatings makes the league rank agents by their ratings in r, as
// the real league does, by sorting them all: fine for a few thousand.
func (s *simLeague) rankByRatings(r *elo.Ratings) {
	type rated struct {
		id  int64
		elo float64
	}
	all := func() []rated {
		var out []rated
		for id := int64(2); id < int64(len(s.strength))-1; id++ {
			rt, _ := r.Rating(id)
			out = append(out, rated{id, rt.Elo})
		}
		return out
	}
	pick := func(rs []rated, n int, key func(rated) float64) []int64 {
		slices.SortFunc(rs, func(a, b rated) int { return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a.id, b.id)) })
		var ids []int64
		for _, x := range rs[:min(n, len(rs))] {
			ids = append(ids, x.id)
		}
		return ids
	}
	s.top = func() []int64 { return pick(all(), 4, func(x rated) float64 { return -x.elo }) }
	s.nearest = func(e float64, n int) []int64 {
		return pick(all(), n, func(x rated) float64 { return math.Abs(x.elo - e) })
	}
	s.place = func(first []elo.Pair, id int64) float64 {
		e, err := r.Estimate(first, id)
		if err != nil {
			panic(err)
		}
		return e
	}
}
