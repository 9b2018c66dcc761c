package league

import (
	"cmp"
	"context"

	"github.com/google/btree"

	"ttt/agents/game"
	"ttt/store"
)

// The best rule. The league's best is its rated network first by class
// (perfect, then unbeatable, then beatable: tic-tac-toe's exhaustive
// check), then by the higher low end of its rating's 95% interval, then
// the newer; the latest network while none is rated. A built-in player
// is never best. The class is exact and never moves. The low end, not
// the rating, so that a network with a few lucky games and a wide
// interval does not lead one whose games have pinned its rating down; it
// moves only with a history row, by more than store.HistoryStep. A share
// of a position set is no part of it: on 1,000 positions it moves by
// chance more than an hour's checkpoints differ.
//
// It is a rule of the standings as they are, with no memory: the
// commands, the API and the pages all ask it, so that they name one
// network whenever they look, and a restarted server or an old file
// names the same. The store keeps the order in an index
// (store.View.Ranked); the replay of the history (BestHistory) orders by
// ahead, and a test holds the two to each other.

// ranks reports whether the best rule ranks agents of kind k: the
// learned models. A built-in player is never best, nor a searched agent,
// which is a network that a search plays.
func ranks(k store.Kind) bool { return k.Learned() }

// rank is a network's place by the best rule.
type rank struct {
	class game.Class
	lo    float64
	agent int64
}

// ahead reports whether a is ahead of b by the best rule.
func ahead(a, b rank) bool {
	if c := cmp.Or(cmp.Compare(a.class, b.class), cmp.Compare(a.lo, b.lo)); c != 0 {
		return c > 0
	}
	return a.agent > b.agent
}

// Best returns up to limit networks (all with 0), the league's best
// first, by the best rule: what ttt prune keeps and ttt plot draws.
func Best(ctx context.Context, db *store.DB, limit int) ([]*store.Agent, error) {
	return db.Ranked(ctx, limit)
}

// BestName returns the id, name and kind of the league's best in v, and
// store.ErrNoCheckpoints in a league without networks.
func BestName(v *store.View) (store.AgentName, error) {
	list, err := v.Ranked(1)
	if err != nil {
		return store.AgentName{}, err
	}
	if len(list) == 0 {
		return v.Name(store.Latest)
	}
	return store.AgentName{ID: list[0].ID, Name: list[0].Name, Kind: list[0].Kind}, nil
}

// BestChange is a round at whose end the league's best was another
// network than at the end of the round before: the round, and the
// network that became the best.
type BestChange struct {
	Round int64
	Agent int64
}

// BestHistory is the league's best round by round, replayed from the
// rating history (store.View.RankRows): the rule reads a network's class,
// which it keeps, and the low end of its interval, which changes only
// with a history row, so the rows up to a round give the best at its
// end, and a restart loses nothing. It is not safe for concurrent use.
type BestHistory struct {
	Round   int64        // the last round read
	Changes []BestChange // oldest first
	ranked  *btree.BTreeG[rank]
	ranks   map[int64]rank
}

// NewBestHistory returns a history that has read no round.
func NewBestHistory() *BestHistory {
	return &BestHistory{ranked: btree.NewG(32, func(a, b rank) bool { return ahead(b, a) }), ranks: map[int64]rank{}}
}

// Update reads the rows of the rounds after h.Round, in round order, and
// adds each change of the best.
func (h *BestHistory) Update(v *store.View) error {
	rows, newest, err := v.RankRows(h.Round)
	if err != nil {
		return err
	}
	round := h.Round
	for _, r := range rows {
		if r.Round != round {
			h.close(round)
			round = r.Round
		}
		if old, ok := h.ranks[r.Agent]; ok {
			h.ranked.Delete(old)
		}
		k := rank{class: r.Class, lo: r.Lo, agent: r.Agent}
		h.ranks[r.Agent] = k
		h.ranked.ReplaceOrInsert(k)
	}
	h.close(round)
	// Rounds with no row of a network (a round robin's) change nothing.
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
