package tictactoe

import (
	"fmt"
	"math/bits"
	"strconv"

	"ttt/agents/game"
)

// Game is tic-tac-toe as a game.Game. A position's A and B are the masks
// of X's and O's squares.
var Game game.Game = rules{}

func init() { game.Register(Game) }

// rules implements game.Game over Board.
type rules struct{}

// FromPosition returns the board of position p.
func FromPosition(p game.Position) Board { return Board{X: uint16(p.A), O: uint16(p.B)} }

// Position returns b as a game.Position.
func (b Board) Position() game.Position { return game.Position{A: uint64(b.X), B: uint64(b.O)} }

func (rules) Name() string                               { return "tictactoe" }
func (rules) Title() string                              { return "tic-tac-toe" }
func (rules) Start() game.Position                       { return game.Position{} }
func (rules) Moves() int                                 { return 9 }
func (rules) MaxPlies() int                              { return 9 }
func (rules) Inputs() int                                { return Inputs }
func (rules) Legal(p game.Position) uint64               { return uint64(FromPosition(p).Empty()) }
func (rules) Result(p game.Position) game.Result         { return FromPosition(p).Result() }
func (rules) ToMove(p game.Position) game.Side           { return FromPosition(p).ToMove() }
func (rules) Plies(p game.Position) int                  { return FromPosition(p).Moves() }
func (rules) Format(p game.Position) string              { return FromPosition(p).String() }
func (rules) FormatMove(move int) string                 { return strconv.Itoa(move) }
func (rules) MoveName() string                           { return "square" }
func (rules) Play(p game.Position, sq int) game.Position { return FromPosition(p).Play(sq).Position() }

// Board implements game.Game: the nine squares, empty or held by X or O,
// the eight symmetries of the square (four rotations, each with its
// mirror image), and the eight lines of three.
func (rules) Board() game.Board { return board }

var board = func() game.Board {
	b := game.Board{Cells: 9, Width: 3, States: 3}
	for _, l := range lines {
		var line []int
		for sq := range 9 {
			if l&(1<<sq) != 0 {
				line = append(line, sq)
			}
		}
		b.Lines = append(b.Lines, line)
	}
	for turn := range 4 {
		for _, mirror := range []bool{false, true} {
			perm := make([]int, 9)
			for sq := range perm {
				row, col := sq/3, sq%3
				for range turn { // a quarter turn clockwise
					row, col = col, 2-row
				}
				if mirror {
					col = 2 - col
				}
				perm[sq] = 3*row + col
			}
			b.Symmetries = append(b.Symmetries, perm)
		}
	}
	return b
}()

// Changes implements game.Game: the square played, from empty to the
// mover's stone.
func (r rules) Changes(p game.Position, move int, dst []game.Change) []game.Change {
	return append(dst, game.Change{Cell: move, From: 0, To: 1 + uint8(r.ToMove(p))})
}

// CellStates implements game.Game: 0 empty, 1 X, 2 O.
func (rules) CellStates(p game.Position, dst []uint8) {
	b := FromPosition(p)
	for sq := range 9 {
		dst[sq] = uint8(b.X>>sq&1) | uint8(b.O>>sq&1)<<1
	}
}

// Inputs is the size of a tic-tac-toe network's input: for square s,
// input 2s is 1 when X holds s and input 2s+1 when O holds s; input 18 is
// 1 when X is to move.
const Inputs = 19

// Encode implements game.Game: the side input first, then the squares'.
func (rules) Encode(p game.Position, on []int32) []int32 {
	b := FromPosition(p)
	if b.ToMove() == game.X {
		on = append(on, Inputs-1)
	}
	for m := evenBits[b.X] | evenBits[b.O]<<1; m != 0; m &= m - 1 {
		on = append(on, int32(bits.TrailingZeros32(m)))
	}
	return on
}

// evenBits[m] moves bit s of the 9-bit mask m to bit 2s: square s held
// by X is input 2s, held by O input 2s+1.
var evenBits = func() (t [1 << 9]uint32) {
	for m := range t {
		for sq := range 9 {
			if m&(1<<sq) != 0 {
				t[m] |= 1 << (2 * sq)
			}
		}
	}
	return t
}()

// ParseMove reads a square, 0 to 8.
func (rules) ParseMove(s string) (int, error) {
	sq, err := strconv.Atoi(s)
	if err != nil || sq < 0 || sq > 8 {
		return 0, fmt.Errorf("%q is not a square: type 0 to 8", s)
	}
	return sq, nil
}
