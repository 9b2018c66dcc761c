package elo

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

const (
	// settleTol is the largest Newton step, in Elo, that Settle leaves
	// untaken in one agent's rating: about what each new snapshot moves
	// the maximum by for its opponents' opponents. A smaller one costs
	// several times the moves for little, since what it would take is the
	// lag of clusters, which the shifts take (BENCHMARKS.md, "The fit's
	// two tolerances").
	settleTol = 0.005

	// shiftTol is the largest step, in Elo, of a band of ratings moving
	// together that Settle leaves untaken. A shift of most of the league
	// costs a pass over every game and rewrites every rating, so it
	// should be rare: the lag a new snapshot adds shrinks as the league
	// grows. The fit's largest error follows it, and its cost grows as
	// it shrinks (BENCHMARKS.md, "The fit's two tolerances"); at 0.04
	// the fit's error and the standings' step (store.StandingStep, 0.05)
	// stay within the tenth of an Elo that docs/league.md promises.
	shiftTol = 0.04

	// maxShifts bounds the shifts of one Settle: one is the rule, and
	// now and then the single moves leave a lag that takes a second.
	maxShifts = 10

	// maxPairGames is the most games Ratings takes between two agents, so
	// that a doubled score fits in 16 bits; the league plays 144 a pair.
	maxPairGames = 1<<15 - 1

	// maxAgentGames is the most games Ratings takes for one agent: its
	// fixed-point sums would overflow past 2^33.
	maxAgentGames = math.MaxInt32
)

// Ratings keeps the ratings of a league up to date as its results arrive:
// Fit's model, prior and anchors, and a cost per round that does not grow
// with the league.
//
// A new snapshot's games move the maximum mostly near it: its own rating,
// its opponents', theirs a little, and the rest hardly at all. So instead
// of Fit's Newton steps over every agent at once, Ratings moves one agent
// at a time (Gauss-Southwell, as "push" PageRank does). Every agent keeps
// the slope and curvature of the log-posterior in its own rating, summed
// over its games (see sums.go); an agent is pending while its Newton step
// exceeds settleTol; the agent with the largest step moves to the maximum
// over its own rating, the others held fixed, and pushes the change of
// each of its games into the opponent's sums. Settle repeats that until
// no agent is pending. A hub with 100,000 opponents costs 100,000 edge
// visits to move, but its curvature is 100,000 games' worth, so each new
// game moves its step 100,000 times less: it moves as much less often.
//
// Some directions defeat single moves: a group of agents moving together
// that plays the rest of the league little, such as every agent but the
// anchors, a learner's line 500 Elo above another's, or the top of the
// league stretched away from its middle. Only the few games that tie the
// group to the rest resist such a move, so its lag would pass from agent
// to agent for thousands of moves before it died out. In a league those
// groups lie along the rating scale, and Settle checks them all at once:
// it keeps the slopes of the agents in each band of ratings and the
// curvature of the games between bands, solves for the bands' common
// steps (bandSteps), and when one exceeds shiftTol moves every band by its
// step (shift), after which Moved lists every agent that moved. See
// bands.go.
//
// # The error
//
// Let g be the slopes Settle leaves, every one under settleTol times its
// agent's curvature. To second order the error is H⁻¹g, H the curvature
// matrix. Its part along the bands' directions is the bands' steps, each
// at most shiftTol; what is left sums to zero over every band, so that it
// cannot add up over a cluster, and is within a few settleTol of zero.
// TestRatingsLeague (2,000 checkpoints, the pools the league plays) and
// TestRatingsLines (the lines of two learners 500 Elo apart) measure it
// against Fit (docs/league.md, "How a league stays fast all night").
//
// # Determinism and restarts
//
// The sums are integers, each game's term cut to a fixed point before it
// is added, so they are exactly the sums from scratch of the present
// ratings and games, whatever the order of the pairs and the history of
// moves. Everything Settle decides comes from them and from the ratings:
// which agents are pending, their order (largest step first, then lowest
// id), the bands' steps; and a new agent's first rating comes from Settle, not from
// Add. The state is therefore the ratings and the pairs, what the league
// stores: Restore and Add rebuild it to the bit, and the same calls then
// give the same results, to the bit, whatever happened before (but for
// Moved, which reports what changed since its last call). Nothing depends
// on map order, scheduling or GOMAXPROCS. The bits do depend on the CPU,
// as Fit's do: math.Exp on amd64 takes another path where there is FMA.
type Ratings struct {
	nb        *numbering   // agent ids and games by number, the anchors first
	nodes     []node       // by number, as are the next four
	elos      []float64    // the ratings, kept in Elo so that Restore sets them to the bit
	slots     []int32      // positions in the queue, or -1
	edges     [][]halfEdge // one per opponent, in no useful order
	direct    []int64      // the curvature of the games with anchors, fixed point
	queue     []pending    // a heap: see queue.go
	fresh     []int32      // agents Add introduced since the last Settle
	stale     []int32      // agents whose sums Add changed since the last Settle
	moved     []int32      // agents whose Elo changed since the last Moved
	rated     int          // agents with a rating, the anchors included
	prec      float64      // the prior's precision per logit²
	precElo   float64      // prec/eloPerLogit: the prior's slope per Elo
	bands     bandSums     // what the shifts of bands need: see bands.go
	halfEdges int          // the lengths of edges, added up
}

// NewRatings returns Ratings that know only the anchors, each rated its
// value. It refuses what Fit refuses of anchors.
func NewRatings(anchors []Anchor) (*Ratings, error) {
	if err := checkAnchors(anchors); err != nil {
		return nil, err
	}
	prec := math.Pow(eloPerLogit/priorSD, 2)
	r := &Ratings{nb: newNumbering(nil, anchors), prec: prec, precElo: prec / eloPerLogit}
	for k, a := range anchors {
		r.grow()
		r.move(int32(k), a.Elo)
	}
	return r, nil
}

// anchored says whether agent k is an anchor.
func (r *Ratings) anchored(k int32) bool { return r.nb.anchored(k) }

// number returns id's number, adding an unrated agent if it is new.
func (r *Ratings) number(id int64) int32 {
	if k, ok := r.nb.lookup(id); ok {
		return k
	}
	k := r.nb.add(id)
	r.grow()
	r.fresh = append(r.fresh, k)
	return k
}

// grow adds the state of a new agent, unrated.
func (r *Ratings) grow() {
	r.nodes, r.elos, r.slots = append(r.nodes, node{}), append(r.elos, 0), append(r.slots, -1)
	r.edges, r.direct = append(r.edges, nil), append(r.direct, 0)
}

// Restore sets an agent's rating to a value that Rating gave earlier. A
// league that stores the Elo of the agents that Moved lists, and its
// pairs, resumes with Restore for every agent and Add for every pair, in
// any order, and goes on to the bit as if it had never stopped. Restore is
// not a move: the agent does not appear in Moved. An anchor can only be
// restored to its value: another is another scale.
func (r *Ratings) Restore(id int64, elo float64) error {
	if !(math.Abs(elo) <= maxElo) {
		return fmt.Errorf("elo: cannot restore agent %d to %v Elo", id, elo)
	}
	k := r.number(id)
	if r.anchored(k) {
		if elo != r.elos[k] {
			return fmt.Errorf("elo: cannot restore agent %d to %v Elo: it is anchored at %v", id, elo, r.elos[k])
		}
		return nil
	}
	r.move(k, elo)
	return nil
}

// Add adds a pair's results. Agents it has not seen join, without a rating
// until the next Settle. As in Fit, negative counts are an error, a Pair
// with A == B only counts in Games, and several Pairs of the same two
// agents add up; unlike Fit, two agents may play at most 32,767 games in
// all. On an error nothing changes.
func (r *Ratings) Add(p Pair) error {
	// STEP 1: check the limits before anything changes.
	if err := p.check(); err != nil {
		return err
	}
	if max(p.Wins, p.Draws, p.Losses) > maxAgentGames {
		return fmt.Errorf("elo: more than %d games for agent %d", maxAgentGames, p.A)
	}
	n := p.Wins + p.Draws + p.Losses
	for _, id := range [2]int64{p.A, p.B} {
		if k, ok := r.nb.lookup(id); ok && r.nb.games[k]+n > maxAgentGames {
			return fmt.Errorf("elo: more than %d games for agent %d", maxAgentGames, id)
		}
	}
	ea, eb := -1, -1 // the pair's edge, in A's and in B's list
	a, aok := r.nb.lookup(p.A)
	b, bok := r.nb.lookup(p.B)
	if aok && bok && a != b {
		ea, eb = r.edge(a, b)
	}
	if had := 0; p.A != p.B {
		if ea >= 0 {
			had = int(r.edges[a][ea].n)
		}
		if had+n > maxPairGames {
			return fmt.Errorf("elo: more than %d games between agents %d and %d", maxPairGames, p.A, p.B)
		}
	}
	// STEP 2: count the games; self-play says no more.
	a, b = r.number(p.A), r.number(p.B)
	r.nb.games[a] += n
	if a == b {
		return nil
	}
	r.nb.games[b] += n
	if n == 0 {
		return nil
	}
	// STEP 3: merge the record into the edge, and the edge's new terms
	// into the sums of its two sides if both are rated (and not both
	// anchors, whose games move nothing).
	both := r.nodes[a].e != 0 && r.nodes[b].e != 0 && !(r.anchored(a) && r.anchored(b))
	if ea < 0 {
		ea, eb = len(r.edges[a]), len(r.edges[b])
		r.edges[a] = append(r.edges[a], halfEdge{opp: b})
		r.edges[b] = append(r.edges[b], halfEdge{opp: a})
		r.halfEdges += 2
	} else if both {
		r.addTerms(a, b, r.edges[a][ea], -1)
	}
	ha, hb := &r.edges[a][ea], &r.edges[b][eb]
	ha.n, ha.s2 = ha.n+uint16(n), ha.s2+uint16(2*p.Wins+p.Draws)
	hb.n, hb.s2 = ha.n, 2*ha.n-ha.s2
	if both {
		r.addTerms(a, b, *ha, +1)
		r.markStale(a)
		r.markStale(b)
	}
	return nil
}

// edge returns the positions of the edge between a and b in their lists,
// or -1s. It looks in the shorter list first: a hub's list is long, and a
// new pair is the common case.
func (r *Ratings) edge(a, b int32) (int, int) {
	if len(r.edges[a]) > len(r.edges[b]) {
		eb, ea := r.edge(b, a)
		return ea, eb
	}
	for i, he := range r.edges[a] {
		if he.opp == b {
			for j, he := range r.edges[b] {
				if he.opp == a {
					return i, j
				}
			}
		}
	}
	return -1, -1
}

// addTerms adds (sign +1) or takes away (-1) the terms of a's edge he with
// b to the sums of both, and to the direct curvature of the side that is
// not an anchor if the other is.
func (r *Ratings) addTerms(a, b int32, he halfEdge, sign int64) {
	na, nb := &r.nodes[a], &r.nodes[b]
	ga, gb, h := term(float64(he.n), float64(he.s2), na.e, nb.e)
	na.g, na.h = na.g+sign*ga, na.h+sign*h
	nb.g, nb.h = nb.g+sign*gb, nb.h+sign*h
	ba, bb := r.bandAt(a), r.bandAt(b)
	r.bands.join(ba, bb, sign*h)
	if ba >= 0 {
		r.bands.g[ba] += sign * ga
	}
	if bb >= 0 {
		r.bands.g[bb] += sign * gb
	}
	if ba < 0 {
		r.direct[b] += sign * h
	} else if bb < 0 {
		r.direct[a] += sign * h
	}
}

// markStale notes that agent k's sums changed outside a move, for Settle
// to recheck it: Add leaves that to Settle, since a reload would otherwise
// move agents in and out of the queue at every pair.
func (r *Ratings) markStale(k int32) {
	if !r.nodes[k].stale {
		r.nodes[k].stale = true
		r.stale = append(r.stale, k)
	}
}

// Settled reports what a call to Settle did.
type Settled struct {
	Placed  int // new agents given their first rating
	Steps   int // moves of one agent to the maximum over its own rating
	Shifts  int // moves of every agent together
	Visits  int // edges visited, the measure of the budget
	Pending int // agents whose step still exceeds the tolerance
}

// Settle moves the ratings towards the maximum of the posterior until no
// agent's Newton step exceeds settleTol (0.005 Elo) and no band's common
// step exceeds shiftTol (0.04 Elo), or until budget edge visits are
// spent: it finishes the move it is in, so it may spend more, by one
// agent's edges or, for a shift, by every game. New agents get their first
// rating first, whatever the budget, each at its maximum against its
// rated opponents, in id order. See Ratings for what the tolerances mean
// for the error.
func (r *Ratings) Settle(budget int) Settled {
	var s Settled
	// STEP 1: place the new agents.
	fresh := slices.DeleteFunc(r.fresh, func(k int32) bool { return r.nodes[k].e != 0 })
	slices.SortFunc(fresh, func(a, b int32) int { return cmp.Compare(r.nb.ids[a], r.nb.ids[b]) })
	for _, k := range fresh {
		g, h, _ := r.sums(k, 0, 1)
		elo, visits := r.best(k, 0, g, h)
		s.Visits += len(r.edges[k]) + visits + r.move(k, elo)
		s.Placed++
		r.markMoved(k)
	}
	r.fresh = fresh[:0]
	// STEP 2: bring the queue up to date with the sums that Add changed.
	for _, k := range r.stale {
		r.nodes[k].stale = false
		r.recheck(k)
	}
	r.stale = r.stale[:0]
	// STEP 3: Gauss-Southwell: the agent with the largest step moves to
	// the maximum over its own rating, and pushes the change to its
	// opponents' sums. A lagging league shifts first, and again whenever
	// the single moves are done.
	first := true
	for s.Visits < budget {
		if first || len(r.queue) == 0 {
			first = false
			if steps, largest, _ := r.bandSteps(); s.Shifts < maxShifts && largest > shiftTol {
				s.Visits += r.shift(steps, largest)
				s.Shifts++
				continue
			}
		}
		if len(r.queue) == 0 {
			break
		}
		k := r.queue[0].k
		elo, visits := r.best(k, r.elos[k], r.nodes[k].g, r.nodes[k].h)
		s.Visits += visits + max(1, r.move(k, elo))
		s.Steps++
		r.markMoved(k)
	}
	s.Pending = len(r.queue)
	if _, largest, n := r.bandSteps(); largest > shiftTol {
		s.Pending = max(s.Pending, n)
	}
	return s
}

// markMoved notes that agent k's rating changed, for Moved.
func (r *Ratings) markMoved(k int32) {
	if !r.nodes[k].moved {
		r.nodes[k].moved = true
		r.moved = append(r.moved, k)
	}
}

// Moved returns the agents whose Elo changed since the last call, new
// agents' first ratings included, sorted by id, and forgets them: what a
// league must store to resume (see Restore). After a shift, that is every
// agent of the cluster it moved.
func (r *Ratings) Moved() []int64 {
	ids := make([]int64, len(r.moved))
	for i, k := range r.moved {
		ids[i] = r.nb.ids[k]
		r.nodes[k].moved = false
	}
	r.moved = r.moved[:0]
	slices.Sort(ids)
	return ids
}

// Rating returns an agent's rating: its Elo, its 95% interval by the
// approximation Fit uses (see variances), and its games; an anchor's is its
// value, with no interval. Agents that Add introduced and Settle has not
// rated yet, and unknown ones, return false.
//
// The interval comes from the present curvatures, worked out anew at each
// call in O(1): the curvatures drift with every move of an agent's
// opponents (the anchors never move), so an agent's interval changes a little
// without the agent moving, and Moved does not list it for that. The
// caller decides when an interval is worth storing.
func (r *Ratings) Rating(id int64) (Rating, bool) {
	k, ok := r.nb.lookup(id)
	if !ok || r.nodes[k].e == 0 {
		return Rating{}, false
	}
	out := Rating{Agent: id, Games: r.nb.games[k], Elo: r.elos[k]}
	if r.anchored(k) {
		out.Lo, out.Hi = out.Elo, out.Elo
		return out, true
	}
	// The interval needs the agent's curvature, its direct conductance to
	// the anchors (its games with them, and the prior), and the anchors'
	// total.
	direct := r.prec + float64(r.direct[k])/fixOne
	_, curv := r.slope(r.nodes[k].g, r.nodes[k].h)
	out.Lo, out.Hi = interval(out.Elo, resistance(curv, direct, r.anchorCurvature()))
	return out, true
}

// Estimate returns the rating a new agent would get from its results
// against rated agents, their ratings held fixed, and changes nothing. It
// is how the league places a snapshot after its first few games, to pick
// its nearest opponents; Settle later places the agent at the same value
// if those are all its games, one pair per opponent, and no one has moved
// since. Pairs without
// the agent on exactly one side, or against an agent without a rating, say
// nothing about it and are skipped.
func (r *Ratings) Estimate(results []Pair, agent int64) (float64, error) {
	type opponent struct{ e, n, s2 float64 }
	var opps []opponent
	for _, p := range results {
		if err := p.check(); err != nil {
			return 0, err
		}
		if (p.A == agent) == (p.B == agent) {
			continue
		}
		other, s2 := p.B, 2*p.Wins+p.Draws
		if p.B == agent {
			other, s2 = p.A, 2*p.Losses+p.Draws
		}
		if k, ok := r.nb.lookup(other); ok && r.nodes[k].e != 0 {
			opps = append(opps, opponent{r.nodes[k].e, float64(p.Wins + p.Draws + p.Losses), float64(s2)})
		}
	}
	at := func(elo float64) (float64, float64) {
		e := math.Exp(elo / eloPerLogit)
		g, h := r.prior(elo), int64(0)
		for _, o := range opps {
			dg, _, dh := term(o.n, o.s2, e, o.e)
			g, h = g+dg, h+dh
		}
		return r.slope(g, h)
	}
	slope, curv := at(0)
	elo, _ := argmax(0, slope, curv, at)
	return elo, nil
}

// Rename gives agent from the id to, which no agent has: the league rates
// a new snapshot before the commit that gives it its id, as agent 0, and
// renames it after. The state is the same as if the agent had been to
// from the start, so a league reloaded with the new id goes on to the bit
// as the renamed one does. It does nothing when from is unknown.
func (r *Ratings) Rename(from, to int64) error {
	k, ok := r.nb.lookup(from)
	if !ok {
		return nil
	}
	if _, taken := r.nb.lookup(to); taken {
		return fmt.Errorf("elo: cannot rename agent %d to %d, which exists", from, to)
	}
	r.nb.forget(from)
	r.nb.assign(to, k)
	if i := r.slots[k]; i >= 0 {
		// The queue breaks ties by id: the agent's place may change.
		r.queue[i].id = to
		r.up(r.down(int(i)))
	}
	return nil
}
