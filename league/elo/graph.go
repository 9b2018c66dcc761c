package elo

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// graph is the input in the form the solver wants: agents by index in
// sorted-id order, and one edge per pair of agents that played, stored with
// the lower index (compressed sparse rows): agent a's edges to higher
// agents are first[a] <= e < first[a+1], sorted by j. A pair of two
// anchors has no edge: it moves nothing.
type graph struct {
	ids   []int64   // agent ids, sorted
	fixed []bool    // by index: an anchor
	value []float64 // by index: an anchor's Elo, 0 for the others
	games []int     // games played, per agent

	first []int32   // where each agent's edges start; len(ids)+1 entries
	j     []int32   // the higher agent of each edge
	n, s  []float64 // games, and the lower agent's score (wins + draws/2), per edge

	cut [parts + 1]int // agents cut[p] <= a < cut[p+1] form part p: about equal edges
}

// rec is one Pair as indices, oriented lower index first once they are
// final: n games and s the lower agent's score. Sums of these integers and
// halves are exact in float64, so merging in any order gives the same bits.
type rec struct {
	lo, hi int32
	n, s   float64
}

// newGraph indexes the agents and merges the pairs into sorted edges.
func newGraph(pairs []Pair, anchors []Anchor) (*graph, error) {
	// STEP 1: number the agents as they first appear, the anchors first,
	// and collect the records with those numbers.
	nb := newNumbering(pairs, anchors)
	recs := make([]rec, 0, len(pairs))
	for _, p := range pairs {
		if err := p.check(); err != nil {
			return nil, err
		}
		a, b := nb.number(p.A), nb.number(p.B)
		n := p.Wins + p.Draws + p.Losses
		nb.games[a] += n
		if a != b {
			nb.games[b] += n
			if n > 0 && !(nb.anchored(a) && nb.anchored(b)) {
				recs = append(recs, rec{a, b, float64(n), p.Points()})
			}
		}
	}
	// STEP 2: renumber by sorted id, the lower index first in each record.
	order := make([]int32, len(nb.ids)) // first-seen numbers, by id
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(nb.ids[a], nb.ids[b]) })
	n := len(order)
	gr := &graph{ids: make([]int64, n), fixed: make([]bool, n), value: make([]float64, n), games: make([]int, n)}
	final := make([]int32, n)
	for k, old := range order {
		final[old] = int32(k)
		gr.ids[k], gr.games[k] = nb.ids[old], nb.games[old]
	}
	for i, a := range anchors {
		gr.fixed[final[i]], gr.value[final[i]] = true, a.Elo
	}
	for k := range recs {
		r := &recs[k]
		r.lo, r.hi = final[r.lo], final[r.hi]
		if r.lo > r.hi {
			r.lo, r.hi, r.s = r.hi, r.lo, r.n-r.s
		}
	}
	// STEP 3: sort by (lo, hi) with two stable counting sorts, hi then lo,
	// O(pairs + agents); merge equal pairs; store as rows.
	tmp := make([]rec, len(recs))
	countingSort(tmp, recs, len(order), true)
	countingSort(recs, tmp, len(order), false)
	merged := recs[:0]
	for _, r := range recs {
		if last := len(merged) - 1; last >= 0 && merged[last].lo == r.lo && merged[last].hi == r.hi {
			merged[last].n += r.n
			merged[last].s += r.s
		} else {
			merged = append(merged, r)
		}
	}
	gr.first = make([]int32, len(gr.ids)+1)
	gr.j, gr.n, gr.s = make([]int32, len(merged)), make([]float64, len(merged)), make([]float64, len(merged))
	for e, r := range merged {
		gr.first[r.lo+1]++
		gr.j[e], gr.n[e], gr.s[e] = r.hi, r.n, r.s
	}
	for k := range gr.ids {
		gr.first[k+1] += gr.first[k]
	}
	// STEP 4: cut the agents into parts with about equal numbers of edges.
	a := 0
	for p := 1; p < parts; p++ {
		for a < len(gr.ids) && int(gr.first[a])*parts < p*len(merged) {
			a++
		}
		gr.cut[p] = a
	}
	gr.cut[parts] = len(gr.ids)
	return gr, nil
}

// numbering numbers agent ids in the order they first appear, the anchors
// first, and counts their games.
type numbering struct {
	ids     []int64 // by number
	games   []int   // by number
	anchors int32   // numbers below it are the anchors'

	// Agent ids are database row ids, dense from 1. When they span a small
	// range, a table indexed by id numbers them much faster than a map,
	// which matters for a round-robin's million lookups. The map remains
	// for sparse ids.
	low   int64           // the lowest id
	table []int32         // number by id-low, -1 if not seen yet; or nil
	index map[int64]int32 // number by id, when table is nil
}

// newNumbering returns a numbering with the anchors numbered 0, 1, ... in
// their order, and a table if the ids in pairs span a small enough range.
// The anchors are distinct (checkAnchors).
func newNumbering(pairs []Pair, anchors []Anchor) *numbering {
	nb := &numbering{low: anchors[0].ID, anchors: int32(len(anchors))}
	high := nb.low
	for _, a := range anchors {
		nb.low, high = min(nb.low, a.ID), max(high, a.ID)
	}
	for _, p := range pairs {
		nb.low, high = min(nb.low, p.A, p.B), max(high, p.A, p.B)
	}
	if span := uint64(high) - uint64(nb.low); span < uint64(4*len(pairs)+1024) {
		nb.table = make([]int32, span+1)
		for k := range nb.table {
			nb.table[k] = -1
		}
	} else {
		nb.index = map[int64]int32{}
	}
	for _, a := range anchors {
		nb.number(a.ID)
	}
	return nb
}

// anchored says whether number k is an anchor's.
func (nb *numbering) anchored(k int32) bool { return k < nb.anchors }

// lookup returns id's number, if it has one.
func (nb *numbering) lookup(id int64) (int32, bool) {
	if nb.table == nil {
		k, ok := nb.index[id]
		return k, ok
	}
	if off := uint64(id) - uint64(nb.low); off < uint64(len(nb.table)) && nb.table[off] >= 0 {
		return nb.table[off], true
	}
	return 0, false
}

// number returns id's number, giving it the next one if it is new.
func (nb *numbering) number(id int64) int32 {
	if k, ok := nb.lookup(id); ok {
		return k
	}
	return nb.add(id)
}

// add gives a new id the next number.
func (nb *numbering) add(id int64) int32 {
	k := int32(len(nb.ids))
	nb.ids, nb.games = append(nb.ids, id), append(nb.games, 0)
	nb.assign(id, k)
	return k
}

// assign numbers id k.
func (nb *numbering) assign(id int64, k int32) {
	nb.ids[k] = id
	if nb.table != nil && uint64(id)-uint64(nb.low) >= uint64(len(nb.table)) {
		nb.widen(id)
	}
	if nb.table != nil {
		nb.table[uint64(id)-uint64(nb.low)] = k
	} else {
		nb.index[id] = k
	}
}

// forget takes id's number away from it.
func (nb *numbering) forget(id int64) {
	if nb.table != nil {
		nb.table[uint64(id)-uint64(nb.low)] = -1
	} else {
		delete(nb.index, id)
	}
}

// widen makes the table reach id, with as much room again above for the
// ids to come, or gives it up for the map once the ids are too sparse.
// Fit's table covers every id from the start; Ratings meets the ids one
// at a time, mostly rising, and doubling keeps that O(1) per id.
func (nb *numbering) widen(id int64) {
	low := min(nb.low, id)
	high := max(nb.low+int64(len(nb.table))-1, id)
	span := uint64(high) - uint64(low)
	if span >= uint64(4*len(nb.ids)+1024) {
		nb.table, nb.index = nil, make(map[int64]int32, len(nb.ids))
		for k, id := range nb.ids {
			nb.index[id] = int32(k)
		}
		return
	}
	room := uint64(math.MaxInt64) - uint64(low) // ids above low, which int64 bounds
	table := make([]int32, min(2*span+1, room)+1)
	for k := range table {
		table[k] = -1
	}
	copy(table[uint64(nb.low)-uint64(low):], nb.table)
	nb.low, nb.table = low, table
}

// countingSort copies src into dst stably ordered by hi or by lo, both in
// [0, keys).
func countingSort(dst, src []rec, keys int, byHi bool) {
	key := func(r rec) int32 {
		if byHi {
			return r.hi
		}
		return r.lo
	}
	next := make([]int, keys+1) // where the next rec with each key goes
	for _, r := range src {
		next[key(r)+1]++
	}
	for k := 1; k <= keys; k++ {
		next[k] += next[k-1]
	}
	for _, r := range src {
		dst[next[key(r)]] = r
		next[key(r)]++
	}
}

// connected returns ErrDisconnected, naming the lowest such agent id, if
// some agent cannot reach an anchor through edges (union-find).
func (gr *graph) connected() error {
	parent := make([]int32, len(gr.ids))
	for k := range parent {
		parent[k] = int32(k)
	}
	root := func(a int32) int32 {
		for parent[a] != a {
			parent[a] = parent[parent[a]]
			a = parent[a]
		}
		return a
	}
	for a := range gr.ids {
		for _, b := range gr.j[gr.first[a]:gr.first[a+1]] {
			parent[root(int32(a))] = root(b)
		}
	}
	home := make([]bool, len(gr.ids)) // by root: an anchor's
	for k := range gr.ids {
		if gr.fixed[k] {
			home[root(int32(k))] = true
		}
	}
	for k, id := range gr.ids {
		if !home[root(int32(k))] {
			return fmt.Errorf("%w: agent %d", ErrDisconnected, id)
		}
	}
	return nil
}
