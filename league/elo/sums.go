package elo

import "math"

// The sums behind Ratings, and the one move that changes them.
//
// Every agent keeps two sums: the slope of the log-posterior in its own
// rating, Σ (s - n·p) over its games with rated opponents plus its
// prior's pull, and the curvature of those games, Σ n·p·(1-p), both in
// logits. They are integers, in units of 1/fixOne of a game, and each
// term is cut to that grid before it is added: the sums are then exactly
// the sums from scratch over the present ratings and records, whatever
// order the results came in and whatever moves led there. That is what
// lets a league reloaded from its ratings and its pairs go on to the bit
// as if it had never stopped: the sums, and all that they decide, depend
// on the state alone, not on its history.

// fixOne is one game in the sums' fixed point: a term is off by under
// 1e-9 of a game, so 100,000 of them by under 1e-4, while an agent's
// slope is read against a curvature of at least a few games per
// opponent. An agent's sums stay within int64 up to 2^33 games
// (maxAgentGames is 2^31).
const fixOne = 1 << 30

// settleTolLogit is settleTol in logits.
var settleTolLogit = settleTol / eloPerLogit

// node is the part of an agent's state that a move reads and writes for
// every opponent: 32 bytes, two to a cache line, since in a large league
// most opponents' nodes are out of cache. The rest is in Ratings' elos,
// slots and direct.
type node struct {
	e    float64 // e^(elo/eloPerLogit), its strength in p = e_a/(e_a+e_b); 0 while unrated
	g, h int64   // the log-posterior's slope in its rating and its edges' curvature, fixed point

	key   uint16 // its key in the queue, or 0
	bound int8   // +1 at maxElo, -1 at -maxElo, else 0
	moved bool   // in Ratings.moved
	stale bool   // in Ratings.stale
	band  uint8  // bandOf its rating
}

// halfEdge is one agent's record against one opponent: n games, of which
// it scored s2/2. Each edge is stored twice, once per side, in 8 bytes:
// the n ≤ maxPairGames limit is what makes s2 fit in 16 bits.
type halfEdge struct {
	opp   int32
	n, s2 uint16
}

// term returns what one edge adds to the sums of its two sides, a and b:
// their slopes s - n·p, and the curvature n·p·(1-p) that they share, in
// fixed point. a scored s2/2 of the n games, and ea, eb are their
// strengths, p = ea/(ea+eb) for a. Called from b's side, with b's score
// and the strengths swapped, it gives the same bits: the sum and the
// product of ea and eb do not depend on their order.
func term(n, s2, ea, eb float64) (ga, gb, h int64) {
	q := 1 / (ea + eb)
	pa, pb := ea*q, eb*q
	ga = int64((s2/2 - n*pa) * fixOne)
	gb = int64(((2*n-s2)/2 - n*pb) * fixOne)
	return ga, gb, int64(n * (pa * pb) * fixOne)
}

// slope returns the log-posterior's slope and curvature, in logits, in
// the rating of an agent whose sums are g and h.
func (r *Ratings) slope(g, h int64) (slope, curv float64) {
	return float64(g) / fixOne, float64(h)/fixOne + r.prec
}

// prior returns the prior's part of the slope at a rating elo, in fixed
// point. The anchors have none.
func (r *Ratings) prior(elo float64) int64 { return int64(-r.precElo * elo * fixOne) }

// sums returns agent k's sums were its rating elo and its strength e, its
// opponents' held fixed, and the part of h from its games with anchors
// (none for an anchor: games between anchors count in no sum).
func (r *Ratings) sums(k int32, elo, e float64) (g, h, direct int64) {
	anchor := r.anchored(k)
	for _, he := range r.edges[k] {
		if o := &r.nodes[he.opp]; o.e != 0 && !(anchor && r.anchored(he.opp)) {
			dg, _, dh := term(float64(he.n), float64(he.s2), e, o.e)
			g, h = g+dg, h+dh
			if r.anchored(he.opp) {
				direct += dh
			}
		}
	}
	if !anchor {
		g += r.prior(elo)
	}
	return g, h, direct
}

// move sets agent k's rating to elo, rating it if it had none, and brings
// the sums of k and of its rated opponents up to date, and the queue: see
// resum. It returns the edges it visited.
func (r *Ratings) move(k int32, elo float64) int {
	r.resum(k, elo)
	for _, he := range r.edges[k] {
		r.recheck(he.opp)
	}
	r.recheck(k)
	return len(r.edges[k])
}

// resum sets agent k's rating to elo, rating it if it had none, and brings
// the sums of k and of its rated opponents up to date, and the band sums:
// each edge's old term leaves the opponent's sums and the new one enters,
// in integers, so they stay the sums from scratch. The queue is left to
// the caller. An anchor moves once, to its value, when it has no games
// yet.
func (r *Ratings) resum(k int32, elo float64) {
	nd := &r.nodes[k]
	anchor := r.anchored(k)
	old, e := nd.e, math.Exp(elo/eloPerLogit)
	was, now := r.bandAt(k), -1 // k's band for the band sums, before and after
	if !anchor {
		now = int(bandOf(elo))
	}
	var g, h, direct int64
	for _, he := range r.edges[k] {
		o := &r.nodes[he.opp]
		if o.e == 0 {
			continue
		}
		ob := -1 // o's band, an anchor's -1
		if he.opp >= r.nb.anchors {
			ob = int(o.band)
		}
		n, s2 := float64(he.n), float64(he.s2)
		if old != 0 {
			_, og, oh := term(n, s2, old, o.e)
			o.g, o.h = o.g-og, o.h-oh
			r.bands.join(was, ob, -oh)
			if ob >= 0 {
				r.bands.g[ob] -= og
			}
		}
		kg, og, wh := term(n, s2, e, o.e)
		o.g, o.h = o.g+og, o.h+wh
		r.bands.join(now, ob, wh)
		if ob >= 0 {
			r.bands.g[ob] += og
		} else {
			direct += wh
		}
		g, h = g+kg, h+wh
	}
	if !anchor {
		g += r.prior(elo)
		if old != 0 {
			r.bands.g[was] -= nd.g
			r.bands.n[was]--
		}
		r.bands.g[now] += g
		r.bands.n[now]++
	}
	if old == 0 {
		r.rated++
	}
	r.rate(k, elo)
	nd.g, nd.h, r.direct[k] = g, h, direct
}

// rate sets agent k's rating, and its strength, bound and band with it.
func (r *Ratings) rate(k int32, elo float64) {
	nd := &r.nodes[k]
	r.elos[k], nd.e, nd.bound, nd.band = elo, math.Exp(elo/eloPerLogit), 0, bandOf(elo)
	if math.Abs(elo) == maxElo {
		nd.bound = int8(elo / maxElo)
	}
}
