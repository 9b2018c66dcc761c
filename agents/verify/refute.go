package verify

import (
	"math/bits"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// ShortestLoss returns the moves of a shortest game that p, playing
// side, loses, from the empty board, X first: p's moves and the
// opponent's, the opponent's lowest squares first among lines of the
// same length. It is nil when no line beats p. Someone who plays the
// opponent's moves of it against p in ttt play beats it.
func ShortestLoss(p game.Player, side game.Side) []int {
	var line []int
	// find extends line by at most left plies to a loss of p's.
	var find func(b tictactoe.Board, left int) bool
	find = func(b tictactoe.Board, left int) bool {
		switch b.Result() {
		case game.Win(side.Other()):
			return true
		case game.Ongoing:
		default:
			return false
		}
		if left == 0 {
			return false
		}
		moves := b.Empty()
		if b.ToMove() == side {
			moves = 1 << p.Move(b.Position())
		}
		for ; moves != 0; moves &= moves - 1 {
			sq := bits.TrailingZeros16(moves)
			line = append(line, sq)
			if find(b.Play(sq), left-1) {
				return true
			}
			line = line[:len(line)-1]
		}
		return false
	}
	// Iterative deepening: the first line found within a bound is one
	// of the shortest, in a tree of at most 9! games.
	for bound := 1; bound <= 9; bound++ {
		if find(tictactoe.Board{}, bound) {
			return line
		}
	}
	return nil
}
