package search

import (
	"math"
	"math/bits"

	"ttt/agents/game"
)

// The MCTS search is the wrapper of Scheiermann and Konen: PUCT, as
// AlphaZero selects, with the model in place of both of AlphaZero's
// heads. A position's moves are judged once, when it is first reached:
// what each is worth is the move's first estimate, and a softmax of those
// values its prior; the position itself is worth to the side that moved
// there what the best of its moves is worth to the other side, one look
// ahead. No simulation plays a game out, and nothing is drawn at random:
// the same position gets the same move.
//
// It is not the built-in MCTS players' search (agents.UCT), which plays
// random games out and knows no model. That one must stay the textbook
// player the ladder was rated as; this one searches with a model, and
// proves wins and losses on the way.
const (
	// puct weighs the prior against the mean score: AlphaZero's 1.
	puct = 1.0
	// temperature sharpens the values into priors: a move 0.1 better
	// (a tenth of a game) is e times as likely to be tried.
	temperature = 0.1
)

// puctNode is a position of the tree, reached by move from parent.
type puctNode struct {
	pos      game.Position
	parent   int32
	first    int32 // its children are tree[first : first+count], once expanded
	count    int8
	move     int8
	expanded bool
	// over: the position is settled, by the rules or by a proof, and
	// value is exact; end is the plies to the end of the game under the
	// proof, the quickest win and the slowest loss.
	over bool
	end  int16
	// value is the model's first estimate of the position for the side
	// that moved there, or its exact score; prior its share of the
	// parent's priors.
	value, prior float64
	// visits and total: the simulations through it and their scores for
	// the side that moved there.
	visits, total float64
}

// q is what a simulation through n expects to score for the side that
// moved there: the mean of its simulations, or its estimate before any.
func (n *puctNode) q() float64 {
	if n.visits == 0 || n.over {
		return n.value
	}
	return n.total / n.visits
}

// mcts is the search mctsN: N simulations a move.
type mcts struct {
	*Searcher
	simulations int
	tree        []puctNode // reused from move to move
	values      []float32  // the model's values of a position's moves
}

// newMCTS is MCTS's Search.New.
func newMCTS(s *Searcher, simulations int) func(p game.Position, views []float64) (int, int) {
	m := &mcts{Searcher: s, simulations: simulations, values: make([]float32, s.g.Moves())}
	return m.move
}

// move returns the move in p that s.simulations simulations visit most (the
// one with the higher mean score on a tie, then the lowest), among the
// moves not proven lost; a move proven to win before any. The tree never
// holds more than MaxNodes positions: the simulations stop before one
// would pass it.
//
// Proofs are MCTS-Solver's (Winands and others, 2008): a position where
// the side to move wins at once is lost for the side that moved there,
// one whose every move is settled is worth the best of them, and the
// proof climbs the tree. Without it, a move the model is sure of keeps
// its visits after a simulation shows it loses at once, and a one-move
// block goes unplayed. It returns the move and the simulations run.
func (s *mcts) move(p game.Position, views []float64) (int, int) {
	s.tree = append(s.tree[:0], puctNode{pos: p, parent: -1, move: -1})
	s.expand(0)
	// The root's moves are looked at a ply further before any
	// simulation: a move the opponent answers with a win is proven lost
	// at once, so a one-move block is never missed however sure of
	// another move the model is.
	for c := s.tree[0].first; c < s.tree[0].first+int32(s.tree[0].count); c++ {
		if !s.tree[c].over {
			s.tree[c].value = 1 - s.expand(c)
			s.prove(c)
		}
	}
	s.prove(0)
	sims := 0
	for sims < s.simulations && !s.tree[0].over && !s.TimeUp() && len(s.tree)+s.g.Moves() <= MaxNodes {
		// Down the tree by PUCT to a position not yet expanded, or
		// settled.
		n := int32(0)
		for s.tree[n].expanded && !s.tree[n].over {
			n = s.choose(n)
		}
		// Its value for the side that moved there: exact, or what its
		// best move is worth to the other side.
		v := s.tree[n].value
		if !s.tree[n].over {
			v = 1 - s.expand(n)
			s.prove(n)
		}
		// Up the path, for the side that moved into each position.
		for ; n > 0; n = s.tree[n].parent {
			s.tree[n].visits++
			s.tree[n].total += v
			v = 1 - v
		}
		s.tree[0].visits++
		sims++
	}
	root := &s.tree[0]
	best := int32(-1)
	for c := root.first; c < root.first+int32(root.count); c++ {
		if views != nil {
			views[s.tree[c].move] = s.tree[c].q()
		}
		if best < 0 || s.better(c, best) {
			best = c
		}
	}
	return int(s.tree[best].move), sims
}

// better reports whether the root's child c is a better move than b: a
// proven win before anything, a proven loss after anything, else the
// more visited, then the higher mean.
func (s *mcts) better(c, b int32) bool {
	rank := func(n *puctNode) int {
		switch {
		case n.over && n.value == 1:
			return 2
		case n.over && n.value == 0:
			return 0
		}
		return 1
	}
	ch, bh := &s.tree[c], &s.tree[b]
	switch rc, rb := rank(ch), rank(bh); {
	case rc != rb:
		return rc > rb
	case rc == 2 && ch.end != bh.end:
		return ch.end < bh.end
	case rc == 0 && ch.end != bh.end:
		return ch.end > bh.end
	}
	return ch.visits > bh.visits || ch.visits == bh.visits && ch.q() > bh.q()
}

// prove settles n, just expanded, and its ancestors where their moves
// settle them: a position with a move that wins for the side to move is
// lost for the side that moved there; one whose moves are all settled is
// worth the best of them. A settled root ends the search.
func (s *mcts) prove(n int32) {
	for ; n >= 0; n = s.tree[n].parent {
		nd := &s.tree[n]
		settled, best, win, lose := true, 0.0, int16(-1), int16(0)
		for c := nd.first; c < nd.first+int32(nd.count); c++ {
			ch := &s.tree[c]
			switch {
			case ch.over && ch.value == 1:
				if win < 0 || ch.end < win {
					win = ch.end
				}
			case ch.over:
				best, lose = max(best, ch.value), max(lose, ch.end)
			default:
				settled = false
			}
		}
		switch {
		case win >= 0:
			nd.over, nd.value, nd.end = true, 0, win+1
		case settled:
			nd.over, nd.value, nd.end = true, 1-best, lose+1
		default:
			return
		}
	}
}

// expand adds n's children, judged by the model, and returns the value
// of the best of them for the side to move in n.
func (s *mcts) expand(n int32) float64 {
	g := s.g
	p := s.tree[n].pos
	values := s.values
	s.Judge(p, values)
	if n := len(s.tree) + g.Moves(); n > cap(s.tree) {
		// Doubled as append would, but never past MaxNodes, which
		// append's rounding up could pass.
		grown := make([]puctNode, len(s.tree), min(max(2*cap(s.tree), n), MaxNodes))
		copy(grown, s.tree)
		s.tree = grown
	}
	first, best := int32(len(s.tree)), 0.0
	side, sum := g.ToMove(p), 0.0
	for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		q := g.Play(p, m)
		c := puctNode{pos: q, parent: n, move: int8(m), value: float64(values[m])}
		if r := g.Result(q); r != game.Ongoing {
			c.over, c.value = true, float64(score(r, side))
		}
		c.prior = math.Exp((c.value - 1) / temperature)
		sum += c.prior
		best = max(best, c.value)
		s.tree = append(s.tree, c)
	}
	for c := first; c < int32(len(s.tree)); c++ {
		s.tree[c].prior /= sum
	}
	s.tree[n].first, s.tree[n].count, s.tree[n].expanded = first, int8(int32(len(s.tree))-first), true
	return best
}

// choose returns the child of n that PUCT chooses: the highest mean
// score plus the prior's share of the exploration, the first on a tie,
// among the moves not proven to lose (n, not settled, has one).
func (s *mcts) choose(n int32) int32 {
	nd := &s.tree[n]
	root := math.Sqrt(nd.visits)
	best, most := int32(-1), math.Inf(-1)
	for c := nd.first; c < nd.first+int32(nd.count); c++ {
		ch := &s.tree[c]
		if ch.over && ch.value == 0 {
			continue
		}
		if u := ch.q() + puct*ch.prior*root/(1+ch.visits); u > most {
			best, most = c, u
		}
	}
	return best
}
