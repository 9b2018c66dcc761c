package elo

import (
	"math"
	"sync"
)

// Maximising over one variable: one agent's rating, its opponents' held
// fixed, or the common shift of every rating against the anchor.

const (
	// maxElo bounds every rating, so that e^(elo/eloPerLogit) and the sums
	// of two of them stay well inside float64. Only a chain of some twenty
	// all-win records could reach it.
	maxElo = 50000.0

	// maxStepElo is the largest Newton step argmax takes before it knows
	// on which side the maximum lies: from far out, where the curvature
	// vanishes, Newton's step can be any size.
	maxStepElo = 400.0

	// maxEvals bounds argmax's evaluations. Newton needs a handful from
	// anywhere within maxElo; bisection, its fallback, about fifty.
	maxEvals = 100
)

// wholeStepElo is the largest Newton step argmax takes without checking
// the slope at the far end. Moving one rating by δ logits changes each of
// its games' curvature by at most a factor e^|δ| (σ' changes no faster
// than itself), so after a Newton step δ the slope left is at most about
// curvature·δ²/2: a step of δ²/2 logits, here an eighth of settleTol. A
// moved agent leaves the queue in one move.
var wholeStepElo = eloPerLogit * math.Sqrt(settleTolLogit/4)

// clampElo returns elo within ±maxElo.
func clampElo(elo float64) float64 { return min(max(elo, -maxElo), maxElo) }

// argmax returns the x, in Elo, that maximises a concave function of it,
// starting from x where its slope and curvature (in logits) are slope and
// curv; at gives them anywhere else. It also returns how many times it
// called at.
//
// Concavity makes the slope's sign say on which side the maximum lies, so
// every point evaluated narrows a bracket around it, and a Newton step
// that would leave the bracket becomes a bisection. The last step, small
// enough to be right (wholeStepElo), is taken without a look.
func argmax(x, slope, curv float64, at func(x float64) (slope, curv float64)) (float64, int) {
	lo, hi := -maxElo, maxElo
	for evals := 0; ; evals++ {
		step := eloPerLogit * slope / curv
		if math.Abs(step) <= wholeStepElo || evals == maxEvals {
			return clampElo(x + step), evals
		}
		if step > 0 {
			lo = x
		} else {
			hi = x
		}
		next := x + min(max(step, -maxStepElo), maxStepElo)
		if !(lo < next && next < hi) {
			next = lo + (hi-lo)/2
		}
		x = next
		slope, curv = at(x)
	}
}

// best returns the rating of agent k that maximises the log-posterior with
// its opponents' ratings fixed, starting from elo where its sums are g
// and h, and the edges it visited.
func (r *Ratings) best(k int32, elo float64, g, h int64) (float64, int) {
	slope, curv := r.slope(g, h)
	x, evals := argmax(elo, slope, curv, func(elo float64) (float64, float64) {
		g, h, _ := r.sums(k, elo, math.Exp(elo/eloPerLogit))
		return r.slope(g, h)
	})
	return x, evals * len(r.edges[k])
}

// anchorCurvature is the curvature of the log-posterior along every agent
// but the anchors moving together, in logits: the games with anchors (the
// anchors' sums, which hold no game between two anchors) and the prior of
// every agent.
func (r *Ratings) anchorCurvature() float64 {
	var h int64
	for a := range r.nb.anchors {
		h += r.nodes[a].h
	}
	return float64(h)/fixOne + r.prec*float64(r.rated-int(r.nb.anchors))
}

// lag returns the Newton step, in Elo, of every agent but the anchors
// moving together: how far the league as a whole lags its maximum. Along
// that direction the games between two agents cancel out, leaving the
// games with anchors and the prior: minus the anchors' own slopes, and
// anchorCurvature.
func (r *Ratings) lag() float64 {
	var g int64
	for a := range r.nb.anchors {
		g += r.nodes[a].g
	}
	slope := -float64(g)/fixOne - r.precElo*(float64(r.sum)/eloFix)
	return eloPerLogit * slope / r.anchorCurvature()
}

// along returns the log-posterior's slope and curvature, in logits, along
// the common direction, were every agent but the anchors delta Elo higher:
// from the games with anchors, seen from the other side, and the prior.
func (r *Ratings) along(delta float64) (slope, curv float64) {
	f := math.Exp(delta / eloPerLogit)
	var g, h int64
	for a := range r.nb.anchors {
		ea := r.nodes[a].e
		for _, he := range r.edges[a] {
			if o := &r.nodes[he.opp]; o.e != 0 && !r.anchored(he.opp) {
				_, dg, dh := term(float64(he.n), float64(he.s2), ea, o.e*f)
				g, h = g+dg, h+dh
			}
		}
	}
	n := float64(r.rated - int(r.nb.anchors))
	return float64(g)/fixOne - r.precElo*(float64(r.sum)/eloFix+n*delta), float64(h)/fixOne + r.prec*n
}

// shift moves every rated agent but the anchors by the same amount, to the
// maximum along the common direction, and works out every sum anew: an
// agent's sums change by the moves of its opponents, so they must all be
// redone, not patched, to stay the sums from scratch. It returns the edges
// it visited.
func (r *Ratings) shift() int {
	// STEP 1: the common step, over the games with anchors.
	slope, curv := r.along(0)
	delta, evals := argmax(0, slope, curv, r.along)
	visits := 0
	for a := range r.nb.anchors {
		visits += (1 + evals) * len(r.edges[a])
	}
	// STEP 2: the new ratings.
	r.sum = 0
	for k := r.nb.anchors; k < int32(len(r.nodes)); k++ {
		if r.nodes[k].e != 0 {
			r.rate(k, clampElo(r.elos[k]+delta))
			r.sum += int64(r.elos[k] * eloFix)
			r.markMoved(k)
		}
	}
	// STEP 3: the sums, in parts at once: each agent's from its own
	// edges, so the parts share nothing they write. Then the queue.
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			for k := p * len(r.nodes) / parts; k < (p+1)*len(r.nodes)/parts; k++ {
				if nd := &r.nodes[k]; nd.e != 0 {
					nd.g, nd.h, r.direct[k] = r.sums(int32(k), r.elos[k], nd.e)
				}
			}
		})
	}
	wg.Wait()
	for k := range r.nodes {
		visits += len(r.edges[k])
		r.recheck(int32(k))
	}
	return visits
}
