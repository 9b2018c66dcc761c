package league

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"ttt/agents"
	"ttt/league/elo"
	"ttt/store"
)

// RefitBound is how far, in Elo, the rating a league shows for an agent
// may be from a fit of all its stored results from scratch: the README's
// promise. The incremental fit's own error is within a few hundredths of
// an Elo (elo.Ratings: its bands' lags, at most 0.04, and what its
// single moves leave), and what the leaderboard shows is within
// store.StandingStep (0.05) of the fit's rating.
const RefitBound = 0.1

// Refit is what a fit from scratch of every stored result says of the
// ratings a league shows (its standings). A rating further than
// RefitBound from the refit is a lag of the incremental fit, which Rerate
// settles; a rated agent in no stored result is damage.
type Refit struct {
	Agents  int        // rated agents compared
	Largest RefitGap   // the agent whose rating is furthest from the refit's
	Median  float64    // the median of the differences, in Elo
	Beyond  []RefitGap // the agents more than RefitBound away, in a stored result, by id
	Missing []RefitGap // the rated agents in no stored result, by id
	Results int        // stored matches refitted
	// OlderScale: the league's ratings are on the scale of an older ttt,
	// random at 0 alone, and the refit is on that scale too.
	OlderScale bool
}

// RefitGap is one agent's rating as the league shows it and as the refit
// has it; Refit is NaN for a rated agent in no stored result.
type RefitGap struct {
	Agent         int64
	Name          string
	Stored, Refit float64
}

// Diff is how far apart the two ratings are, in Elo: +Inf when the refit
// has none.
func (g RefitGap) Diff() float64 {
	if math.IsNaN(g.Refit) {
		return math.Inf(1)
	}
	return math.Abs(g.Stored - g.Refit)
}

// CheckRatings fits every stored result from scratch (elo.Fit, exact,
// O(results) memory), on the scale the league's ratings are on, and
// compares each rated agent's standing with it:
// the check that the ratings a league shows are the incremental fit's
// promise, which `ttt check --ratings` lets a user make on their league.
// Agents without a standing are for store.DB.Check to name.
func CheckRatings(ctx context.Context, db *store.DB) (Refit, error) {
	var out Refit
	kit, err := agents.KitOf(db.Game().Name())
	if err != nil {
		return out, err
	}
	cons, err := newContestants(ctx, db, kit)
	if err != nil {
		return out, err
	}
	anchors, on, err := scaleOf(ctx, db, cons)
	if err != nil {
		return out, err
	}
	out.OlderScale = !on
	pairs, err := storedPairs(ctx, db)
	if err != nil {
		return out, err
	}
	out.Results = len(pairs)
	refit := map[int64]float64{}
	if len(pairs) > 0 {
		fitted, err := elo.Fit(pairs, anchors)
		if err != nil {
			return out, fmt.Errorf("cannot refit the stored results: %w", err)
		}
		for _, r := range fitted {
			refit[r.Agent] = r.Elo
		}
	}
	list, _, err := db.Standings(ctx, 0)
	if err != nil {
		return out, err
	}
	diffs := make([]float64, 0, len(list))
	for _, a := range list {
		g := RefitGap{Agent: a.ID, Name: a.Name, Stored: a.Standing.Elo, Refit: math.NaN()}
		if r, ok := refit[a.ID]; ok {
			g.Refit = r
		}
		d := g.Diff()
		if len(diffs) == 0 || d > out.Largest.Diff() {
			out.Largest = g
		}
		switch {
		case math.IsNaN(g.Refit):
			out.Missing = append(out.Missing, g)
		case d > RefitBound:
			out.Beyond = append(out.Beyond, g)
		}
		diffs = append(diffs, d)
	}
	out.Agents = len(diffs)
	if len(diffs) > 0 {
		slices.Sort(diffs)
		n := len(diffs)
		out.Median = (diffs[(n-1)/2] + diffs[n/2]) / 2
	}
	byID := func(a, b RefitGap) int { return cmp.Compare(a.Agent, b.Agent) }
	slices.SortFunc(out.Beyond, byID)
	slices.SortFunc(out.Missing, byID)
	return out, nil
}
