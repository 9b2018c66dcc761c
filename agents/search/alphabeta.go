package search

import (
	"math"
	"math/bits"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// Alpha-beta searches in values for the side to move, from -1 to 1: a
// model's expected score s is 2s-1. A result the rules settle is worth
// more than any estimate, a win 2 less a thousandth for each ply of the
// game, so that a quicker win is worth more and a later loss less, a
// loss the negation, a tie 0.
func exact(r game.Result, side game.Side, plies int) float64 {
	switch r {
	case game.Tie:
		return 0
	case game.Win(side):
		return 2 - float64(plies)/1000
	}
	return -2 + float64(plies)/1000
}

// won reports whether v is a win the rules settle: no deeper search
// finds a better move.
func won(v float64) bool { return v > 1 }

// alphaBeta is the search abN: negamax with alpha-beta pruning to N
// plies, with the model's values at the leaves.
type alphaBeta struct {
	*Searcher
	depth int
	plies []ply // a ply's scratch space a level, reused
}

// newAlphaBeta is alpha-beta's Search.New.
func newAlphaBeta(s *Searcher, depth int) func(p game.Position, views []float64) (int, int) {
	ab := &alphaBeta{Searcher: s, depth: depth}
	for range depth + 1 {
		ab.plies = append(ab.plies, ply{values: make([]float32, s.g.Moves()), order: make([]int, 0, s.g.Moves())})
	}
	return ab.move
}

// move returns the best move in p by negamax with alpha-beta
// pruning to s.depth plies, deepening a ply at a time so that a limit
// leaves the move of the deepest search finished. Every position's
// moves are tried in the order the model likes them (its values, the
// lowest move on a tie), the previous depth's best first at the root:
// alpha-beta prunes most when the best comes first, and the model's
// choice usually is. Where views is not nil, every root move is searched
// with a full window, so that its value is exact rather than a bound:
// the move chosen is the same either way, the first of the best in
// that order. It returns the move and the depth of the search that
// chose it.
func (s *alphaBeta) move(p game.Position, views []float64) (int, int) {
	g := s.g
	side := g.ToMove(p)
	s.Judge(p, s.plies[0].values)
	order := s.order(p, s.plies[0].values, s.plies[0].order[:0])
	root := make([]float64, g.Moves())
	best, reached := order[0], 0
	for depth := 1; depth <= s.depth; depth++ {
		alpha, found := math.Inf(-1), -1
		for _, m := range order {
			q := g.Play(p, m)
			var v float64
			switch r := g.Result(q); {
			case r != game.Ongoing:
				v = exact(r, side, g.Plies(q))
			case depth == 1:
				v = 2*float64(s.plies[0].values[m]) - 1
			case views != nil:
				v = -s.negamax(q, 1, depth-1, math.Inf(-1), math.Inf(1))
			default:
				v = -s.negamax(q, 1, depth-1, math.Inf(-1), -alpha)
			}
			if s.stopped {
				break
			}
			root[m] = v
			if v > alpha {
				alpha, found = v, m
			}
		}
		if s.stopped {
			break
		}
		best, reached = found, depth
		if views != nil {
			for _, m := range order {
				views[m] = min(max((root[m]+1)/2, 0), 1)
			}
		}
		if won(alpha) || s.allLost(root, order) {
			break // the rules settle it: no depth changes the move
		}
		// The best first, the others in the model's order.
		i := indexOf(order, best)
		copy(order[1:i+1], order[:i])
		order[0] = best
	}
	return best, reached
}

// allLost reports whether every root move loses by force: deeper search
// only makes the losses later, and the deepest finished picked the latest.
func (s *alphaBeta) allLost(root []float64, order []int) bool {
	for _, m := range order {
		if root[m] >= -1 {
			return false
		}
	}
	return true
}

// negamax returns the value of p, which is in play, for the side to move,
// searched depth plies (at least one) below ply ply of the search, within
// the window (alpha, beta): a value at or below alpha is an upper bound,
// one at or above beta a lower bound.
func (s *alphaBeta) negamax(p game.Position, ply, depth int, alpha, beta float64) float64 {
	g := s.g
	side := g.ToMove(p)
	at := &s.plies[ply]
	s.Judge(p, at.values)
	if s.TimeUp() {
		return 0
	}
	best := math.Inf(-1)
	if depth == 1 {
		for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
			m := bits.TrailingZeros64(legal)
			v := 2*float64(at.values[m]) - 1
			if q := g.Play(p, m); g.Result(q) != game.Ongoing {
				v = exact(g.Result(q), side, g.Plies(q))
			}
			best = max(best, v)
		}
		return best
	}
	for _, m := range s.order(p, at.values, at.order[:0]) {
		q := g.Play(p, m)
		var v float64
		if r := g.Result(q); r != game.Ongoing {
			v = exact(r, side, g.Plies(q))
		} else {
			v = -s.negamax(q, ply+1, depth-1, -beta, -max(alpha, best))
		}
		if v > best {
			best = v
			if best >= beta || s.stopped {
				break
			}
		}
	}
	return best
}

// ply is the scratch space of one ply of the search: the model's values
// of its position's moves, and their order.
type ply struct {
	values []float32
	order  []int
}

// order appends p's legal moves to dst, the highest of values first, the
// lowest move first among equals.
func (s *alphaBeta) order(p game.Position, values []float32, dst []int) []int {
	for legal := s.g.Legal(p); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		i := len(dst)
		dst = append(dst, m)
		for ; i > 0 && values[dst[i-1]] < values[m]; i-- {
			dst[i] = dst[i-1]
		}
		dst[i] = m
	}
	return dst
}

// indexOf returns the index of m in order.
func indexOf(order []int, m int) int {
	for i, x := range order {
		if x == m {
			return i
		}
	}
	return -1
}

// Label returns what a position is worth to its side to move as
// alpha-beta depth plies deep around m finds it, as an expected score
// (1 a win, 1/2 a tie, 0 a loss): a win or loss the rules settle within
// the search is 1 or 0, an estimate the model's at the leaves, backed up.
// It is what a network learns from a stronger player's search (package
// conv). The function keeps scratch space: one goroutine's.
func Label(m learn.Model, depth int) func(p game.Position) float32 {
	s := &Searcher{g: m.Plays(), judge: judgeOf(m)}
	ab := &alphaBeta{Searcher: s, depth: depth}
	for range depth + 1 {
		ab.plies = append(ab.plies, ply{values: make([]float32, s.g.Moves()), order: make([]int, 0, s.g.Moves())})
	}
	return func(p game.Position) float32 {
		v := ab.negamax(p, 0, depth, math.Inf(-1), math.Inf(1))
		return float32(min(max((v+1)/2, 0), 1))
	}
}
