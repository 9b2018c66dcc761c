package elo_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"ttt/agents/game"
	"ttt/league/elo"
)

// script drives a Ratings with a random sequence of the calls a league
// makes, and records what every call returned: two Ratings given the same
// script must produce the same record, to the bit.
type script struct {
	rng    *rand.Rand
	ids    []int64    // agents met so far, the anchor first
	pairs  []elo.Pair // every pair added
	record []any      // what the calls returned
}

func newScript(seed uint64) *script {
	return &script{rng: rand.New(rand.NewPCG(seed, 1234)), ids: []int64{anchor}}
}

// pair returns a random record of new agent a against an agent met
// before, or now and then one of the odd ones: a repeat, self-play, no
// games, a pair between two old agents.
func (s *script) pair(a int64) elo.Pair {
	b := s.ids[s.rng.IntN(len(s.ids))]
	if s.rng.IntN(3) == 0 {
		b = anchor
	}
	switch s.rng.IntN(20) {
	case 0:
		b = a
	case 1:
		a = s.ids[s.rng.IntN(len(s.ids))]
	case 2:
		if len(s.pairs) > 0 {
			p := s.pairs[s.rng.IntN(len(s.pairs))]
			a, b = p.A, p.B
		}
	}
	p := elo.Pair{A: a, B: b}
	if s.rng.IntN(30) > 0 {
		n := 1 + s.rng.IntN(200)
		// Some records all wins, all draws or all losses, where the prior
		// decides.
		switch s.rng.IntN(6) {
		case 0:
			p.Wins = n
		case 1:
			p.Losses = n
		case 2:
			p.Draws = n
		default:
			p.Wins = s.rng.IntN(n + 1)
			p.Draws = s.rng.IntN(n - p.Wins + 1)
			p.Losses = n - p.Wins - p.Draws
		}
	}
	return p
}

// round plays one round on r: new agents and their pairs, then a Settle
// on a random budget, Moved, and some queries.
func (s *script) round(t testing.TB, r *elo.Ratings) {
	t.Helper()
	for range 1 + s.rng.IntN(2) {
		a := int64(100 + len(s.ids)*3) // ids with gaps
		n := 1 + s.rng.IntN(6)
		var ps []elo.Pair
		for range n {
			ps = append(ps, s.pair(a))
		}
		est, err := r.Estimate(ps, a)
		if err != nil {
			t.Fatal(err)
		}
		s.record = append(s.record, est)
		s.ids = append(s.ids, a)
		for _, p := range ps {
			if err := r.Add(p); err != nil {
				t.Fatal(err)
			}
			s.pairs = append(s.pairs, p)
		}
	}
	budgets := []int{0, 1, 10, 100, 1000, math.MaxInt}
	s.record = append(s.record, r.Settle(budgets[s.rng.IntN(len(budgets))]))
	if s.rng.IntN(3) > 0 {
		s.record = append(s.record, r.Moved())
	}
	for range 3 {
		rt, ok := r.Rating(s.ids[s.rng.IntN(len(s.ids))])
		s.record = append(s.record, rt, ok)
	}
}

// restart returns a Ratings rebuilt from r as a league reloaded from its
// database would: every rated agent restored to its Elo, then every pair
// added, both in a random order, some pairs seen from the other side, some
// split into two records.
func (s *script) restart(t testing.TB, r *elo.Ratings) *elo.Ratings {
	t.Helper()
	r2 := newRatings(t, scale)
	for _, k := range s.rng.Perm(len(s.ids)) {
		if rt, ok := r.Rating(s.ids[k]); ok {
			if err := r2.Restore(rt.Agent, rt.Elo); err != nil {
				t.Fatal(err)
			}
		}
	}
	var pairs []elo.Pair
	for _, p := range s.pairs {
		switch s.rng.IntN(4) {
		case 0:
			p = elo.Pair{A: p.B, B: p.A, Record: game.Record{Wins: p.Losses, Draws: p.Draws, Losses: p.Wins}}
		case 1:
			half := elo.Pair{A: p.A, B: p.B, Record: game.Record{Wins: p.Wins / 2, Draws: p.Draws / 2, Losses: p.Losses / 2}}
			p.Wins, p.Draws, p.Losses = p.Wins-half.Wins, p.Draws-half.Draws, p.Losses-half.Losses
			pairs = append(pairs, half)
		}
		pairs = append(pairs, p)
	}
	s.rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	for _, p := range pairs {
		if err := r2.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	return r2
}

// FuzzRestart checks that a league stopped at any point and reloaded from
// its ratings and its pairs goes on exactly as if it had not stopped,
// whatever the order of the reload, and whether or not the last Settle
// had converged. The seed picks the script and the restart point.
func FuzzRestart(f *testing.F) {
	for seed := range uint64(40) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		s := newScript(seed)
		r := newRatings(t, scale)
		rounds, stop := 30+s.rng.IntN(30), s.rng.IntN(30)
		for range stop {
			s.round(t, r)
		}
		r.Moved() // what the league stores with the round
		// From here on two scripts run the same calls, each on its own
		// Ratings: one on the original, one on the reload.
		r2 := s.restart(t, r)
		s2 := *s
		s2.ids, s2.pairs = slices.Clone(s.ids), slices.Clone(s.pairs)
		s2.rng = rand.New(rand.NewPCG(seed, 5678))
		s.rng = rand.New(rand.NewPCG(seed, 5678))
		s.record, s2.record = nil, nil
		for range rounds - stop {
			s.round(t, r)
			s2.round(t, r2)
		}
		for k := range s.record {
			if !same(s.record[k], s2.record[k]) {
				t.Fatalf("seed %d, restarted after %d rounds: call %d gave %v, after the reload %v", seed, stop, k, s.record[k], s2.record[k])
			}
		}
		for _, id := range s.ids {
			a, aok := r.Rating(id)
			b, bok := r2.Rating(id)
			if !same(a, b) || aok != bok {
				t.Fatalf("seed %d: agent %d rated %+v, after the reload %+v", seed, id, a, b)
			}
		}
	})
}

// same compares two results to the bit.
func same(a, b any) bool {
	switch a := a.(type) {
	case float64:
		return math.Float64bits(a) == math.Float64bits(b.(float64))
	case elo.Rating:
		b := b.(elo.Rating)
		return a.Agent == b.Agent && a.Games == b.Games && same(a.Elo, b.Elo) && same(a.Lo, b.Lo) && same(a.Hi, b.Hi)
	case []int64:
		return slices.Equal(a, b.([]int64))
	}
	return a == b
}

// TestRatingsDeterministic runs the same script twice, the second time on
// one CPU, and wants the same record to the bit.
func TestRatingsDeterministic(t *testing.T) {
	t.Parallel()
	run := func() []any {
		s := newScript(99)
		r := newRatings(t, scale)
		for range 60 {
			s.round(t, r)
		}
		return s.record
	}
	want := run()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	got := run()
	for k := range want {
		if !same(want[k], got[k]) {
			t.Fatalf("call %d gave %v, then %v", k, want[k], got[k])
		}
	}
}

// A league rates each new snapshot as agent 0, then renames it to the id
// the commit gave it. Renamed, the Ratings must be what a reload with the
// real ids gives: the same further calls, the same results, to the bit.
// (The anchor here is agent 0, so the new agent goes by -1.)
func TestRenameIsARestart(t *testing.T) {
	t.Parallel()
	const placeholder = -1
	for seed := range uint64(20) {
		s := newScript(seed)
		r := newRatings(t, scale)
		for round := range 25 {
			// The new agent as the placeholder: its pairs, a Settle.
			real := int64(100 + len(s.ids)*3)
			var ps []elo.Pair
			for range 1 + s.rng.IntN(6) {
				ps = append(ps, s.pair(real))
			}
			for _, p := range ps {
				if p.A == real {
					p.A = placeholder
				}
				if p.B == real {
					p.B = placeholder
				}
				if err := r.Add(p); err != nil {
					t.Fatal(err)
				}
			}
			r.Settle([]int{10, 1000, math.MaxInt}[round%3])
			r.Moved()
			if err := r.Rename(placeholder, real); err != nil {
				t.Fatal(err)
			}
			s.ids = append(s.ids, real)
			s.pairs = append(s.pairs, ps...)
		}
		if err := r.Rename(s.ids[1], s.ids[2]); err == nil {
			t.Fatal("renamed an agent to the id of another")
		}
		r2 := s.restart(t, r)
		s2 := *s
		s2.ids, s2.pairs = slices.Clone(s.ids), slices.Clone(s.pairs)
		s.rng, s2.rng = rand.New(rand.NewPCG(seed, 42)), rand.New(rand.NewPCG(seed, 42))
		s.record, s2.record = nil, nil
		for range 20 {
			s.round(t, r)
			s2.round(t, r2)
		}
		for k := range s.record {
			if !same(s.record[k], s2.record[k]) {
				t.Fatalf("seed %d: call %d gave %v after renames, %v after a reload", seed, k, s.record[k], s2.record[k])
			}
		}
	}
}
