package elo_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"ttt/league/elo"
)

// linesLeague grows a league of the shape a Connect Four league of
// several learners takes: the built-in players at fixed hidden
// strengths (random, the tactician, an MCTS ladder, the solver), and
// learners' lines that take turns, a round each, every line's snapshots
// following a learning curve of their own. Lines far apart in strength
// make clusters of ratings joined by few informative games, as tdlambda's
// and policy's are, 500 Elo apart.
//
// A snapshot plays the league's pool, 98 games a pair (Connect Four's two
// plies of openings in both colours): random and the tactician; its
// parent; the ladder's rungs around its parent's rating; the four
// best-rated snapshots; those of 2^k rounds before; and the nearest in
// rating to what its first games say, to 32 opponents.
type linesLeague struct {
	rng      *rand.Rand
	r        *elo.Ratings
	builtins []float64           // hidden strengths, by id - 1: random first, the ladder from id 3
	curves   []func(int) float64 // each line's strength after its n-th snapshot
	strength map[int64]float64
	latest   []int64 // each line's last snapshot, or 0
	made     []int   // each line's snapshots so far
	byRound  []int64
	next     int64 // the next snapshot's id
}

// cFourBuiltins are hidden strengths near those a Connect Four league
// measures: random, the tactician, MCTS with 100, 1,000 and 10,000
// playouts, and the solver.
var cFourBuiltins = []float64{0, 440, 600, 850, 990, 1070}

// newLinesLeague returns a league of the built-ins and lines with the
// given learning curves, rated by r (whose anchors are among the
// built-ins' ids, 1 to len(builtins)).
func newLinesLeague(seed uint64, r *elo.Ratings, curves ...func(int) float64) *linesLeague {
	lg := &linesLeague{rng: rand.New(rand.NewPCG(seed, 5)), r: r, builtins: cFourBuiltins, curves: curves,
		strength: map[int64]float64{}, latest: make([]int64, len(curves)), made: make([]int, len(curves))}
	for i, s := range lg.builtins {
		lg.strength[int64(i+1)] = s
	}
	lg.next = int64(len(lg.builtins) + 1)
	return lg
}

// play returns a record of a against b, 98 games, a few drawn.
func (lg *linesLeague) play(a, b int64) elo.Pair {
	return simulate(lg.rng, a, b, lg.strength[a], lg.strength[b], 98, 0.05)
}

// rated returns agent id's rating, or +Inf while it has none.
func (lg *linesLeague) rated(id int64) float64 {
	if rt, ok := lg.r.Rating(id); ok {
		return rt.Elo
	}
	return math.Inf(1)
}

// round makes the next line's snapshot and returns its pairs, the fixed
// part of its pool first.
func (lg *linesLeague) round() []elo.Pair {
	line := len(lg.byRound) % len(lg.curves)
	id := lg.next
	lg.next++
	lg.strength[id] = lg.curves[line](lg.made[line]) + 25*lg.rng.NormFloat64()
	lg.made[line]++
	parent := lg.latest[line]
	pool := []int64{1, 2}
	if parent != 0 {
		pool = append(pool, parent)
		elo := lg.rated(parent)
		for i := 3; i <= len(lg.builtins); i++ {
			if lg.rated(int64(i)) > elo {
				pool = append(pool, int64(max(i-1, 3)), int64(i))
				break
			}
			if i == len(lg.builtins) {
				pool = append(pool, int64(i))
			}
		}
	}
	nets := lg.byRating()
	pool = append(pool, nets[:min(4, len(nets))]...)
	round := int64(len(lg.byRound) + 1)
	for k := 1; round-1<<k >= 1; k++ {
		pool = append(pool, lg.byRound[round-1<<k-1])
	}
	slices.Sort(pool)
	pool = slices.Compact(pool)
	var pairs []elo.Pair
	for _, b := range pool {
		pairs = append(pairs, lg.play(id, b))
	}
	est, err := lg.r.Estimate(pairs, id)
	if err != nil {
		panic(err)
	}
	slices.SortFunc(nets, func(a, b int64) int {
		return cmp.Or(cmp.Compare(math.Abs(lg.rated(a)-est), math.Abs(lg.rated(b)-est)), cmp.Compare(a, b))
	})
	for _, b := range nets {
		if len(pairs) >= 32 {
			break
		}
		if _, chosen := slices.BinarySearch(pool, b); !chosen {
			pairs = append(pairs, lg.play(id, b))
		}
	}
	lg.latest[line] = id
	lg.byRound = append(lg.byRound, id)
	return pairs
}

// byRating returns the rated snapshots, best-rated first.
func (lg *linesLeague) byRating() []int64 {
	var nets []int64
	for _, id := range lg.byRound {
		if _, ok := lg.r.Rating(id); ok {
			nets = append(nets, id)
		}
	}
	slices.SortFunc(nets, func(a, b int64) int { return cmp.Or(cmp.Compare(lg.rated(b), lg.rated(a)), cmp.Compare(a, b)) })
	return nets
}

// rising is a learning curve from start to start+gain over about scale
// snapshots.
func rising(start, gain, scale float64) func(int) float64 {
	return func(n int) float64 { return start + gain*(1-math.Exp(-float64(n)/scale)) }
}
