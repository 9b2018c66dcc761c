package elo_test

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"ttt/league/elo"
)

// rankByStrength makes the league rank agents by their hidden strengths,
// kept in buckets of a quarter of an Elo: the shape the ratings would
// give, without the cost of sorting 100,000 ratings each round.
func (s *simLeague) rankByStrength() {
	const width = 0.25
	buckets := map[int][]int64{}
	var top []int64
	indexed := int64(2) // agents below are in the index
	update := func() {
		for ; indexed < int64(len(s.strength))-1; indexed++ {
			b := int(math.Floor(s.strength[indexed] / width))
			buckets[b] = append(buckets[b], indexed)
			top = append(top, indexed)
			slices.SortFunc(top, func(x, y int64) int { return cmp.Compare(s.strength[y], s.strength[x]) })
			top = top[:min(4, len(top))]
		}
	}
	s.top = func() []int64 {
		update()
		return slices.Clone(top)
	}
	s.nearest = func(e float64, n int) []int64 {
		update()
		var near []int64
		for b, d := int(math.Floor(e/width)), 0; len(near) < n && d < 1e5; d++ {
			near = append(near, buckets[b+d]...)
			if d > 0 {
				near = append(near, buckets[b-d]...)
			}
		}
		slices.SortFunc(near, func(x, y int64) int {
			return cmp.Or(cmp.Compare(math.Abs(s.strength[x]-e), math.Abs(s.strength[y]-e)), cmp.Compare(x, y))
		})
		return near[:min(n, len(near))]
	}
	s.place = func(_ []elo.Pair, id int64) float64 { return s.strength[id] }
}

// benchFixture is a league of n checkpoints: its pairs, their Fit, and
// the rounds that come after, made as the benchmarks need them.
type benchFixture struct {
	league *simLeague
	pairs  []elo.Pair
	fit    []elo.Rating
	rounds [][]elo.Pair
}

var fixtures = map[int]*benchFixture{}

// fixture returns the league of n checkpoints, made once per process.
func fixture(b *testing.B, n int) *benchFixture {
	if f := fixtures[n]; f != nil {
		return f
	}
	s := newSimLeague(uint64(n))
	s.rankByStrength()
	f := &benchFixture{league: s, pairs: []elo.Pair{s.first()}}
	for range n {
		f.pairs = append(f.pairs, s.next()...)
	}
	var err error
	if f.fit, err = elo.Fit(f.pairs, scale); err != nil {
		b.Fatal(err)
	}
	fixtures[n] = f
	return f
}

// round returns the pairs of the i-th round after the fixture's.
func (f *benchFixture) round(i int) []elo.Pair {
	for len(f.rounds) <= i {
		f.rounds = append(f.rounds, f.league.next())
	}
	return f.rounds[i]
}

// load returns Ratings with the fixture's Fit restored and its pairs
// added, as the league reloads them.
func (f *benchFixture) load(b *testing.B) *elo.Ratings {
	r := newRatings(b, scale)
	for _, rt := range f.fit {
		if err := r.Restore(rt.Agent, rt.Elo); err != nil {
			b.Fatal(err)
		}
	}
	for _, p := range f.pairs {
		if err := r.Add(p); err != nil {
			b.Fatal(err)
		}
	}
	return r
}

// benchSettle measures a round of a league of n checkpoints: a new
// agent's pairs added, and Settle to convergence.
func benchSettle(b *testing.B, n int) {
	f := fixture(b, n)
	r := f.load(b)
	r.Settle(math.MaxInt)
	r.Moved()
	var total elo.Settled
	moved, i := 0, 0
	cpu := time.Duration(0)
	for b.Loop() {
		b.StopTimer() // the simulation is not what is measured
		pairs := f.round(i)
		i++
		start := cpuTime()
		b.StartTimer()
		for _, p := range pairs {
			if err := r.Add(p); err != nil {
				b.Fatal(err)
			}
		}
		st := r.Settle(math.MaxInt)
		if st.Pending != 0 {
			b.Fatalf("no convergence: %+v", st)
		}
		total.Steps += st.Steps
		total.Visits += st.Visits
		total.Shifts += st.Shifts
		moved += len(r.Moved())
		b.StopTimer()
		cpu += cpuTime() - start
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(total.Visits)/float64(b.N), "visits/op")

	b.ReportMetric(float64(total.Steps)/float64(b.N), "steps/op")
	b.ReportMetric(float64(total.Shifts)/float64(b.N), "shifts/op")
	b.ReportMetric(float64(moved)/float64(b.N), "moved/op")
}

func BenchmarkSettle1k(b *testing.B)   { benchSettle(b, 1000) }
func BenchmarkSettle10k(b *testing.B)  { benchSettle(b, 10000) }
func BenchmarkSettle100k(b *testing.B) { benchSettle(b, 100000) }

// BenchmarkLoad100k measures a reload of a league of 100,000 checkpoints
// (3.2 million pairs): every agent restored, every pair added, and the
// memory that the Ratings then hold.
func BenchmarkLoad100k(b *testing.B) {
	f := fixture(b, 100000)
	var r *elo.Ratings
	var before, after runtime.MemStats
	for b.Loop() {
		r = nil
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		r = f.load(b)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	bytes := float64(after.HeapAlloc - before.HeapAlloc)
	b.ReportMetric(bytes/1e6, "MB")
	b.ReportMetric(bytes/float64(len(f.fit)), "B/agent")
	runtime.KeepAlive(r)
}

// cpuTime returns the CPU time the process has used: on a shared machine,
// the benchmarks' wall time depends on the other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
