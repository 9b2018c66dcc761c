package league_test

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league"
	"ttt/store"
)

// BenchmarkRatingQuality measures how well a league's ratings, each
// checkpoint rated from its pool of opponents, agree with a full
// round-robin of the same checkpoints: it runs a league of 300 rounds
// with default settings, reads every rating, plays every pair that has
// not played (ttt roundrobin over all of them) and compares the ratings
// after with the ratings before. Rank correlation says little here:
// hundreds of unbeatable checkpoints sit within a few Elo of each other.
//
//	go test ./league -run '^$' -bench RatingQuality -benchtime 1x
func BenchmarkRatingQuality(b *testing.B) {
	for range b.N {
		ctx := context.Background()
		db, err := store.Open(ctx, filepath.Join(b.TempDir(), "league.db"), func() store.Setup { return league.Setup(agents.TicTacToe) })
		if err != nil {
			b.Fatal(err)
		}
		cfg := league.Default(agents.TicTacToe)
		cfg.Rounds = 300
		if _, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil {
			b.Fatal(err)
		}
		pool := ratings(b, db)
		ids := make([]int64, 0, len(pool))
		for id := range pool {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		if _, err := league.RoundRobin(ctx, db, ids, cfg); err != nil {
			b.Fatal(err)
		}
		full := ratings(b, db)
		var x, y, diffs []float64
		for _, id := range ids {
			if id == 1 { // random, 0 in both
				continue
			}
			x, y = append(x, pool[id]), append(y, full[id])
			diffs = append(diffs, math.Abs(pool[id]-full[id]))
		}
		slices.Sort(diffs)
		mean := 0.0
		for _, d := range diffs {
			mean += d / float64(len(diffs))
		}
		b.ReportMetric(pearson(x, y), "pearson")
		b.ReportMetric(mean, "mean-abs-Elo")
		b.ReportMetric(diffs[len(diffs)*95/100], "p95-abs-Elo")
		b.ReportMetric(diffs[len(diffs)-1], "max-abs-Elo")
		best, err := league.Lookup(ctx, db, store.Best)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("best after the round-robin: %s, %s", best.Name, best.Class)
		if best.Class == game.Beatable {
			b.Errorf("best (%s) is beatable", best.Name)
		}
		db.Close()
	}
}

// ratings reads every rated agent's exact rating in the fit.
func ratings(b *testing.B, db *store.DB) map[int64]float64 {
	b.Helper()
	fits, _, err := db.Fits(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return fits
}

// pearson is the correlation of x and y.
func pearson(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx, my = mx+x[i]/float64(len(x)), my+y[i]/float64(len(y))
	}
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}
