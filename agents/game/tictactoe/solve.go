package tictactoe

import (
	"math/bits"
	"sync"

	"ttt/agents/game"
)

// NumIndices bounds Index: every board, reachable or not, maps below it.
const NumIndices = 19683 // 3^9

// pow3X[m] and pow3O[m] give the base-3 digits of the squares in mask m,
// counted as 1 for X and 2 for O, so Index is two table look-ups. They
// are variables made by a function, not by init, so that the package's
// other variables made from solved positions come after them.
var pow3X, pow3O = func() (x, o [1 << 9]uint16) {
	for m := range 1 << 9 {
		p := uint16(1)
		for sq := range 9 {
			if m&(1<<sq) != 0 {
				x[m] += p
				o[m] += 2 * p
			}
			p *= 3
		}
	}
	return x, o
}()

// Index numbers the board in base 3 (square sq is digit sq: 0 empty,
// 1 X, 2 O). Tables of per-position facts are indexed by it.
func (b Board) Index() int { return int(pow3X[b.X] + pow3O[b.O]) }

// Solution holds the exact value of every reachable position.
type Solution struct {
	score     [NumIndices]int8
	positions []Board // every reachable position, in depth-first order
}

// Solve returns the solved game. It runs a plain negamax over the 5,478
// reachable positions once per process (well under a millisecond) and
// shares the result.
var Solve = sync.OnceValue(func() *Solution {
	s := &Solution{}
	var seen [NumIndices]bool
	var visit func(b Board) int8
	visit = func(b Board) int8 {
		i := b.Index()
		if seen[i] {
			return s.score[i]
		}
		seen[i] = true
		s.positions = append(s.positions, b)
		var v int8
		switch b.Result() {
		case game.Tie:
			v = 0
		case game.XWins, game.OWins:
			// The side to move is never the one that just made three,
			// and a loss with more empty squares left came sooner.
			v = -1 - int8(9-b.Moves())
		default:
			v = -100
			for m := b.Empty(); m != 0; m &= m - 1 {
				v = max(v, -visit(b.Play(bits.TrailingZeros16(m))))
			}
		}
		s.score[i] = v
		return v
	}
	visit(Board{})
	return s
})

// Score refines Value with speed: positive when the side to move wins
// (larger for a quicker win), negative when it loses (more negative for a
// quicker loss), zero for a draw.
func (s *Solution) Score(b Board) int { return int(s.score[b.Index()]) }

// Value returns the exact value of b for the side to move.
func (s *Solution) Value(b Board) game.Value {
	switch sc := s.score[b.Index()]; {
	case sc > 0:
		return game.Won
	case sc < 0:
		return game.Loss
	}
	return game.Draw
}

// MoveValue returns the value, for the side to move on b, of playing sq.
func (s *Solution) MoveValue(b Board, sq int) game.Value { return -s.Value(b.Play(sq)) }

// Optimal reports whether playing sq on b keeps the game-theoretic value.
func (s *Solution) Optimal(b Board, sq int) bool { return s.MoveValue(b, sq) == s.Value(b) }

// Outcome returns the exact outcome of playing sq on b, for the side to
// move.
func (s *Solution) Outcome(b Board, sq int) game.Outcome {
	after := b.Play(sq)
	sc := -s.Score(after)
	switch {
	case sc > 0:
		// A finished game scores -1 - (empty squares) for the side to
		// move there: it ends after 10 - |score| moves.
		return game.Outcome{Value: game.Won, Plies: 10 - sc - b.Moves()}
	case sc < 0:
		return game.Outcome{Value: game.Loss, Plies: 10 + sc - b.Moves()}
	}
	return game.Outcome{Value: game.Draw}
}

// Positions returns every reachable position, finished games included,
// in depth-first order from the empty board (squares tried 0..8).
// The slice is shared: do not modify it.
func (s *Solution) Positions() []Board { return s.positions }
