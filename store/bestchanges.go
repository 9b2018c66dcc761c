package store

import (
	"cmp"
	"slices"

	"github.com/google/btree"
)

// BestChange is a round at whose end the league's best (Best, by the
// best rule) was another network than at the end of the round before:
// the round, and the network that became the best.
type BestChange struct {
	Round int64
	Agent int64
}

// BestHistory is the league's best round by round, read back from the
// rating history: the best rule orders the networks by class, which a
// network keeps, and by the low end of its interval, which a standing
// changes only with a history row; so the rows up to a round give the
// best at its end, with no table of its own, and a restart loses
// nothing. Update reads the rows since the last round it read; it is
// not safe for concurrent use.
type BestHistory struct {
	Round   int64        // the last round read
	Changes []BestChange // oldest first
	ranked  *btree.BTreeG[bestKey]
	keys    map[int64]bestKey
}

// bestKey is a network's place in the best rule's order.
type bestKey struct {
	class int
	lo    float64
	agent int64
}

// bestLess orders bestKeys as the best rule does, the best last.
func bestLess(a, b bestKey) bool {
	if c := cmp.Or(cmp.Compare(a.class, b.class), cmp.Compare(a.lo, b.lo)); c != 0 {
		return c < 0
	}
	return a.agent < b.agent
}

// NewBestHistory returns a history that has read no round.
func NewBestHistory() *BestHistory {
	return &BestHistory{ranked: btree.NewG(32, bestLess), keys: map[int64]bestKey{}}
}

// Update reads the rating history of the networks from the round after
// h.Round to the newest, in round order, and adds each change of the
// best. The history has no index by round: the standings say which
// networks have rows since (a standing's round is its newest row's, or
// later), and each one's rows are read through its own.
func (h *BestHistory) Update(v *View) error {
	// The networks that can be best, as the best rule has them: those
	// whose standing has a class.
	rows, err := v.tx.QueryContext(v.ctx, "SELECT agent_id, class FROM standings WHERE round_id > ? AND class IS NOT NULL", h.Round)
	if err != nil {
		return err
	}
	classes := map[int64]int{}
	for rows.Next() {
		var id int64
		var class int
		if err := rows.Scan(&id, &class); err != nil {
			rows.Close()
			return err
		}
		classes[id] = class
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	type row struct {
		round int64
		key   bestKey
	}
	var read []row
	for id, class := range classes {
		rs, err := v.tx.QueryContext(v.ctx, "SELECT round_id, lo FROM history WHERE agent_id = ? AND round_id > ?", id, h.Round)
		if err != nil {
			return err
		}
		for rs.Next() {
			r := row{key: bestKey{class: class, agent: id}}
			if err := rs.Scan(&r.round, &r.key.lo); err != nil {
				rs.Close()
				return err
			}
			read = append(read, r)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
	}
	slices.SortFunc(read, func(a, b row) int { return cmp.Compare(a.round, b.round) })
	round := h.Round
	for _, r := range read {
		if r.round != round {
			h.close(round)
			round = r.round
		}
		if old, ok := h.keys[r.key.agent]; ok {
			h.ranked.Delete(old)
		}
		h.keys[r.key.agent] = r.key
		h.ranked.ReplaceOrInsert(r.key)
	}
	h.close(round)
	// Rounds with no row of a network (a round robin's) change nothing.
	var newest int64
	if err := v.tx.QueryRowContext(v.ctx, "SELECT coalesce(max(id), 0) FROM rounds").Scan(&newest); err != nil {
		return err
	}
	h.Round = max(h.Round, newest)
	return nil
}

// close notes the best at the end of round, where it changed.
func (h *BestHistory) close(round int64) {
	best, ok := h.ranked.Max()
	if !ok || round == 0 {
		return
	}
	if n := len(h.Changes); n == 0 || h.Changes[n-1].Agent != best.agent {
		h.Changes = append(h.Changes, BestChange{Round: round, Agent: best.agent})
	}
	h.Round = round
}
