package elo

import (
	"math"
	"sync"
)

// Shifts of bands: the agents of each band of ratings moving together,
// each band by its own amount, the anchors held.
//
// Single moves leave each agent's step under settleTol, but steps left
// that point the same way add up over agents that play each other much
// and the rest of the league little: a cluster lags together, by the sum
// of their slopes over the few games that tie it to the rest, and a
// league as a whole can lag its anchors in a stretch rather than a shift,
// its top further behind than its middle. Single moves pass such a lag
// from agent to agent for thousands of moves before it dies out. In a
// league these slow directions lie along the rating scale: pools pair
// agents near each other in rating, and a game between agents far apart
// says little (its curvature n·p·(1-p) is small), so the clusters are a
// learner 500 Elo above another, or the top of the league above every
// anchor. The directions of the bands of bandElo Elo span them all, and
// solving for the bands' steps at once (the coarse level of a two-level
// method, aggregation by ratings) finds a cluster's lag, a stretch's and
// the whole league's alike.
//
// Along those directions the games within a band cancel out. What is left
// is, per band, the sum of its agents' slopes and their number (for the
// prior), and per pair of bands, and per band with the anchors, the
// curvature of the games between them: the league keeps those sums, a few
// additions per game a move changes, and the bands' Newton step costs a
// Cholesky factorisation over the occupied bands, thirty in a Connect
// Four league from random to the solver: microseconds.

const (
	// bandElo is the width of a band: a gap between clusters is hundreds
	// of Elo, and within a band the single moves do the work.
	bandElo = 50

	// bandLow is the lower edge of band 1: band 0 holds every rating
	// below it, the last band every rating above the top edge.
	bandLow = -1000.0

	// bands is the number of bands: 81 reach 3,000 Elo, above every
	// player ttt has.
	bands = 81
)

// bandOf returns the band of a rating.
func bandOf(elo float64) uint8 {
	b := math.Floor((elo-bandLow)/bandElo) + 1
	return uint8(min(max(b, 0), bands-1))
}

// bandSums are the sums the bands' step needs, in the fixed point of an
// agent's sums, kept up to date by every change of a game's terms.
type bandSums struct {
	g [bands]int64 // the slopes, prior included, of the rated agents in each band, not anchors
	n [bands]int32 // the rated agents in each band, not anchors
	// link[b][c], b < c, is the curvature of the games between bands b
	// and c; link[b][b] that of band b's games with anchors.
	link [bands][bands]int64
}

// join adds curvature h of a game between agents of bands a and b to
// the links; an anchor's band is -1. A game within a band, or between
// anchors, joins nothing.
func (bs *bandSums) join(a, b int, h int64) {
	switch {
	case a == b:
	case a < 0:
		bs.link[b][b] += h
	case b < 0:
		bs.link[a][a] += h
	default:
		bs.link[min(a, b)][max(a, b)] += h
	}
}

// bandAt returns agent k's band for the sums, -1 for an anchor.
func (r *Ratings) bandAt(k int32) int {
	if r.anchored(k) {
		return -1
	}
	return int(r.nodes[k].band)
}

// bandSteps returns the Newton step of every band, in Elo, its agents
// moving together and the anchors held, the others' ratings as they are,
// with the largest, and the agents in bands whose step exceeds shiftTol.
// It works from the sums alone, by a Cholesky factorisation in the order
// of the bands, so its bits depend on the state and nothing else.
func (r *Ratings) bandSteps() (steps [bands]float64, largest float64, lagging int) {
	// STEP 1: the bands' curvature matrix H and slopes g, over the
	// occupied bands.
	var occupied []int
	for b := range bands {
		if r.bands.n[b] > 0 {
			occupied = append(occupied, b)
		}
	}
	m := len(occupied)
	if m == 0 {
		return steps, 0, 0
	}
	h := make([]float64, m*m)
	g := make([]float64, m)
	for i, b := range occupied {
		g[i] = float64(r.bands.g[b]) / fixOne
		h[i*m+i] += float64(r.bands.link[b][b])/fixOne + r.prec*float64(r.bands.n[b])
		for j := i + 1; j < m; j++ {
			w := float64(r.bands.link[b][occupied[j]]) / fixOne
			h[i*m+j], h[j*m+i] = -w, -w
			h[i*m+i] += w
			h[j*m+j] += w
		}
	}
	// STEP 2: H = L·Lᵀ, then L·Lᵀ·d = g. H is positive definite: the
	// prior ties every band to the anchors.
	for j := range m {
		for k := range j {
			h[j*m+j] -= h[j*m+k] * h[j*m+k]
		}
		h[j*m+j] = math.Sqrt(h[j*m+j])
		for i := j + 1; i < m; i++ {
			for k := range j {
				h[i*m+j] -= h[i*m+k] * h[j*m+k]
			}
			h[i*m+j] /= h[j*m+j]
		}
	}
	for i := range m {
		for k := range i {
			g[i] -= h[i*m+k] * g[k]
		}
		g[i] /= h[i*m+i]
	}
	for i := m - 1; i >= 0; i-- {
		for k := i + 1; k < m; k++ {
			g[i] -= h[k*m+i] * g[k]
		}
		g[i] /= h[i*m+i]
	}
	for i, b := range occupied {
		steps[b] = g[i] * eloPerLogit
		largest = max(largest, math.Abs(steps[b]))
		if math.Abs(steps[b]) > shiftTol {
			lagging += int(r.bands.n[b])
		}
	}
	return steps, largest, lagging
}

// alongBands returns the log-posterior's slope and curvature, in logits,
// along the bands' steps (the rated agents members, each by its band's
// step d[k], 0 for the agents outside them), were the ratings t times the
// steps further: each game of a member counts from each side that moves,
// the member's step times its slope, and its curvature by the square of
// the difference of the steps. Every term is cut to the fixed point
// before it is added, so that the order of members changes nothing.
func (r *Ratings) alongBands(members []int32, d []float64, t float64) (slope, curv float64) {
	var g, h int64
	for _, k := range members {
		dk := d[k]
		ek := r.nodes[k].e * math.Exp(t*dk/eloPerLogit)
		for _, he := range r.edges[k] {
			o := &r.nodes[he.opp]
			if o.e == 0 {
				continue
			}
			eo := o.e
			if d[he.opp] != 0 {
				eo *= math.Exp(t * d[he.opp] / eloPerLogit)
			}
			gk, _, w := term(float64(he.n), float64(he.s2), ek, eo)
			diff := (dk - d[he.opp]) / eloPerLogit
			g += int64(float64(gk) * dk / eloPerLogit)
			if d[he.opp] != 0 {
				h += int64(float64(w) * diff * diff / 2) // the other side adds as much
			} else {
				h += int64(float64(w) * diff * diff)
			}
		}
		x := (r.elos[k] + t*dk) / eloPerLogit
		g += int64(-r.prec * x * dk / eloPerLogit * fixOne)
		h += int64(r.prec * dk / eloPerLogit * dk / eloPerLogit * fixOne)
	}
	return float64(g) / fixOne, float64(h) / fixOne
}

// shift moves the rated agents of every band whose step exceeds
// settleTol by that step, as far along all those steps together as
// maximises the log-posterior (the whole of them when the largest is
// small enough for Newton to be right). It returns the edges and agents
// it visited.
//
// The sums must stay the sums from scratch. A few agents move one by
// one, each move taking its games' old terms out of its opponents' sums
// and putting the new ones in (resum), which gives the same sums whatever
// the order; when the agents that move hold most of the games, as in a
// shift of the whole league, every sum is worked out anew (recompute),
// which visits every game once rather than the moving agents' twice.
func (r *Ratings) shift(steps [bands]float64, largest float64) int {
	// STEP 1: the agents, and each one's step.
	var members []int32
	d := make([]float64, len(r.nodes))
	held := 0 // their half-edges
	for k := r.nb.anchors; k < int32(len(r.nodes)); k++ {
		if nd := &r.nodes[k]; nd.e != 0 && math.Abs(steps[nd.band]) > settleTol {
			members = append(members, k)
			d[k] = steps[nd.band]
			held += len(r.edges[k])
		}
	}
	// STEP 2: how far along them: from far, Newton's step may overshoot,
	// and argmax looks, in Elo of the largest step.
	visits, t := 0, 1.0
	if largest > wholeStepElo {
		at := func(x float64) (float64, float64) {
			slope, curv := r.alongBands(members, d, x/largest)
			return slope, curv * eloPerLogit / largest
		}
		slope, curv := at(0)
		x, evals := argmax(0, slope, curv, at)
		t = x / largest
		visits += (1 + evals) * held
	}
	// STEP 3: the moves, then the queue, once for every agent rather
	// than once for every game of a member.
	if 2*held > r.halfEdges {
		for _, k := range members {
			r.rate(k, clampElo(r.elos[k]+t*d[k]))
			r.markMoved(k)
		}
		visits += r.recompute()
	} else {
		for _, k := range members {
			r.resum(k, clampElo(r.elos[k]+t*d[k]))
			r.markMoved(k)
		}
		visits += held
	}
	for k := range r.nodes {
		r.recheck(int32(k))
	}
	return visits + len(r.nodes)
}

// recompute works out every agent's sums and the band sums from the
// ratings and the games alone, in parts at once:
// each part writes the sums of its own agents, and band sums of its own
// that are added up after. Each game's curvature joins the bands from the
// side of its lower-numbered agent. It returns the edges it visited.
func (r *Ratings) recompute() int {
	var sums [parts]bandSums
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			bs := &sums[p]
			for k := int32(p * len(r.nodes) / parts); k < int32((p+1)*len(r.nodes)/parts); k++ {
				nd := &r.nodes[k]
				if nd.e == 0 {
					continue
				}
				kb, anchor := r.bandAt(k), r.anchored(k)
				var g, h, direct int64
				for _, he := range r.edges[k] {
					o := &r.nodes[he.opp]
					if o.e == 0 || anchor && r.anchored(he.opp) {
						continue
					}
					dg, _, dh := term(float64(he.n), float64(he.s2), nd.e, o.e)
					g, h = g+dg, h+dh
					ob := r.bandAt(he.opp)
					if ob < 0 {
						direct += dh
					}
					if k < he.opp {
						bs.join(kb, ob, dh)
					}
				}
				if !anchor {
					g += r.prior(r.elos[k])
					bs.g[kb] += g
					bs.n[kb]++
				}
				nd.g, nd.h, r.direct[k] = g, h, direct
			}
		})
	}
	wg.Wait()
	r.bands = bandSums{}
	for p := range parts {
		r.bands.add(&sums[p])
	}
	return r.halfEdges
}

// add adds the sums of o to bs.
func (bs *bandSums) add(o *bandSums) {
	for b := range bands {
		bs.g[b] += o.g[b]
		bs.n[b] += o.n[b]
		for c := b; c < bands; c++ {
			bs.link[b][c] += o.link[b][c]
		}
	}
}
