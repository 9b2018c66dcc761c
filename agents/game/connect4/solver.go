package connect4

import (
	"context"
	"math/bits"

	"ttt/agents/game"
)

// A score is the exact value of a position for the side to move, as
// Pascal Pons's solver counts it: 0 a draw; positive when the side to
// move wins, (43 - n)/2 where n stones are on the board before its
// winning stone, so 1 for a win with its very last stone and 21 for the
// quickest win; negative when it loses, the opponent's score negated.
// The larger, the sooner the win; the smaller, the sooner the loss.
const (
	minScore = -(Width*Height)/2 + 3
	maxScore = (Width*Height+1)/2 - 3
)

// Outcome turns score, of a position with plies stones, into the value
// of that position for the side to move and the plies until the game
// ends with perfect play, the winning stone included.
func Outcome(score, plies int) game.Outcome {
	switch {
	case score > 0:
		return game.Outcome{Value: game.Won, Plies: winAt(score, plies) - plies + 1}
	case score < 0:
		return game.Outcome{Value: game.Loss, Plies: winAt(-score, plies+1) - plies + 1}
	}
	return game.Outcome{Value: game.Draw}
}

// winAt returns the stones on the board before the winning stone of a
// win of score for the side to move at plies: 42 - 2*score or 43 -
// 2*score, whichever that side moves at.
func winAt(score, plies int) int {
	n := Width*Height - 2*score
	if (n-plies)%2 != 0 {
		n++
	}
	return n
}

// Solver finds the exact score of Connect Four positions: negamax with
// alpha-beta pruning over a null-window search of the score, a
// transposition table, moves ordered by the threats they make (the centre
// first among equals), left-right symmetry, and the usual Connect Four
// shortcuts (an immediate win ends the search, a move that gives the
// opponent an immediate win is never tried, a double threat is a loss).
// It is not safe for concurrent use.
type Solver struct {
	table *table
	nodes int64

	// The search stops, abandoning its result, when ctx is done or
	// after budget nodes (0: no budget).
	ctx     context.Context
	budget  int64
	stopped bool
}

// NewSolver returns a solver with a transposition table of 2^bits
// entries (8 bytes each): 24 bits, 128 MB, for long solves; a dozen bits
// for a player that searches a little at every move.
func NewSolver(bits int) *Solver { return &Solver{table: newTable(bits)} }

// Nodes returns the positions searched so far.
func (s *Solver) Nodes() int64 { return s.nodes }

// Solve returns the exact score of b, whose game is not over. With weak,
// it only tells a win (1) from a draw (0) and a loss (-1), which is
// faster. It stops with ctx's error.
func (s *Solver) Solve(ctx context.Context, b Board, weak bool) (int, error) {
	s.ctx, s.budget, s.stopped = ctx, 0, false
	score := s.solve(b, weak)
	if s.stopped {
		return 0, ctx.Err()
	}
	return score, nil
}

// SolveBudget is Solve within budget nodes: ok is false when the search
// ran out of them first. Counting nodes, not time, makes the answer the
// same on every machine; the table is emptied first, so that it is the
// same whatever was searched before.
func (s *Solver) SolveBudget(b Board, weak bool, budget int64) (score int, ok bool) {
	s.table.clear()
	s.ctx, s.budget, s.stopped = context.Background(), s.nodes+budget, false
	score = s.solve(b, weak)
	return score, !s.stopped
}

// Analyze returns the score of every legal column of b (the score for the
// side to move of playing there), by column; the others are absent. It
// solves the centre first, the likeliest best moves; stopped by ctx, it
// returns the scores it has with ctx's error.
func (s *Solver) Analyze(ctx context.Context, b Board, weak bool) (map[int]int, error) {
	out := map[int]int{}
	wins := b.WinningMoves()
	for _, col := range centreFirst {
		switch {
		case !b.CanPlay(col):
			continue
		case wins&(1<<col) != 0:
			out[col] = (Width*Height + 1 - b.Plies()) / 2
			if weak {
				out[col] = 1
			}
		default:
			score, err := s.Solve(ctx, b.Play(col), weak)
			if err != nil {
				return out, err
			}
			out[col] = -score
		}
	}
	return out, nil
}

// solve is Solve's search: an immediate win, else a binary search of
// the score by null windows, each a yes-or-no question (is the score
// above med?) that alpha-beta answers fastest.
func (s *Solver) solve(b Board, weak bool) int {
	if b.WinningMoves() != 0 {
		if weak {
			return 1
		}
		return (Width*Height + 1 - b.Plies()) / 2
	}
	lo, hi := -(Width*Height-b.Plies())/2, (Width*Height+1-b.Plies())/2
	if weak {
		lo, hi = -1, 1
	}
	for lo < hi && !s.stopped {
		med := lo + (hi-lo)/2
		// Look nearer to 0 first: most positions are close to a draw.
		if med <= 0 && lo/2 < med {
			med = lo / 2
		} else if med >= 0 && hi/2 > med {
			med = hi / 2
		}
		if r := s.negamax(b, med, med+1); r <= med {
			hi = r
		} else {
			lo = r
		}
	}
	if weak { // a bound beyond the window says no more than its sign
		lo = max(-1, min(lo, 1))
	}
	return lo
}

// negamax returns the score of b, where the side to move cannot win at
// once, if it is within (alpha, beta); else a bound beyond the window on
// the same side as the score.
func (s *Solver) negamax(b Board, alpha, beta int) int {
	s.nodes++
	if s.nodes&0xffff == 0 && (s.ctx.Err() != nil || (s.budget > 0 && s.nodes >= s.budget)) {
		s.stopped = true
	}
	if s.stopped {
		return alpha
	}
	next := b.nonLosingMoves()
	plies := b.Plies()
	if next == 0 { // every move lets the opponent win
		return -(Width*Height - plies) / 2
	}
	if plies >= Width*Height-2 { // neither side can win any more
		return 0
	}
	// The opponent cannot win at its next move: a lower bound.
	if lo := -(Width*Height - 2 - plies) / 2; alpha < lo {
		if alpha = lo; alpha >= beta {
			return alpha
		}
	}
	// Nor can the side to move win at once: an upper bound, or the
	// table's tighter one.
	hi := (Width*Height - 1 - plies) / 2
	key, sym := b.canonical()
	if v := s.table.get(key); v != 0 {
		hi = int(v) + minScore - 1
	}
	if beta > hi {
		if beta = hi; alpha >= beta {
			return beta
		}
	}
	var order moveOrder
	for i := Width - 1; i >= 0; i-- {
		col := centreFirst[i]
		if sym && col > Width/2 {
			continue // the mirror of a column already tried
		}
		if m := next & columnMask(col); m != 0 {
			order.add(m, b.threatsAfter(m))
		}
	}
	for i := order.n - 1; i >= 0; i-- {
		m := order.moves[i]
		child := Board{Cur: b.Cur ^ b.Mask, Mask: b.Mask | m}
		if score := -s.negamax(child, -beta, -alpha); score >= beta {
			return score
		} else if score > alpha {
			alpha = score
		}
	}
	if !s.stopped {
		s.table.put(key, uint8(alpha-minScore+1))
	}
	return alpha
}

// nonLosingMoves returns the cells the side to move may play without
// letting the opponent win at its next move: the one block when the
// opponent threatens once, none when it threatens twice, never a cell
// right below one where the opponent would win.
func (b Board) nonLosingMoves() uint64 {
	possible := b.possible()
	theirs := winningCells(b.Cur^b.Mask, b.Mask)
	if forced := possible & theirs; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0
		}
		possible = forced
	}
	return possible &^ (theirs >> 1)
}

// threatsAfter counts the cells where the side to move would win after
// playing the cell m: the order in which moves are tried.
func (b Board) threatsAfter(m uint64) int {
	return bits.OnesCount64(winningCells(b.Cur|m, b.Mask))
}

// canonical returns the key of b or of its mirror, whichever is smaller,
// so that both share their entry of the table, and whether b is its own
// mirror. Mirrors only arise early in a game, where they are worth the
// cost of computing them.
func (b Board) canonical() (key uint64, symmetric bool) {
	key = b.Key()
	if b.Plies() > 12 {
		return key, false
	}
	m := b.Mirror()
	return min(key, m.Key()), m == b
}

// moveOrder sorts up to Width moves by their score, lowest first, to be
// tried from the last; of equal scores the one added last is tried first
// (moves are added from the edges to the centre, so the centre first).
type moveOrder struct {
	moves  [Width]uint64
	scores [Width]int
	n      int
}

func (o *moveOrder) add(m uint64, score int) {
	i := o.n
	for ; i > 0 && o.scores[i-1] > score; i-- {
		o.moves[i], o.scores[i] = o.moves[i-1], o.scores[i-1]
	}
	o.moves[i], o.scores[i] = m, score
	o.n++
}

// BestMove returns the column of the best score in scores (Analyze's): the
// quickest win, else a draw, else the slowest loss; the centre-most among
// equals.
func BestMove(scores map[int]int) int {
	best := -1
	for _, col := range centreFirst {
		if sc, ok := scores[col]; ok && (best < 0 || sc > scores[best]) {
			best = col
		}
	}
	return best
}
