// Package connect4 is Connect Four: seven columns of six cells, four in a
// row wins, a full board is a tie, and the first player wins with perfect
// play by starting in the centre column. It holds the rules as bitboards,
// an exact solver, the tactician, and the fixed set of solved positions
// that measures a player.
//
// A position is two 64-bit words, the layout of John Tromp and Pascal
// Pons: the stones of the side to move (Cur) and a mask of all stones
// (Mask). Column c is bits 7c to 7c+5 from the bottom, and bit 7c+6 is a
// sentinel that stays empty, so that shifting a line of stones never
// carries from one column into the next:
//
//	6 13 20 27 34 41 48   sentinels
//	5 12 19 26 33 40 47   row 5 (top)
//	4 11 18 25 32 39 46
//	3 10 17 24 31 38 45
//	2  9 16 23 30 37 44
//	1  8 15 22 29 36 43
//	0  7 14 21 28 35 42   row 0 (bottom)
//
// A move is two integer operations (Cur ^= Mask; Mask |= Mask + the
// column's bottom bit), and a win test four shifts and ANDs.
package connect4

import (
	"fmt"
	"math/bits"
	"strings"
)

// The board's size.
const (
	Width  = 7
	Height = 6
)

// Board is a Connect Four position: the stones of the side to move and
// the mask of all stones, in the layout above. The zero value is the
// empty board.
type Board struct{ Cur, Mask uint64 }

// bottom has the bottom bit of every column; full every playable cell.
var bottom, full = func() (b, f uint64) {
	for col := range Width {
		b |= 1 << (col * (Height + 1))
		f |= (1<<Height - 1) << (col * (Height + 1))
	}
	return b, f
}()

// columnMask has the cells of column col; bottomOf its bottom cell, topOf
// its top cell.
func columnMask(col int) uint64 { return (1<<Height - 1) << (col * (Height + 1)) }
func bottomOf(col int) uint64   { return 1 << (col * (Height + 1)) }
func topOf(col int) uint64      { return 1 << (Height - 1 + col*(Height+1)) }

// Plies returns the number of stones on the board.
func (b Board) Plies() int { return bits.OnesCount64(b.Mask) }

// CanPlay reports whether column col has room.
func (b Board) CanPlay(col int) bool { return b.Mask&topOf(col) == 0 }

// Legal returns the columns with room, bit c for column c.
func (b Board) Legal() uint8 {
	var m uint8
	for col := range Width {
		if b.CanPlay(col) {
			m |= 1 << col
		}
	}
	return m
}

// Play returns the board after the side to move drops a stone in col.
// The caller passes a column with room in a game that is not over.
func (b Board) Play(col int) Board {
	b.Cur ^= b.Mask
	b.Mask |= b.Mask + bottomOf(col)
	return b
}

// alignment reports whether stones has four in a row.
func alignment(stones uint64) bool {
	v := stones & (stones >> 1)             // vertical
	h := stones & (stones >> (Height + 1))  // horizontal
	d1 := stones & (stones >> Height)       // diagonal, down to the right
	d2 := stones & (stones >> (Height + 2)) // diagonal, up to the right
	return v&(v>>2)|h&(h>>(2*(Height+1)))|d1&(d1>>(2*Height))|d2&(d2>>(2*(Height+2))) != 0
}

// LastMoverWon reports whether the player who just moved has four in a
// row: only that player can, since the game ends there.
func (b Board) LastMoverWon() bool { return alignment(b.Cur ^ b.Mask) }

// Full reports whether every cell is taken.
func (b Board) Full() bool { return b.Mask == full }

// winningCells returns the empty cells (playable now or later) where
// stones would complete four in a row.
func winningCells(stones, mask uint64) uint64 {
	// Vertical: three stones with the cell above them.
	r := (stones << 1) & (stones << 2) & (stones << 3)
	for _, shift := range [...]uint{Height + 1, Height, Height + 2} {
		p := (stones << shift) & (stones << (2 * shift))
		r |= p & (stones << (3 * shift))
		r |= p & (stones >> shift)
		p = (stones >> shift) & (stones >> (2 * shift))
		r |= p & (stones << shift)
		r |= p & (stones >> (3 * shift))
	}
	return r & (full ^ mask)
}

// possible returns the cells where a stone can be dropped now.
func (b Board) possible() uint64 { return (b.Mask + bottom) & full }

// WinningMoves returns the columns where the side to move wins at once.
func (b Board) WinningMoves() uint8 { return columnsOf(winningCells(b.Cur, b.Mask) & b.possible()) }

// threats returns the columns where the opponent would win at once if it
// were its turn: where the side to move must block.
func (b Board) threats() uint64 { return winningCells(b.Cur^b.Mask, b.Mask) & b.possible() }

// columnsOf returns the columns that hold a cell of cells.
func columnsOf(cells uint64) uint8 {
	var m uint8
	for col := range Width {
		if cells&columnMask(col) != 0 {
			m |= 1 << col
		}
	}
	return m
}

// Key is a number that tells positions apart: Cur + Mask, as in Pons's
// solver (the mask with a bit above each column's stones marks the
// heights, and Cur adds the owners).
func (b Board) Key() uint64 { return b.Cur + b.Mask }

// Mirror returns b reflected left to right.
func (b Board) Mirror() Board {
	var m Board
	for col := range Width {
		shift := (Width - 1 - 2*col) * (Height + 1)
		cm := columnMask(col)
		if shift >= 0 {
			m.Cur |= (b.Cur & cm) << shift
			m.Mask |= (b.Mask & cm) << shift
		} else {
			m.Cur |= (b.Cur & cm) >> -shift
			m.Mask |= (b.Mask & cm) >> -shift
		}
	}
	return m
}

// At returns who holds the cell of row (0 the bottom) and column col:
// 'X' the first player, 'O' the second, '.' nobody.
func (b Board) At(row, col int) byte {
	bit := uint64(1) << (col*(Height+1) + row)
	if b.Mask&bit == 0 {
		return '.'
	}
	// Cur holds the stones of the side to move: X's when the count is
	// even.
	if (b.Cur&bit != 0) == (b.Plies()%2 == 0) {
		return 'X'
	}
	return 'O'
}

// String draws the board: six rows, the top first, then the column
// numbers people type.
func (b Board) String() string {
	var sb strings.Builder
	for row := Height - 1; row >= 0; row-- {
		for col := range Width {
			sb.WriteByte(b.At(row, col))
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("1234567")
	return sb.String()
}

// Parse replays moves, the columns 1 to 7 as people type them ("4453"),
// from the empty board.
func Parse(moves string) (Board, error) {
	var b Board
	for i, r := range moves {
		col := int(r - '1')
		switch {
		case r < '1' || r > '7':
			return b, fmt.Errorf("moves %q: %q is not a column (1-7)", moves, r)
		case b.LastMoverWon() || b.Full():
			return b, fmt.Errorf("moves %q: move %d comes after the end of the game", moves, i+1)
		case !b.CanPlay(col):
			return b, fmt.Errorf("moves %q: move %d, column %c, is full", moves, i+1, r)
		}
		b = b.Play(col)
	}
	return b, nil
}

// centreFirst is the order in which columns are tried when nothing else
// tells them apart: the centre first, as it takes part in the most lines.
var centreFirst = [Width]int{3, 2, 4, 1, 5, 0, 6}

// Tactician is the first rung a learner must pass: it wins at once if it
// can, else blocks a column where the opponent would win at once, else
// plays the centre-most column with room. It looks one move ahead and no
// further.
func Tactician(b Board) int { return TacticianAmong(b, b.Legal()) }

// TacticianAmong is the tactician's choice among the columns allowed (a
// non-empty set of columns with room): a win, else a block, else the
// centre-most.
func TacticianAmong(b Board, allowed uint8) int {
	for _, want := range [...]uint8{b.WinningMoves(), columnsOf(b.threats()), allowed} {
		for _, col := range centreFirst {
			if want&allowed&(1<<col) != 0 {
				return col
			}
		}
	}
	return -1 // nothing is allowed
}
