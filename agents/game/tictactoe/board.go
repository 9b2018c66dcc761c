// Package tictactoe is the game of ttt's ancestor, ttt-rl: its rules, the
// exact game-theoretic value of every position, and the players and
// tables that the solved game makes possible (the perfect player, a
// deterministic player written out as a table of its moves).
//
// Squares are numbered 0..8, row-major, 0 top-left. X always moves first.
// A board is two 9-bit masks, one per side, so a move is one OR and a win
// test is eight mask comparisons.
package tictactoe

import (
	"fmt"
	"math/bits"
	"strings"

	"ttt/agents/game"
)

// Board is a tic-tac-toe position. The zero value is the empty board.
type Board struct {
	X, O uint16 // bit s is set when that side holds square s
}

// full has the nine square bits set.
const full = 1<<9 - 1

// lines are the eight ways to get three in a row, as masks.
var lines = [8]uint16{
	0b000000111, 0b000111000, 0b111000000, // rows
	0b001001001, 0b010010010, 0b100100100, // columns
	0b100010001, 0b001010100, // diagonals
}

// ToMove returns the side whose turn it is.
func (b Board) ToMove() game.Side {
	if bits.OnesCount16(b.X) > bits.OnesCount16(b.O) {
		return game.O
	}
	return game.X
}

// Moves returns how many moves have been played.
func (b Board) Moves() int { return bits.OnesCount16(b.X | b.O) }

// Empty returns a mask of the empty squares.
func (b Board) Empty() uint16 { return ^(b.X | b.O) & full }

// IsEmpty reports whether square sq is free.
func (b Board) IsEmpty(sq int) bool { return b.Empty()&(1<<sq) != 0 }

// At returns who holds square sq: 'X', 'O' or '.'.
func (b Board) At(sq int) byte {
	switch {
	case b.X&(1<<sq) != 0:
		return 'X'
	case b.O&(1<<sq) != 0:
		return 'O'
	}
	return '.'
}

// Play returns the board after the side to move takes square sq. The
// caller must pass an empty square of a game that is not over; use
// CheckMove to validate input from outside.
func (b Board) Play(sq int) Board {
	if b.ToMove() == game.X {
		b.X |= 1 << sq
	} else {
		b.O |= 1 << sq
	}
	return b
}

// CheckMove explains why sq cannot be played on b, or returns nil.
func (b Board) CheckMove(sq int) error {
	switch {
	case b.Result() != game.Ongoing:
		return fmt.Errorf("the game is over")
	case sq < 0 || sq > 8:
		return fmt.Errorf("square %d is off the board (0-8)", sq)
	case !b.IsEmpty(sq):
		return fmt.Errorf("square %d is taken", sq)
	}
	return nil
}

// Result tells whether the game is over and who won.
func (b Board) Result() game.Result {
	for _, l := range lines {
		if b.X&l == l {
			return game.XWins
		}
		if b.O&l == l {
			return game.OWins
		}
	}
	if b.X|b.O == full {
		return game.Tie
	}
	return game.Ongoing
}

// String draws the board as three rows of X, O and '.'.
func (b Board) String() string {
	var sb strings.Builder
	for sq := 0; sq < 9; sq++ {
		sb.WriteByte(b.At(sq))
		if sq%3 == 2 && sq < 8 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// ParseBoard reads nine characters of 'X', 'O' and '.' (row-major), as
// written by Compact. It checks the counts of X and O, not reachability.
func ParseBoard(s string) (Board, error) {
	var b Board
	if len(s) != 9 {
		return b, fmt.Errorf("board %q: want 9 squares", s)
	}
	for sq := 0; sq < 9; sq++ {
		switch s[sq] {
		case 'X', 'x':
			b.X |= 1 << sq
		case 'O', 'o':
			b.O |= 1 << sq
		case '.', '-', '_':
		default:
			return b, fmt.Errorf("board %q: square %d is %q", s, sq, s[sq])
		}
	}
	if nx, no := bits.OnesCount16(b.X), bits.OnesCount16(b.O); nx != no && nx != no+1 {
		return b, fmt.Errorf("board %q: %d X and %d O cannot happen", s, nx, no)
	}
	return b, nil
}

// ReadBoard reads a board as ParseBoard does and checks that a game can
// reach it: X moves first and the sides alternate (ParseBoard checks
// the counts), and a game ends at the first three in a row, so both
// sides cannot have one, and nobody moves after one. These are all the
// conditions: a board that meets them is reachable (the tests compare it
// with every reachable position).
func ReadBoard(s string) (Board, error) {
	if len(s) != 9 {
		return Board{}, fmt.Errorf("board %q: want 9 characters, X, O or . for each square, row-major", s)
	}
	if i := strings.IndexFunc(s, func(c rune) bool { return !strings.ContainsRune("XxOo.-_", c) }); i >= 0 {
		return Board{}, fmt.Errorf("board %q: square %d is %q; use X, O or . (empty)", s, i, s[i])
	}
	// ParseBoard refuses only counts that no game has.
	b, err := ParseBoard(s)
	if err != nil {
		return b, fmt.Errorf("%v: X moves first and the sides take turns", err)
	}
	xLine := Board{X: b.X}.Result() == game.XWins
	oLine := Board{O: b.O}.Result() == game.OWins
	x, o := bits.OnesCount16(b.X), bits.OnesCount16(b.O)
	switch {
	case xLine && oLine:
		return b, fmt.Errorf("board %q: X and O both have three in a row, but a game ends at the first", s)
	case xLine && x == o:
		return b, fmt.Errorf("board %q: X has three in a row, so O cannot have moved after it", s)
	case oLine && x > o:
		return b, fmt.Errorf("board %q: O has three in a row, so X cannot have moved after it", s)
	}
	return b, nil
}

// Compact writes the board as nine characters on one line.
func (b Board) Compact() string {
	var s [9]byte
	for sq := range s {
		s[sq] = b.At(sq)
	}
	return string(s[:])
}
