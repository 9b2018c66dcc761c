// Package table is a table of position values for tic-tac-toe, the
// memory of the two oldest learners ttt knows: the CodeProject article's
// and Sutton and Barto's first example. A table holds, for each side, the
// value that side puts on the positions it has met; the side moves to the
// position it values most. Tic-tac-toe has 5,478 reachable positions, so
// a table holds them all; Connect Four's trillions do not fit, which is
// why only networks play it.
//
// A table is also the frozen agent such a learner snapshots into: a
// deterministic greedy player (Move) written out as a file (Bytes, Parse).
package table

import (
	"math"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// States bounds a table's states: a state numbers a side and a board as
// side*3^9 + the board's base-3 index (tictactoe.Board.Index), so X's
// values come first and O's after.
const States = 2 * tictactoe.NumIndices

// Table is the value each side puts on the positions it has met. A
// position that ends the game is worth Win, Draw or Loss to a side, by
// the rules, and is never stored; a position in play that the side has
// not met yet is worth Unseen. A Table is not safe for concurrent
// writes; a frozen one may be read by any number of games at once.
type Table struct {
	Win, Draw, Loss float64
	Unseen          float64

	values [States]float64
	seen   [States]bool
	n      int // states seen
}

// New returns an empty table with the given values of finished games and
// of unseen positions.
func New(win, draw, loss, unseen float64) *Table {
	return &Table{Win: win, Draw: draw, Loss: loss, Unseen: unseen}
}

// State numbers the value side puts on b.
func State(side game.Side, b tictactoe.Board) int {
	return int(side)*tictactoe.NumIndices + b.Index()
}

// Value returns what side thinks b is worth.
func (t *Table) Value(side game.Side, b tictactoe.Board) float64 {
	switch b.Result() {
	case game.Ongoing:
	case game.Tie:
		return t.Draw
	case game.Win(side):
		return t.Win
	default:
		return t.Loss
	}
	if s := State(side, b); t.seen[s] {
		return t.values[s]
	}
	return t.Unseen
}

// Set sets the value side puts on b, a position in play.
func (t *Table) Set(side game.Side, b tictactoe.Board, v float64) {
	s := State(side, b)
	if !t.seen[s] {
		t.seen[s] = true
		t.n++
	}
	t.values[s] = v
}

// Len returns how many values the table holds.
func (t *Table) Len() int { return t.n }

// Best returns the move of the side to move on b (a game in play) to the
// position it values most, and that value. Ties go to the lowest square
// when rng is nil, the frozen player's rule, which makes it
// deterministic; otherwise to a uniformly random one of them, as a
// learner breaks them so that equal unknowns all get tried.
func (t *Table) Best(b tictactoe.Board, rng *rand.Rand) (move int, best float64) {
	side := b.ToMove()
	move, best = -1, math.Inf(-1)
	ties := 0
	for sq := range 9 {
		if !b.IsEmpty(sq) {
			continue
		}
		switch v := t.Value(side, b.Play(sq)); {
		case v > best:
			move, best, ties = sq, v, 1
		case v == best && rng != nil:
			// Reservoir sampling: each of the k tied squares is kept
			// with probability 1/k.
			ties++
			if rng.IntN(ties) == 0 {
				move = sq
			}
		}
	}
	return move, best
}

// Move implements game.Player: the greedy move, ties to the lowest
// square.
func (t *Table) Move(p game.Position) int {
	m, _ := t.Best(tictactoe.FromPosition(p), nil)
	return m
}

// Clone returns a copy of t that later changes to t leave alone: a
// learner's snapshot.
func (t *Table) Clone() *Table {
	c := *t
	return &c
}
