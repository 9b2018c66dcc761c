package elo

import "math"

// The queue of pending agents, those whose Newton step exceeds settleTol:
// a binary heap with the largest step on top (within a factor of two)
// and, at equal keys, the lowest id. The steps come from the sums alone,
// and ids are unique, so which agent is on top is decided by the state,
// never by the order in which agents joined the heap.

// pending is one agent in the queue.
type pending struct {
	key uint16 // the binary exponent of its step: see recheck
	id  int64
	k   int32
}

// before orders the queue.
func (a pending) before(b pending) bool {
	return a.key > b.key || a.key == b.key && a.id < b.id
}

// recheck puts agent k in the queue, or takes it out, or moves it there,
// as its step now requires. The anchors never move, and an agent at
// ±maxElo is not pending for a step that would take it further.
//
// The queue orders agents by the binary exponent of their step rather
// than the step itself, so that it is not touched when an opponent's move
// changes an agent's step by less than a factor of two, as most do: the
// order stays largest step first within that factor.
func (r *Ratings) recheck(k int32) {
	nd := &r.nodes[k]
	key := uint16(0) // not pending
	if !r.anchored(k) && nd.e != 0 {
		slope, curv := r.slope(nd.g, nd.h)
		if math.Abs(slope) > settleTolLogit*curv && float64(nd.bound)*slope <= 0 {
			key = uint16(math.Float64bits(eloPerLogit*math.Abs(slope)/curv) >> 52)
		}
	}
	switch {
	case key == nd.key:
	case key != 0:
		r.enqueue(pending{key, r.nb.ids[k], k})
	default:
		i := int(r.slots[k])
		last := len(r.queue) - 1
		r.swap(i, last)
		r.queue = r.queue[:last]
		r.slots[k], nd.key = -1, 0
		if i < last {
			r.up(r.down(i))
		}
	}
}

// enqueue adds p to the queue, or updates its key.
func (r *Ratings) enqueue(p pending) {
	i := int(r.slots[p.k])
	if i < 0 {
		i = len(r.queue)
		r.queue = append(r.queue, p)
		r.slots[p.k] = int32(i)
	} else {
		r.queue[i] = p
	}
	r.nodes[p.k].key = p.key
	r.up(r.down(i))
}

// up moves the item at i up while it comes before its parent.
func (r *Ratings) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !r.queue[i].before(r.queue[parent]) {
			return
		}
		r.swap(i, parent)
		i = parent
	}
}

// down moves the item at i down while a child comes before it, and
// returns where it stops.
func (r *Ratings) down(i int) int {
	for {
		first := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(r.queue) && r.queue[c].before(r.queue[first]) {
				first = c
			}
		}
		if first == i {
			return i
		}
		r.swap(i, first)
		i = first
	}
}

// swap exchanges two items of the queue and their slots.
func (r *Ratings) swap(i, j int) {
	q := r.queue
	q[i], q[j] = q[j], q[i]
	r.slots[q[i].k], r.slots[q[j].k] = int32(i), int32(j)
}
