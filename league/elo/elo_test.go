package elo_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"

	"ttt/agents/game"
	"ttt/league/elo"
)

// anchor is the id of the agent fixed at 0 in these tests, as random is in
// the league.
const anchor = 0

// scale anchors the test anchor at 0, as the first leagues anchored
// random.
var scale = []elo.Anchor{{ID: anchor}}

// newRatings returns Ratings on anchors, failing the test on an error.
func newRatings(t testing.TB, anchors []elo.Anchor) *elo.Ratings {
	t.Helper()
	r, err := elo.NewRatings(anchors)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// elo75 is the Elo difference that gives a 75% expected score:
// 400·log10(0.75/0.25).
var elo75 = 400 * math.Log10(3)

// find returns the rating of agent id, failing the test if it is missing.
func find(t testing.TB, rs []elo.Rating, id int64) elo.Rating {
	t.Helper()
	for _, r := range rs {
		if r.Agent == id {
			return r
		}
	}
	t.Fatalf("agent %d missing from %v", id, rs)
	return elo.Rating{}
}

// mustFit fits pairs with the test anchor, failing the test on an error.
func mustFit(t testing.TB, pairs []elo.Pair) []elo.Rating {
	t.Helper()
	rs, err := elo.Fit(pairs, scale)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// simulate plays games between agents rated ra and rb (in Elo) with the
// model's probabilities, a draw taking drawShare of the games when it can.
func simulate(rng *rand.Rand, a, b int64, ra, rb float64, games int, drawShare float64) elo.Pair {
	p := elo.Pair{A: a, B: b}
	win := 1 / (1 + math.Pow(10, (rb-ra)/400))
	for range games {
		// A draw is half a win, so drawing with probability d and winning
		// with win - d/2 keeps A's expected score at win; this d keeps both
		// probabilities within [0, 1].
		d := drawShare * 2 * min(win, 1-win)
		switch u := rng.Float64(); {
		case u < d:
			p.Draws++
		case u < d+(win-d/2):
			p.Wins++
		default:
			p.Losses++
		}
	}
	return p
}

// randomLeague plays a round-robin among agents 0..len(strength)-1, games per
// pair, and returns the records.
func randomLeague(rng *rand.Rand, strength []float64, games int) []elo.Pair {
	var pairs []elo.Pair
	for a := range strength {
		for b := a + 1; b < len(strength); b++ {
			pairs = append(pairs, simulate(rng, int64(a), int64(b), strength[a], strength[b], games, 0.3))
		}
	}
	return pairs
}

// TestTwoAgents checks fits against the closed form for one agent against
// the anchor: R = 400·log10(score/(1-score)), less a trace of the prior.
func TestTwoAgents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		pair elo.Pair
		want float64 // agent 1's Elo
	}{
		{"75% by wins", elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 300, Losses: 100}}, elo75},
		{"75% with draws", elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 200, Draws: 200}}, elo75},
		{"75% seen from the anchor", elo.Pair{A: anchor, B: 1, Record: game.Record{Wins: 100, Losses: 300}}, elo75},
		{"25%", elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 100, Losses: 300}}, -elo75},
		{"50%", elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 150, Draws: 100, Losses: 150}}, 0},
		{"90%", elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 900, Losses: 100}}, 400 * math.Log10(9)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := mustFit(t, []elo.Pair{tc.pair})
			if got, want := len(rs), 2; got != want {
				t.Fatalf("got %d ratings, want %d", got, want)
			}
			if got := find(t, rs, 1).Elo; math.Abs(got-tc.want) > 0.5 {
				t.Errorf("Elo = %.3f, want %.3f ± 0.5", got, tc.want)
			}
			if got := find(t, rs, anchor); got.Elo != 0 || got.Lo != 0 || got.Hi != 0 {
				t.Errorf("anchor = %+v, want 0 [0, 0]", got)
			}
			games := tc.pair.Wins + tc.pair.Draws + tc.pair.Losses
			for _, r := range rs {
				if r.Games != games {
					t.Errorf("agent %d: Games = %d, want %d", r.Agent, r.Games, games)
				}
			}
		})
	}
}

// TestSymmetric: mirrored records give opposite ratings, equally wide
// intervals.
func TestSymmetric(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		pairs []elo.Pair
	}{
		{"mirror records against the anchor", []elo.Pair{
			{A: 1, B: anchor, Record: game.Record{Wins: 70, Draws: 10, Losses: 20}},
			{A: 2, B: anchor, Record: game.Record{Wins: 20, Draws: 10, Losses: 70}},
		}},
		{"and an even match between them", []elo.Pair{
			{A: 1, B: anchor, Record: game.Record{Wins: 70, Draws: 10, Losses: 20}},
			{A: 2, B: anchor, Record: game.Record{Wins: 20, Draws: 10, Losses: 70}},
			{A: 1, B: 2, Record: game.Record{Wins: 30, Draws: 40, Losses: 30}},
		}},
		{"and a lopsided match between them", []elo.Pair{
			{A: anchor, B: 1, Record: game.Record{Wins: 20, Draws: 10, Losses: 70}},
			{A: 2, B: anchor, Record: game.Record{Wins: 20, Draws: 10, Losses: 70}},
			{A: 2, B: 1, Record: game.Record{Wins: 5, Draws: 15, Losses: 80}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := mustFit(t, tc.pairs)
			a, b := find(t, rs, 1), find(t, rs, 2)
			if math.Abs(a.Elo+b.Elo) > 1e-9 {
				t.Errorf("Elo %v and %v, want opposites", a.Elo, b.Elo)
			}
			if math.Abs((a.Hi-a.Lo)-(b.Hi-b.Lo)) > 1e-9 {
				t.Errorf("intervals %v and %v wide, want equal", a.Hi-a.Lo, b.Hi-b.Lo)
			}
			if a.Elo <= 0 {
				t.Errorf("the winner has Elo %v, want > 0", a.Elo)
			}
		})
	}
}

// TestAnchorFixedAndSorted: the anchor stays at 0 even as a middling
// agent, ratings come sorted by id, and Games counts every game.
func TestAnchorFixedAndSorted(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	// Agents 0..5 but the anchor is 3, a middling one, so the fit must move
	// everybody to keep it at 0.
	pairs := randomLeague(rng, []float64{-300, -100, 0, 50, 200, 600}, 40)
	rs, err := elo.Fit(pairs, []elo.Anchor{{ID: 3}})
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range rs {
		if r.Agent != int64(k) {
			t.Fatalf("rating %d is agent %d, want sorted ids", k, r.Agent)
		}
		if r.Games != 5*40 {
			t.Errorf("agent %d: Games = %d, want %d", r.Agent, r.Games, 5*40)
		}
		if r.Lo > r.Elo || r.Elo > r.Hi {
			t.Errorf("agent %d: %v outside [%v, %v]", r.Agent, r.Elo, r.Lo, r.Hi)
		}
	}
	if got := rs[3]; got.Elo != 0 || got.Lo != 0 || got.Hi != 0 {
		t.Errorf("anchor = %+v, want 0 [0, 0]", got)
	}
	if !(rs[0].Elo < rs[2].Elo && rs[2].Elo < rs[5].Elo) {
		t.Errorf("ratings %v do not follow the strengths", rs)
	}
}

// TestSeveralAnchors: anchors keep their values, with no interval; games
// between two anchors count and move nothing; an agent that reaches any
// anchor is rated; bad anchors are refused by Fit and NewRatings alike.
func TestSeveralAnchors(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	strength := []float64{0, 300, 450, 600, 900}
	pairs := randomLeague(rng, strength[:4], 60)
	pairs = append(pairs, simulate(rng, 4, 3, strength[4], strength[3], 60, 0.1)) // 4 meets an anchor only
	anchors := []elo.Anchor{{ID: 0}, {ID: 3, Elo: 620}}
	rs, err := elo.Fit(pairs, anchors)
	if err != nil {
		t.Fatal(err)
	}
	if got := find(t, rs, 3); got.Elo != 620 || got.Lo != 620 || got.Hi != 620 || got.Games != 4*60 {
		t.Errorf("anchor 3 = %+v, want 620 [620, 620] in 240 games", got)
	}
	if got := find(t, rs, 4); !(got.Lo < got.Elo && got.Elo < got.Hi) || math.Abs(got.Elo-920) > 150 {
		t.Errorf("agent 4, tied to anchor 3 alone: %+v, want about 920", got)
	}
	more, err := elo.Fit(append(pairs, elo.Pair{A: 3, B: 0, Record: game.Record{Wins: 7, Losses: 5}}), anchors)
	if err != nil {
		t.Fatal(err)
	}
	for k := range rs {
		want := rs[k]
		if more[k].Agent == 0 || more[k].Agent == 3 {
			want.Games += 12
		}
		if more[k] != want {
			t.Errorf("a game between anchors moved %+v to %+v", rs[k], more[k])
		}
	}
	for _, bad := range [][]elo.Anchor{nil, {{ID: 0}, {ID: 0, Elo: 5}}, {{ID: 0, Elo: math.NaN()}}, {{ID: 0, Elo: 1e6}}} {
		if _, err := elo.Fit(pairs, bad); err == nil {
			t.Errorf("Fit with anchors %v: no error", bad)
		}
		if _, err := elo.NewRatings(bad); err == nil {
			t.Errorf("NewRatings(%v): no error", bad)
		}
	}
	r := newRatings(t, anchors)
	if err := r.Restore(3, 619); err == nil {
		t.Error("anchor 3 restored to 619: no error")
	}
	if err := r.Restore(3, 620); err != nil {
		t.Errorf("anchor 3 restored to its value: %v", err)
	}
	if got, ok := r.Rating(3); !ok || got.Elo != 620 || got.Lo != 620 || got.Hi != 620 {
		t.Errorf("Rating(3) = %+v, %v, want 620 [620, 620]", got, ok)
	}
}

// TestInvariance checks that shuffling the pairs, swapping their sides and
// splitting records over several pairs give bit-identical ratings.
func TestInvariance(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	pairs := randomLeague(rng, []float64{0, 100, 250, -80, 400, 900, 30}, 25)
	want := mustFit(t, pairs)
	for _, tc := range []struct {
		name   string
		change func([]elo.Pair) []elo.Pair
	}{
		{"shuffled", func(ps []elo.Pair) []elo.Pair {
			rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
			return ps
		}},
		{"sides swapped", func(ps []elo.Pair) []elo.Pair {
			for k, p := range ps {
				if k%2 == 0 {
					ps[k] = elo.Pair{A: p.B, B: p.A, Record: game.Record{Wins: p.Losses, Draws: p.Draws, Losses: p.Wins}}
				}
			}
			return ps
		}},
		{"records split", func(ps []elo.Pair) []elo.Pair {
			var out []elo.Pair
			for _, p := range ps {
				// One game at a time, half of them from B's side, and an empty pair.
				for range p.Wins {
					out = append(out, elo.Pair{A: p.A, B: p.B, Record: game.Record{Wins: 1}})
				}
				for range p.Draws {
					out = append(out, elo.Pair{A: p.B, B: p.A, Record: game.Record{Draws: 1}})
				}
				for range p.Losses {
					out = append(out, elo.Pair{A: p.B, B: p.A, Record: game.Record{Wins: 1}})
				}
				out = append(out, elo.Pair{A: p.A, B: p.B})
			}
			rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
			return out
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mustFit(t, tc.change(append([]elo.Pair(nil), pairs...)))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
	t.Run("one CPU", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		if got := mustFit(t, pairs); !reflect.DeepEqual(got, want) {
			t.Errorf("got %v\nwant %v", got, want)
		}
	})
	// Ids far apart are numbered by a map rather than a table; renamed in
	// the same order, the agents must get the same ratings to the bit.
	for _, tc := range []struct {
		name string
		id   func(int64) int64
	}{
		{"sparse ids", func(id int64) int64 { return id*1_000_000_007 - 5 }},
		{"ids at both ends of int64", func(id int64) int64 {
			if id <= 3 {
				return math.MinInt64 + id
			}
			return math.MaxInt64 - 6 + id
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			renamed := append([]elo.Pair(nil), pairs...)
			for k := range renamed {
				renamed[k].A, renamed[k].B = tc.id(renamed[k].A), tc.id(renamed[k].B)
			}
			got, err := elo.Fit(renamed, []elo.Anchor{{ID: tc.id(anchor)}})
			if err != nil {
				t.Fatal(err)
			}
			for k, r := range want {
				r.Agent = tc.id(r.Agent)
				if got[k] != r {
					t.Errorf("got %+v, want %+v", got[k], r)
				}
			}
		})
	}
}

// TestPerfectPlayer: agent 9 wins every game against everyone, draws a copy
// of itself (agent 10) and itself; agent 11 loses every game.
func TestPerfectPlayer(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	pairs := randomLeague(rng, []float64{0, 150, 300, 450}, 50)
	for b := range int64(4) {
		pairs = append(pairs,
			elo.Pair{A: 9, B: b, Record: game.Record{Wins: 50}},
			elo.Pair{A: 10, B: b, Record: game.Record{Wins: 50}},
			elo.Pair{A: 11, B: b, Record: game.Record{Losses: 50}})
	}
	pairs = append(pairs, elo.Pair{A: 9, B: 10, Record: game.Record{Draws: 50}}, elo.Pair{A: 9, B: 9, Record: game.Record{Draws: 50}})
	rs := mustFit(t, pairs)
	perfect, copy, loser := find(t, rs, 9), find(t, rs, 10), find(t, rs, 11)
	t.Logf("perfect %+v\nall-loss %+v\nbest mixed %+v", perfect, loser, find(t, rs, 3))
	for _, r := range rs {
		if math.IsNaN(r.Elo) || math.IsInf(r.Elo, 0) || math.IsNaN(r.Lo) || math.IsNaN(r.Hi) {
			t.Errorf("agent %d: %+v, want finite", r.Agent, r)
		}
		if r.Agent < 9 && r.Elo >= perfect.Elo {
			t.Errorf("agent %d rated %v, not below the perfect player's %v", r.Agent, r.Elo, perfect.Elo)
		}
	}
	// Sensible: above the best mixed agent (about 450) by the few hundred
	// Elo that 200 straight wins suggest, not by thousands.
	if perfect.Elo < 800 || perfect.Elo > 2500 {
		t.Errorf("perfect player rated %v, want within [800, 2500]", perfect.Elo)
	}
	if math.Abs(perfect.Elo-copy.Elo) > 1e-6 {
		t.Errorf("perfect player %v and its copy %v, want equal", perfect.Elo, copy.Elo)
	}
	if loser.Elo > -300 || loser.Elo < -2500 {
		t.Errorf("all-loss agent rated %v, want within [-2500, -300]", loser.Elo)
	}
	if got, want := perfect.Games, 4*50+50+50; got != want {
		t.Errorf("perfect player Games = %d, want %d (self-play counted once)", got, want)
	}
}

// TestDrawsAsHalfPoints: the same score from draws or from wins and losses
// gives exactly the same fit, intervals included.
func TestDrawsAsHalfPoints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		draws, halves elo.Pair
	}{
		{"50% against the anchor", elo.Pair{A: 1, B: anchor, Record: game.Record{Draws: 100}}, elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 50, Losses: 50}}},
		{"60% against the anchor", elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 20, Draws: 80}}, elo.Pair{A: 1, B: anchor, Record: game.Record{Wins: 60, Losses: 40}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := elo.Pair{A: 2, B: anchor, Record: game.Record{Wins: 30, Draws: 30, Losses: 40}}
			a := mustFit(t, []elo.Pair{tc.draws, other, {A: 1, B: 2, Record: game.Record{Wins: 10, Losses: 5}}})
			b := mustFit(t, []elo.Pair{tc.halves, other, {A: 1, B: 2, Record: game.Record{Wins: 10, Losses: 5}}})
			if !reflect.DeepEqual(a, b) {
				t.Errorf("from draws %v\nfrom wins and losses %v", a, b)
			}
		})
	}
}

// TestIntervalShrinks: four times the games, half the interval.
func TestIntervalShrinks(t *testing.T) {
	t.Parallel()
	prev := 0.0
	for _, m := range []int{1, 4, 16, 64, 256} {
		rs := mustFit(t, []elo.Pair{
			{A: 1, B: anchor, Record: game.Record{Wins: 25 * m, Draws: 10 * m, Losses: 15 * m}},
			{A: 2, B: anchor, Record: game.Record{Wins: 15 * m, Draws: 10 * m, Losses: 25 * m}},
			{A: 1, B: 2, Record: game.Record{Wins: 20 * m, Draws: 20 * m, Losses: 10 * m}},
		})
		width := find(t, rs, 1).Hi - find(t, rs, 1).Lo
		if prev > 0 {
			if ratio := prev / width; math.Abs(ratio-2) > 0.05 {
				t.Errorf("games ×4 to %d: interval %.2f -> %.2f, ratio %.3f, want about 2", 150*m, prev, width, ratio)
			}
		}
		prev = width
	}
}

// TestErrors: agents cut off from the anchor and negative counts are
// refused; no pairs at all rate the anchor alone.
func TestErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		pairs []elo.Pair
		want  error // nil: any error
	}{
		{"island", []elo.Pair{{A: 1, B: anchor, Record: game.Record{Wins: 5, Losses: 5}}, {A: 2, B: 3, Record: game.Record{Wins: 3, Losses: 1}}}, elo.ErrDisconnected},
		{"anchor absent", []elo.Pair{{A: 1, B: 2, Record: game.Record{Wins: 5, Losses: 5}}}, elo.ErrDisconnected},
		{"no games with the anchor", []elo.Pair{{A: 1, B: anchor}, {A: 1, B: 2, Record: game.Record{Wins: 5}}}, elo.ErrDisconnected},
		{"only self-play", []elo.Pair{{A: 1, B: anchor, Record: game.Record{Wins: 5}}, {A: 2, B: 2, Record: game.Record{Draws: 4}}}, elo.ErrDisconnected},
		{"negative count", []elo.Pair{{A: 1, B: anchor, Record: game.Record{Wins: -1}}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := elo.Fit(tc.pairs, scale)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("no pairs", func(t *testing.T) {
		rs := mustFit(t, nil)
		if want := []elo.Rating{{Agent: anchor}}; !reflect.DeepEqual(rs, want) {
			t.Errorf("got %v, want %v", rs, want)
		}
	})
}

// slope is the derivative of the log-posterior with respect to agent a's
// rating, in Elo, written straight from the model, independently of the
// package: base-10 logistic, draws as half points, the Gaussian prior on
// every agent but the anchor.
func slope(pairs []elo.Pair, r map[int64]float64, a int64) float64 {
	d := -r[a] / (elo.PriorSD * elo.PriorSD)
	for _, p := range pairs {
		if p.A == p.B || (p.A != a && p.B != a) {
			continue
		}
		win := 1 / (1 + math.Pow(10, (r[p.B]-r[p.A])/400))
		surplus := float64(p.Wins) + float64(p.Draws)/2 - float64(p.Wins+p.Draws+p.Losses)*win
		if p.B == a {
			surplus = -surplus
		}
		d += surplus * math.Ln10 / 400
	}
	return d
}

// slowFit maximises the log-posterior one agent at a time, the anchors
// held at their values, each by bisection on its slope (the log-posterior
// is concave in every rating), sweeping until no rating moves by more than
// 1e-7 Elo.
func slowFit(pairs []elo.Pair, agents []int64, anchors []elo.Anchor) map[int64]float64 {
	r := map[int64]float64{}
	fixed := map[int64]bool{}
	for _, a := range anchors {
		r[a.ID], fixed[a.ID] = a.Elo, true
	}
	for moved := math.Inf(1); moved > 1e-7; {
		moved = 0
		for _, a := range agents {
			if fixed[a] {
				continue
			}
			old := r[a]
			lo, hi := old-5000, old+5000
			for hi-lo > 1e-10 {
				if r[a] = (lo + hi) / 2; slope(pairs, r, a) > 0 {
					lo = r[a]
				} else {
					hi = r[a]
				}
			}
			moved = max(moved, math.Abs(r[a]-old))
		}
	}
	return r
}

// TestAgainstSlowFit compares Fit with slowFit on small random leagues.
func TestAgainstSlowFit(t *testing.T) {
	t.Parallel()
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 99))
		strength := make([]float64, 5)
		for k := range strength {
			strength[k] = rng.NormFloat64() * 300
		}
		pairs := randomLeague(rng, strength, 1+rng.IntN(40))
		pairs = append(pairs, elo.Pair{A: 4, B: 1, Record: game.Record{Wins: 3}}) // a one-sided extra, for variety
		// One anchor, as the first leagues had, and two: agent 0 at 0 and
		// agent 3 where its strength is.
		for _, anchors := range [][]elo.Anchor{scale, {{ID: 0}, {ID: 3, Elo: strength[3] - strength[0]}}} {
			rs, err := elo.Fit(pairs, anchors)
			if err != nil {
				t.Fatal(err)
			}
			want := slowFit(pairs, []int64{0, 1, 2, 3, 4}, anchors)
			worst := 0.0
			for _, r := range rs {
				d := math.Abs(r.Elo - want[r.Agent])
				worst = max(worst, d)
				if d > 0.1 {
					t.Errorf("seed %d, %d anchors, agent %d: Fit %.4f, slow fit %.4f", seed, len(anchors), r.Agent, r.Elo, want[r.Agent])
				}
			}
			t.Logf("seed %d, %d anchors: largest difference %.2g Elo", seed, len(anchors), worst)
		}
	}
}

// information returns the observed Fisher information of the log-posterior
// in Elo at ratings rs, the anchor's row and column left out, with the ids
// of its rows.
func information(pairs []elo.Pair, rs []elo.Rating) ([][]float64, []int64) {
	row := map[int64]int{}
	var ids []int64
	for _, r := range rs {
		if r.Agent != anchor {
			row[r.Agent] = len(ids)
			ids = append(ids, r.Agent)
		}
	}
	rating := map[int64]float64{}
	for _, r := range rs {
		rating[r.Agent] = r.Elo
	}
	h := make([][]float64, len(ids))
	for k := range h {
		h[k] = make([]float64, len(ids))
		h[k][k] = 1 / (elo.PriorSD * elo.PriorSD)
	}
	c := math.Ln10 / 400
	for _, p := range pairs {
		win := 1 / (1 + math.Pow(10, (rating[p.B]-rating[p.A])/400))
		w := float64(p.Wins+p.Draws+p.Losses) * win * (1 - win) * c * c
		a, aok := row[p.A]
		b, bok := row[p.B]
		if aok {
			h[a][a] += w
		}
		if bok {
			h[b][b] += w
		}
		if aok && bok {
			h[a][b] -= w
			h[b][a] -= w
		}
	}
	return h, ids
}

// inverseDiagonal returns the diagonal of m⁻¹ by Gauss-Jordan elimination.
func inverseDiagonal(m [][]float64) []float64 {
	n := len(m)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, 2*n)
		copy(a[i], m[i])
		a[i][n+i] = 1
	}
	for i := range n {
		for j := range n {
			if j != i {
				f := a[j][i] / a[i][i]
				for k := range a[j] {
					a[j][k] -= f * a[i][k]
				}
			}
		}
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = a[i][n+i] / a[i][i]
	}
	return d
}

// TestIntervalBounds compares each interval with the exact one from the
// inverse information matrix and with the diagonal approximation: it must
// lie between them, equal the exact one for three agents or a round-robin
// among equals, and come close to it on league-shaped round-robins.
func TestIntervalBounds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	even := []elo.Pair{}
	for a := range int64(6) {
		for b := a + 1; b < 6; b++ {
			even = append(even, elo.Pair{A: a, B: b, Record: game.Record{Wins: 10, Draws: 20, Losses: 10}})
		}
	}
	// League shapes: checkpoints that soon beat random, and an earlier
	// league with a steady spread.
	strong, graded := make([]float64, 60), make([]float64, 40)
	for k := 1; k < len(strong); k++ {
		strong[k] = 300 + 300*min(1, float64(k)/20)
	}
	for k := 1; k < len(graded); k++ {
		graded[k] = -100 + 20*float64(k)
	}
	// Two all-win agents that draw each other: each one's rating moves with
	// the other's, which shorting cannot see; both are the prior's anyway.
	twins := randomLeague(rng, []float64{0, 150, 300, 450}, 50)
	for b := range int64(4) {
		twins = append(twins, elo.Pair{A: 9, B: b, Record: game.Record{Wins: 50}}, elo.Pair{A: 10, B: b, Record: game.Record{Wins: 50}})
	}
	twins = append(twins, elo.Pair{A: 9, B: 10, Record: game.Record{Draws: 50}})
	for _, tc := range []struct {
		name  string
		pairs []elo.Pair
		short float64 // how many times narrower than exact ours may be; 0: any
	}{
		{"three agents", randomLeague(rng, []float64{0, 200, 500}, 30), 1 + 1e-6},
		{"round-robin among equals", even, 1 + 1e-6},
		{"five agents", randomLeague(rng, []float64{0, -100, 200, 500, 800}, 30), 0},
		{"league of strong checkpoints", randomLeague(rng, strong, 18), 1.01},
		{"league with a steady spread", randomLeague(rng, graded, 18), 1.03},
		{"chain", []elo.Pair{
			{A: anchor, B: 1, Record: game.Record{Wins: 20, Losses: 20}}, {A: 1, B: 2, Record: game.Record{Wins: 20, Losses: 20}},
			{A: 2, B: 3, Record: game.Record{Wins: 20, Losses: 20}}, {A: 3, B: 4, Record: game.Record{Wins: 20, Losses: 20}},
		}, 0},
		{"all-win twins", twins, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := mustFit(t, tc.pairs)
			h, ids := information(tc.pairs, rs)
			exact := inverseDiagonal(h)
			worst := 1.0
			for k, id := range ids {
				got := (find(t, rs, id).Hi - find(t, rs, id).Lo) / 2
				hi := 1.959963984540054 * math.Sqrt(exact[k])
				lo := 1.959963984540054 / math.Sqrt(h[k][k])
				if len(ids) <= 10 {
					t.Logf("agent %d: diagonal ±%.2f, ours ±%.2f, exact ±%.2f", id, lo, got, hi)
				}
				if got < lo*(1-1e-6) || got > hi*(1+1e-6) {
					t.Errorf("agent %d: ±%v outside [±%v, ±%v]", id, got, lo, hi)
				}
				worst = max(worst, hi/got)
			}
			t.Logf("exact up to %.4f times ours", worst)
			if tc.short > 0 && worst > tc.short {
				t.Errorf("exact up to %.4f times ours, want at most %v", worst, tc.short)
			}
		})
	}
}

// TestPriorEffect measures how far the prior moves agents with mixed
// records and 100+ games from the pure maximum-likelihood fit that a
// program like Ordo computes: well under the 5 Elo allowed.
func TestPriorEffect(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	spread := make([]float64, 12) // the anchor and 11 agents up to 1,100 Elo
	for k := range spread {
		spread[k] = 100 * float64(k)
	}
	// The anchor and 300 checkpoints from +300 to +600 Elo: the shape of a
	// league whose checkpoints soon beat random almost every game.
	league := make([]float64, 301)
	for k := 1; k < len(league); k++ {
		league[k] = 300 + 300*min(1, float64(k)/50)
	}
	for _, tc := range []struct {
		name     string
		strength []float64
		games    int // per pair
		limit    float64
	}{
		{"0..1100 Elo, 11 opponents, 10 games each", spread, 10, 1},
		{"0..1100 Elo, 11 opponents, 40 games each", spread, 40, 0.25},
		{"league, 300 opponents, 18 games each", league, 18, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pairs := randomLeague(rng, tc.strength, tc.games)
			withPrior, err := elo.FitPrior(pairs, scale, elo.PriorSD)
			if err != nil {
				t.Fatal(err)
			}
			ml, err := elo.FitPrior(pairs, scale, math.Inf(1))
			if err != nil {
				t.Fatal(err)
			}
			worst := 0.0
			for k := range ml {
				worst = max(worst, math.Abs(withPrior[k].Elo-ml[k].Elo))
			}
			top := len(ml) - 1
			t.Logf("largest shift %.3f Elo; top agent %.1f with the prior, %.1f without", worst, withPrior[top].Elo, ml[top].Elo)
			if worst > tc.limit {
				t.Errorf("the prior moves a rating by %.3f Elo, want under %v", worst, tc.limit)
			}
		})
	}
}

// BenchmarkFit1000 refits a league of 1,000 agents, strengths spread
// N(0, 400²) Elo, in which every pair has played 10 games with 30% of the
// possible draws: 499,500 pairs in random order.
func BenchmarkFit1000(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	strength := make([]float64, 1000)
	for k := range strength {
		strength[k] = rng.NormFloat64() * 400
	}
	pairs := randomLeague(rng, strength, 10)
	rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	b.ResetTimer()
	for b.Loop() {
		if _, err := elo.Fit(pairs, scale); err != nil {
			b.Fatal(err)
		}
	}
}
