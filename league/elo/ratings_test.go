package elo_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"ttt/agents/game"
	"ttt/league/elo"
)

// rater is Ratings as a test drives it: each call fails the test on an
// error, and the pairs added are kept for a refit.
type rater struct {
	t     testing.TB
	r     *elo.Ratings
	pairs []elo.Pair
}

func newRater(t testing.TB) *rater { return &rater{t: t, r: newRatings(t, scale)} }

func (rt *rater) add(ps ...elo.Pair) {
	rt.t.Helper()
	for _, p := range ps {
		if err := rt.r.Add(p); err != nil {
			rt.t.Fatal(err)
		}
		rt.pairs = append(rt.pairs, p)
	}
}

// settle settles to convergence, failing the test if it does not.
func (rt *rater) settle() elo.Settled {
	rt.t.Helper()
	s := rt.r.Settle(math.MaxInt)
	if s.Pending != 0 {
		rt.t.Fatalf("no convergence: %+v", s)
	}
	return s
}

// versusFit compares every rating with a cold Fit of the same pairs and
// returns the largest differences in Elo and in the interval's ends.
func (rt *rater) versusFit() (dElo, dEnds float64) {
	rt.t.Helper()
	want, err := elo.Fit(rt.pairs, scale)
	if err != nil {
		rt.t.Fatal(err)
	}
	for _, w := range want {
		got, ok := rt.r.Rating(w.Agent)
		if !ok || got.Games != w.Games {
			rt.t.Fatalf("agent %d: %+v, %v; Fit %+v", w.Agent, got, ok, w)
		}
		dElo = max(dElo, math.Abs(got.Elo-w.Elo))
		dEnds = max(dEnds, math.Abs(got.Lo-w.Lo), math.Abs(got.Hi-w.Hi))
	}
	return dElo, dEnds
}

// TestRatingsLeague grows a league of 2,000 agents one per round, the
// pools chosen by the ratings as the league does, settles after every
// round and compares with a cold Fit now and then. The error has two
// parts: the bands' common lags, each at most shiftTol (0.04 Elo), and
// what the single moves leave, a few settleTol (see Ratings). It must
// stay within 0.05 Elo, so that with the standings' own step (0.05) the
// leaderboard is within the README's tenth of an Elo of a full fit; with
// the whole league's shift alone it reached 0.085.
func TestRatingsLeague(t *testing.T) {
	t.Parallel()
	rt := newRater(t)
	s := newSimLeague(1)
	s.rankByRatings(rt.r)
	rt.add(s.first())
	rt.settle()
	worst := 0.0
	var total elo.Settled
	for round := 1; round <= 2000; round++ {
		rt.add(s.next()...)
		st := rt.settle()
		total.Steps += st.Steps
		total.Visits += st.Visits
		total.Shifts += st.Shifts
		rt.r.Moved()
		if round%250 != 0 && round != 100 {
			continue
		}
		dElo, dEnds := rt.versusFit()
		t.Logf("round %4d: |Elo-Fit| ≤ %.3f, |Lo,Hi-Fit| ≤ %.3f; a round took %.0f steps, %.0f edge visits, %d shifts in all",
			round, dElo, dEnds, float64(total.Steps)/float64(round), float64(total.Visits)/float64(round), total.Shifts)
		if dElo > 0.05 || dEnds > 0.05 {
			t.Errorf("round %d: Elo off by %.3f, intervals by %.3f, want ≤ 0.05", round, dElo, dEnds)
		}
		worst = max(worst, dElo)
	}
	if err := rt.r.FromScratch(); err != nil {
		t.Error(err)
	}
	t.Logf("largest |Elo-Fit| %.3f", worst)
}

// TestRatingsLines grows leagues of the shape of a Connect Four league of
// several learners (linesLeague): lines 500 Elo apart make clusters that
// few informative games join, whose common lag the whole league's shift
// alone left at 0.11 Elo. Settled after every round, every rating must
// stay within 0.05 Elo of a cold Fit, with one anchor (random, as the
// first leagues had) or six (the built-in players, as a game's scale
// has them), and the sums kept by the moves must be the sums from
// scratch.
func TestRatingsLines(t *testing.T) {
	t.Parallel()
	random := []elo.Anchor{{ID: 1}}
	builtins := make([]elo.Anchor, len(cFourBuiltins))
	for i, s := range cFourBuiltins {
		builtins[i] = elo.Anchor{ID: int64(i + 1), Elo: s}
	}
	tdlambda, policy, third := rising(250, 700, 80), rising(100, 300, 150), rising(150, 450, 300)
	for _, tc := range []struct {
		name    string
		anchors []elo.Anchor
		lines   []func(int) float64
	}{
		{"two lines, random anchored", random, []func(int) float64{tdlambda, policy}},
		{"two lines, the built-ins anchored", builtins, []func(int) float64{tdlambda, policy}},
		{"three lines, the built-ins anchored", builtins, []func(int) float64{tdlambda, policy, third}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRatings(t, tc.anchors)
			lg := newLinesLeague(5, r, tc.lines...)
			var pairs []elo.Pair
			worst := 0.0
			for round := 1; round <= 500; round++ {
				for _, p := range lg.round() {
					if err := r.Add(p); err != nil {
						t.Fatal(err)
					}
					pairs = append(pairs, p)
				}
				if st := r.Settle(math.MaxInt); st.Pending != 0 {
					t.Fatalf("round %d: no convergence: %+v", round, st)
				}
				r.Moved()
				if round%50 != 0 {
					continue
				}
				fit, err := elo.Fit(pairs, tc.anchors)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range fit {
					got, _ := r.Rating(f.Agent)
					if d := math.Abs(got.Elo - f.Elo); d > worst {
						worst = d
						if d > 0.05 {
							t.Errorf("round %d: agent %d rated %.3f, Fit %.3f", round, f.Agent, got.Elo, f.Elo)
						}
					}
				}
			}
			if err := r.FromScratch(); err != nil {
				t.Error(err)
			}
			t.Logf("largest |Elo-Fit| %.3f", worst)
		})
	}
}

// TestRatingsRandomGraphs feeds random sparse leagues in a random order,
// with Settles on small budgets in between, and wants a cold Fit's
// ratings once settled. Without a hub, what the pending steps leave is
// bounded by settleTol over the share of an agent's curvature that goes
// to the anchor, which every agent here plays.
func TestRatingsRandomGraphs(t *testing.T) {
	t.Parallel()
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 42))
		n := 50 + rng.IntN(250)
		strength := make([]float64, n)
		var pairs []elo.Pair
		for a := 1; a < n; a++ {
			strength[a] = 600 * rng.NormFloat64()
			// Every agent plays the anchor and a few others.
			pairs = append(pairs, simulate(rng, int64(a), anchor, strength[a], 0, 20+rng.IntN(100), 0.3))
			for range rng.IntN(6) {
				b := 1 + rng.IntN(n-1)
				if b != a {
					pairs = append(pairs, simulate(rng, int64(a), int64(b), strength[a], strength[b], 1+rng.IntN(100), 0.5))
				}
			}
		}
		rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
		rt := newRater(t)
		for len(pairs) > 0 {
			k := min(len(pairs), 1+rng.IntN(40))
			rt.add(pairs[:k]...)
			pairs = pairs[k:]
			rt.r.Settle(rng.IntN(2000))
		}
		rt.settle()
		dElo, dEnds := rt.versusFit()
		t.Logf("seed %d, %d agents: |Elo-Fit| ≤ %.4f, |Lo,Hi-Fit| ≤ %.4f", seed, n, dElo, dEnds)
		if dElo > 0.1 || dEnds > 0.1 {
			t.Errorf("seed %d: Elo off by %.4f, intervals by %.4f, want ≤ 0.1", seed, dElo, dEnds)
		}
	}
}

// TestRatingsTiny compares with Fit on two and three agents, where the
// prior decides all-win and all-loss records.
func TestRatingsTiny(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		pairs []elo.Pair
	}{
		{"75%", []elo.Pair{{A: 1, B: anchor, Record: game.Record{Wins: 300, Losses: 100}}}},
		{"all wins", []elo.Pair{{A: 1, B: anchor, Record: game.Record{Wins: 100}}}},
		{"all losses, from the anchor's side", []elo.Pair{{A: anchor, B: 1, Record: game.Record{Wins: 7}}}},
		{"all draws", []elo.Pair{{A: 1, B: anchor, Record: game.Record{Draws: 50}}}},
		{"a chain of all wins", []elo.Pair{{A: 1, B: anchor, Record: game.Record{Wins: 30}}, {A: 2, B: 1, Record: game.Record{Wins: 30}}}},
		{"an all-win agent above a mixed one", []elo.Pair{
			{A: 1, B: anchor, Record: game.Record{Wins: 60, Draws: 20, Losses: 20}}, {A: 2, B: 1, Record: game.Record{Wins: 50}}, {A: 2, B: anchor, Record: game.Record{Wins: 50}},
		}},
		{"all-win twins that draw", []elo.Pair{
			{A: 1, B: anchor, Record: game.Record{Wins: 40}}, {A: 2, B: anchor, Record: game.Record{Wins: 40}}, {A: 1, B: 2, Record: game.Record{Draws: 40}},
		}},
		{"a triangle", []elo.Pair{
			{A: 1, B: anchor, Record: game.Record{Wins: 5, Draws: 3, Losses: 2}}, {A: 2, B: 1, Record: game.Record{Wins: 6, Losses: 4}}, {A: anchor, B: 2, Record: game.Record{Wins: 1, Draws: 1, Losses: 8}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := newRater(t)
			rt.add(tc.pairs...)
			rt.settle()
			dElo, dEnds := rt.versusFit()
			t.Logf("|Elo-Fit| ≤ %.4f, |Lo,Hi-Fit| ≤ %.4f", dElo, dEnds)
			// All-win intervals are wide and move fast with the rating.
			if dElo > 0.01 || dEnds > 0.1 {
				t.Errorf("Elo off by %.4f, intervals by %.4f, want ≤ 0.01 and 0.1", dElo, dEnds)
			}
		})
	}
}

// TestRatingsErrors: bad input is refused and changes nothing.
func TestRatingsErrors(t *testing.T) {
	t.Parallel()
	r := newRatings(t, scale)
	if err := r.Add(elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 20000, Losses: 5}}); err != nil {
		t.Fatal(err)
	}
	r.Settle(math.MaxInt)
	before, _ := r.Rating(1)
	for _, p := range []elo.Pair{
		{A: 1, B: anchor, Record: game.Record{Wins: -1}},
		{A: 2, B: 3, Record: game.Record{Draws: -5}},
		{A: 1, B: anchor, Record: game.Record{Wins: 12000, Draws: 800}}, // 32,805 games in all
		{A: anchor, B: 1, Record: game.Record{Losses: 20000}},
		{A: 4, B: 5, Record: game.Record{Wins: math.MaxInt32 + 1}},
	} {
		if err := r.Add(p); err == nil {
			t.Errorf("Add(%+v): no error", p)
		}
	}
	for _, tc := range []struct {
		id  int64
		elo float64
	}{{1, math.NaN()}, {1, math.Inf(1)}, {1, 1e9}, {anchor, 1}} {
		if err := r.Restore(tc.id, tc.elo); err == nil {
			t.Errorf("Restore(%d, %v): no error", tc.id, tc.elo)
		}
	}
	if err := r.Restore(anchor, 0); err != nil {
		t.Errorf("Restore(anchor, 0): %v", err)
	}
	if _, err := r.Estimate([]elo.Pair{{A: 9, B: anchor, Record: game.Record{Wins: -2}}}, 9); err == nil {
		t.Error("Estimate with a negative count: no error")
	}
	if s := r.Settle(math.MaxInt); s != (elo.Settled{}) {
		t.Errorf("Settle after the errors did %+v, want nothing", s)
	}
	if after, _ := r.Rating(1); after != before {
		t.Errorf("agent 1 went from %+v to %+v", before, after)
	}
	for _, id := range []int64{2, 3, 4, 5} {
		if rt, ok := r.Rating(id); ok {
			t.Errorf("agent %d joined: %+v", id, rt)
		}
	}
	// Up to the limit is fine.
	if err := r.Add(elo.Pair{A: anchor, B: 1, Record: game.Record{Draws: 32767 - 20005}}); err != nil {
		t.Error(err)
	}
}

// TestRatingsNewAgent: a new agent has no rating until Settle gives it
// the one Estimate predicts, to the bit; Moved then lists it, once;
// Estimate and Restore move nothing.
func TestRatingsNewAgent(t *testing.T) {
	t.Parallel()
	rt := newRater(t)
	s := newSimLeague(3)
	s.rankByRatings(rt.r)
	rt.add(s.first())
	for range 50 {
		rt.add(s.next()...)
		rt.settle()
	}
	rt.r.Moved()
	id := int64(len(s.strength))
	pairs := s.next()
	// Extra pairs that say nothing about the new agent.
	noise := []elo.Pair{{A: 7, B: 8, Record: game.Record{Wins: 3}}, {A: id, B: id, Record: game.Record{Draws: 4}}, {A: id, B: 999, Record: game.Record{Wins: 9}}}
	est, err := rt.r.Estimate(append(noise, pairs...), id)
	if err != nil {
		t.Fatal(err)
	}
	if moved := rt.r.Moved(); len(moved) != 0 {
		t.Errorf("Estimate moved %v", moved)
	}
	rt.add(pairs...)
	if got, ok := rt.r.Rating(id); ok {
		t.Errorf("agent %d rated %+v before Settle", id, got)
	}
	// No budget: the new agent is placed all the same, and its opponents
	// are left pending.
	if st := rt.r.Settle(0); st.Placed != 1 || st.Steps != 0 || st.Pending == 0 {
		t.Errorf("Settle(0) did %+v, want the new agent placed and steps pending", st)
	}
	got, _ := rt.r.Rating(id)
	if got.Elo != est {
		t.Errorf("new agent placed at %v, Estimate said %v", got.Elo, est)
	}
	if moved := rt.r.Moved(); !slices.Equal(moved, []int64{id}) {
		t.Errorf("Moved() = %v, want [%d]", moved, id)
	}
	st := rt.settle()
	moved := rt.r.Moved()
	if !slices.IsSorted(moved) || len(moved) == 0 || st.Shifts == 0 && len(moved) > st.Steps {
		t.Errorf("after %+v, Moved() = %v, want the agents moved, sorted", st, moved)
	}
	if again := rt.r.Moved(); len(again) != 0 {
		t.Errorf("Moved() again = %v, want none", again)
	}
	if err := rt.r.Restore(id, got.Elo+1); err != nil {
		t.Fatal(err)
	}
	if moved := rt.r.Moved(); len(moved) != 0 {
		t.Errorf("Restore moved %v", moved)
	}
}

// TestNodeSize: a node stays 32 bytes, two to a cache line (see node).
func TestNodeSize(t *testing.T) {
	t.Parallel()
	if elo.NodeSize != 32 {
		t.Errorf("a node takes %d bytes, want 32", elo.NodeSize)
	}
}
