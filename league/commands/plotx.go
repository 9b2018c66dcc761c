package commands

import (
	"fmt"
	"slices"
	"time"

	"gonum.org/v1/plot"

	"ttt/store"
)

// The x axes of ttt ratings plot (--x): each round at its number, at
// the time since the league's first round started when it was
// committed, or at the games the league's learners had trained by then.
const (
	xRound = "round"
	xTime  = "time"
	xGames = "games"
)

// xAxes are --x's values, the default first.
var xAxes = []string{xRound, xTime, xGames}

// plotX puts rounds on a plot's x axis: at the x of its knots, rounds
// in increasing order, and between two knots on the line joining them
// (a league of many rounds is read at a few thousand, and an agent's
// history has rows at others); before the first knot at the first's,
// after the last at the last's.
type plotX struct {
	label  string
	whole  bool      // ticks at whole numbers only (rounds)
	half   float64   // half the span of a plot of one round, and the least margin at its right
	rounds []float64 // the knots' rounds
	xs     []float64 // their x
}

// roundX is the x axis of rounds.
var roundX = &plotX{label: "round", whole: true, half: 0.5}

// at is where round r is on the axis.
func (x *plotX) at(r int64) float64 {
	if x.rounds == nil {
		return float64(r)
	}
	k, exact := slices.BinarySearch(x.rounds, float64(r))
	switch {
	case exact:
		return x.xs[k]
	case k == 0:
		return x.xs[0]
	case k == len(x.rounds):
		return x.xs[k-1]
	}
	f := (float64(r) - x.rounds[k-1]) / (x.rounds[k] - x.rounds[k-1])
	return x.xs[k-1] + f*(x.xs[k]-x.xs[k-1])
}

// axis labels p's x axis as x, with its ticks.
func (x *plotX) axis(p *plot.Plot) {
	p.X.Label.Text = x.label
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick { return niceTicks(min, max, x.whole) })
}

// knotted returns the axis labelled label whose knots are the rounds
// and xs given; a single knot spans a tenth of its x either side.
func knotted(label string, rounds []int64, xs []float64) *plotX {
	x := &plotX{label: label, xs: xs}
	for _, r := range rounds {
		x.rounds = append(x.rounds, float64(r))
	}
	x.half = xs[len(xs)-1] / 10
	if len(xs) > 1 {
		x.half = min(x.half, (xs[len(xs)-1]-xs[0])/50)
	}
	return x
}

// gamesX is the x axis of the league's training games, in millions (in
// thousands below a million), at
// the points of the learning curve: at each, every method's newest
// snapshot's games added up (a league of several learners trains each in
// its turn). Nil where no snapshot says its games (a league of schema 1).
func gamesX(curve []store.CurvePoint) *plotX {
	newest := map[string]int{}
	total := 0
	var rounds []int64
	var xs []float64
	for _, p := range curve {
		total += p.TrainGames - newest[p.Method]
		newest[p.Method] = p.TrainGames
		if total > 0 {
			rounds, xs = append(rounds, p.Round), append(xs, float64(total)/1e6)
		}
	}
	if len(xs) == 0 {
		return nil
	}
	// A league of fewer than a million games, in thousands.
	if total < 1e6 {
		for k := range xs {
			xs[k] *= 1000
		}
		return knotted("training games of the league (thousands)", rounds, xs)
	}
	return knotted("training games of the league (millions)", rounds, xs)
}

// timeX is the x axis of time, at the points of the learning curve whose
// round's end is known (finished): from the start of the league's first
// round (start) to the commit of each, in minutes, or in hours where the
// league has run two hours or more. Nil where no round's end is known
// (a league of schema 1).
func timeX(curve []store.CurvePoint, start time.Time, finished map[int64]time.Time) *plotX {
	var rounds []int64
	var at []time.Duration
	for _, p := range curve {
		if f, ok := finished[p.Round]; ok {
			rounds, at = append(rounds, p.Round), append(at, f.Sub(start))
		}
	}
	if len(at) == 0 {
		return nil
	}
	unit, name := time.Minute, "minutes"
	if at[len(at)-1] >= 2*time.Hour {
		unit, name = time.Hour, "hours"
	}
	xs := make([]float64, len(at))
	for k, d := range at {
		xs[k] = float64(d) / float64(unit)
	}
	return knotted(fmt.Sprintf("%s since the league's first round started", name), rounds, xs)
}

// xOf is the x axis that by names, at the points of the league's
// learning curve curve.
func (j *job) xOf(db *store.DB, by string, curve []store.CurvePoint) (*plotX, error) {
	switch by {
	case xGames:
		if x := gamesX(curve); x != nil {
			return x, nil
		}
		return nil, fmt.Errorf("--x games: the league's snapshots keep no count of their training games (made by an older ttt): --x round or time")
	case xTime:
		var first []store.RoundInfo
		var finished map[int64]time.Time
		err := db.View(j.ctx, func(v *store.View) (err error) {
			if first, err = v.Rounds(1, 1); err != nil {
				return err
			}
			rounds := make([]int64, len(curve))
			for k, p := range curve {
				rounds[k] = p.Round
			}
			finished, err = v.Finished(rounds)
			return err
		})
		if err != nil {
			return nil, err
		}
		if len(first) == 1 {
			if x := timeX(curve, first[0].Started, finished); x != nil {
				return x, nil
			}
		}
		return nil, fmt.Errorf("--x time: the league's rounds keep no time they finished (rounds of an older ttt): --x round or games")
	}
	return roundX, nil
}
