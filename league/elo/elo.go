// Package elo fits maximum-likelihood Elo ratings to a league's results.
//
// The model is Ordo's and BayesElo's: agent A beats agent B with probability
//
//	P(A beats B) = 1 / (1 + 10^((R_B - R_A)/400))
//
// and a draw is half a win and half a loss, so a game with score s in
// {0, ½, 1} adds s·log(p) + (1-s)·log(1-p) to the log-likelihood. Fit finds the
// ratings that maximise the likelihood of all the games at once, with the
// anchors fixed at their values and a very weak prior (priorSD) that keeps
// all-win and all-loss records finite. The fit is exact and deterministic:
// the order of the pairs never changes a bit of the result.
//
// The anchors set the scale: agents whose ratings the fit holds at given
// values, as Ordo's multiple anchors (-m) and the anchored engines of the
// engine rating lists do. With one anchor at 0 every rating is relative to
// it alone; with several spread over the scale, each agent is tied to the
// fixed points near its strength, so that two leagues of a game that share
// their anchors share their scale.
//
// Ratings finds the same maximum incrementally, for leagues too large to
// refit each round: results arrive a pair at a time, and Settle moves the
// ratings towards the maximum at a cost that does not grow with the
// league, to within a documented tolerance.
package elo

import (
	"errors"
	"fmt"
	"math"

	"ttt/agents/game"
)

// Pair is the aggregated record of agent A against agent B (A's wins, draws,
// losses), whatever the colours. Several Pairs may describe the same two
// agents, in either order; their games are added up. A Pair with A == B
// says nothing about strength: it only counts in Games.
type Pair struct {
	A, B int64
	game.Record
}

// check refuses negative counts.
func (p Pair) check() error {
	if p.Wins < 0 || p.Draws < 0 || p.Losses < 0 {
		return fmt.Errorf("elo: negative count in %d vs %d: %d/%d/%d", p.A, p.B, p.Wins, p.Draws, p.Losses)
	}
	return nil
}

// Rating is one agent's fitted Elo with a 95% interval [Lo, Hi], and the
// number of games it played. An anchor has Elo, Lo and Hi all its value.
type Rating struct {
	Agent       int64
	Elo, Lo, Hi float64
	Games       int
}

// Anchor is an agent whose rating is held at Elo: a fixed point of the
// scale.
type Anchor struct {
	ID  int64
	Elo float64
}

// ErrDisconnected is returned by Fit when some agent has no path of games
// to an anchor: its rating relative to the anchors would be decided by the
// prior alone, which is no measurement at all.
var ErrDisconnected = errors.New("elo: agent has no path of games to an anchor")

// checkAnchors refuses a scale without an anchor, an agent anchored
// twice, and a value that is not a finite rating within ±maxElo.
func checkAnchors(anchors []Anchor) error {
	if len(anchors) == 0 {
		return errors.New("elo: no anchor")
	}
	for i, a := range anchors {
		if !(math.Abs(a.Elo) <= maxElo) {
			return fmt.Errorf("elo: cannot anchor agent %d at %v Elo", a.ID, a.Elo)
		}
		for _, b := range anchors[:i] {
			if a.ID == b.ID {
				return fmt.Errorf("elo: agent %d is anchored twice", a.ID)
			}
		}
	}
	return nil
}

const (
	// priorSD is the standard deviation, in Elo, of the prior: a Gaussian
	// N(0, priorSD²) on every rating but the anchors', so Fit finds the
	// most probable ratings under it (MAP). It is what keeps a perfect record
	// finite: an agent that wins all its n games against agents near 0 lands
	// where its last bit of likelihood gradient, about n·10^(-R/400) games,
	// equals the prior's pull R/priorSD² (in matching units): 100 straight
	// wins over the anchor give about 1,800 Elo instead of infinity.
	//
	// Why so wide: the prior pulls every agent towards the anchor at once,
	// and only the games against the anchor resist that common pull, the
	// weakest link in a league whose checkpoints crush random. Measured
	// with 300 checkpoints at +300..+600 Elo and 18 games a pair, the
	// largest move against pure maximum likelihood was 23 Elo for
	// priorSD = 1,000, 1.0 for 5,000 and 0.25 for 10,000; on a 0..1,100 Elo
	// round-robin with only 110 games an agent, 0.7 Elo (TestPriorEffect).
	// Fit must agree with a pure-ML program like Ordo within 5 Elo. The move
	// shrinks as 1/priorSD², while a perfect record grows only as
	// log(priorSD).
	//
	// Why not virtual draws: a fraction ε of a draw credited to every pair
	// that met (BayesElo's kind of prior) keeps ratings invariant to a
	// common shift, but pulls once per pair rather than once per agent, so
	// in a dense league an agent's many lopsided pairs add up and squeeze
	// the scale: for the same perfect-record rating (ε = 0.003) it moved
	// the agents above by 0.4 to 1.6 Elo. A virtual draw against the anchor
	// pulls once per agent, like the Gaussian, but with a force that stops
	// growing at half a game: tuned to move mixed records as little, it
	// leaves a perfect record as far out, so it buys nothing over the
	// Gaussian's one quadratic term.
	priorSD = 10000.0

	// z95 is the two-sided 95% quantile of the standard normal distribution.
	z95 = 1.959963984540054
)

// eloPerLogit is the Elo value of one natural-log unit of odds: 400 Elo per
// factor of ten in odds. Fit works internally in logits, x = R/eloPerLogit,
// where p = 1/(1 + e^(x_B - x_A)).
var eloPerLogit = 400 / math.Ln10

// Fit returns ratings for every agent that appears in pairs (and the
// anchors, at their values), sorted by agent id. It returns ErrDisconnected
// (wrapped, with the agent's id) when an agent has no path of games to an
// anchor, and an error for negative counts or bad anchors (none, one twice,
// a value out of range). Games between two anchors count in Games and say
// nothing else.
//
// The 95% interval is Elo ± 1.96 standard errors from the curvature of the
// log-posterior at its maximum (the observed Fisher information). The exact
// variance of an agent's rating is a diagonal entry of the inverse of that
// n×n matrix, O(n³) to compute: too slow for 1,000 agents. See variances for
// the O(games) approximation used instead, and how it compares.
func Fit(pairs []Pair, anchors []Anchor) ([]Rating, error) {
	return fit(pairs, anchors, priorSD)
}

// fit is Fit with the prior's standard deviation as a parameter, so a test
// can measure the prior's effect (+Inf is pure maximum likelihood).
func fit(pairs []Pair, anchors []Anchor, sd float64) ([]Rating, error) {
	// STEP 1: agents by sorted id, games merged per pair of agents in sorted
	// order. Every later sum runs in that order, so the input order cannot
	// change the result.
	if err := checkAnchors(anchors); err != nil {
		return nil, err
	}
	gr, err := newGraph(pairs, anchors)
	if err != nil {
		return nil, err
	}
	// STEP 2: refuse agents that the games do not tie to an anchor.
	if err := gr.connected(); err != nil {
		return nil, err
	}
	// STEP 3: the ratings that maximise the log-posterior, by Newton.
	prec := math.Pow(eloPerLogit/sd, 2) // the prior's precision per logit²
	x, ev, err := gr.maximise(prec)
	if err != nil {
		return nil, err
	}
	// STEP 4: a 95% interval from the curvature at the maximum.
	vars := gr.variances(ev, prec)
	out := make([]Rating, len(gr.ids))
	for k, id := range gr.ids {
		r := Rating{Agent: id, Games: gr.games[k], Elo: gr.value[k], Lo: gr.value[k], Hi: gr.value[k]}
		if !gr.fixed[k] {
			r.Elo = x[k] * eloPerLogit
			r.Lo, r.Hi = interval(r.Elo, vars[k])
		}
		out[k] = r
	}
	return out, nil
}
