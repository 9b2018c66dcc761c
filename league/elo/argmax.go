package elo

import "math"

// Maximising over one variable: one agent's rating, its opponents' held
// fixed, or the common shift of a cluster's ratings (bands.go).

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
