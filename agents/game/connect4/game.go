package connect4

import (
	"fmt"
	"math/bits"
	"strconv"

	"ttt/agents/game"
)

// Game is Connect Four as a game.Game. A position's A is Board.Cur (the
// stones of the side to move) and B is Board.Mask (all stones).
var Game game.Game = rules{}

func init() { game.Register(Game) }

// rules implements game.Game over Board.
type rules struct{}

// FromPosition returns the board of position p.
func FromPosition(p game.Position) Board { return Board{Cur: p.A, Mask: p.B} }

// Position returns b as a game.Position.
func (b Board) Position() game.Position { return game.Position{A: b.Cur, B: b.Mask} }

func (rules) Name() string                  { return "connect4" }
func (rules) Title() string                 { return "Connect Four" }
func (rules) Start() game.Position          { return game.Position{} }
func (rules) Moves() int                    { return Width }
func (rules) MaxPlies() int                 { return Width * Height }
func (rules) Inputs() int                   { return Inputs }
func (rules) Legal(p game.Position) uint64  { return uint64(FromPosition(p).Legal()) }
func (rules) Plies(p game.Position) int     { return FromPosition(p).Plies() }
func (rules) Format(p game.Position) string { return FromPosition(p).String() }
func (rules) FormatMove(col int) string     { return strconv.Itoa(col + 1) }
func (rules) MoveName() string              { return "column" }
func (rules) Play(p game.Position, col int) game.Position {
	return FromPosition(p).Play(col).Position()
}

// Cell states of a Connect Four board, as an n-tuple network reads it:
// Thill, Koch and Konen tell an empty cell where a stone can be dropped
// now (a threat there must be met at once) from one it cannot reach yet.
const (
	Unreachable = 0
	XStone      = 1
	OStone      = 2
	Playable    = 3
)

// Board implements game.Game: 42 cells, numbered row*7 + column from the
// bottom left, in four states, the left-right mirror, and the 69 lines
// of four.
func (rules) Board() game.Board { return board }

var board = func() game.Board {
	ident, mirror := make([]int, Width*Height), make([]int, Width*Height)
	for cell := range ident {
		ident[cell] = cell
		row, col := cell/Width, cell%Width
		mirror[cell] = row*Width + Width - 1 - col
	}
	var lines [][]int
	for row := range Height {
		for col := range Width {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} { // across, up, and the diagonals
				var line []int
				for k := range 4 {
					r, c := row+k*d[0], col+k*d[1]
					if r < Height && c >= 0 && c < Width {
						line = append(line, r*Width+c)
					}
				}
				if len(line) == 4 {
					lines = append(lines, line)
				}
			}
		}
	}
	return game.Board{Cells: Width * Height, Width: Width, States: 4, Symmetries: [][]int{ident, mirror}, Lines: lines}
}()

// CellStates implements game.Game.
func (rules) CellStates(p game.Position, dst []uint8) {
	b := FromPosition(p)
	x := b.Cur // X's stones
	if b.Plies()&1 == 1 {
		x = b.Mask ^ b.Cur
	}
	playable := b.possible()
	for col := range Width {
		for row := range Height {
			bit := uint64(1) << (col*(Height+1) + row)
			s := uint8(Unreachable)
			switch {
			case x&bit != 0:
				s = XStone
			case b.Mask&bit != 0:
				s = OStone
			case playable&bit != 0:
				s = Playable
			}
			dst[row*Width+col] = s
		}
	}
}

// Changes implements game.Game: the cell the stone drops into, from
// playable to the mover's stone, and the one above it, if any, from out
// of reach to playable.
func (r rules) Changes(p game.Position, col int, dst []game.Change) []game.Change {
	row := bits.OnesCount64(FromPosition(p).Mask & columnMask(col))
	stone := uint8(XStone)
	if r.ToMove(p) == game.O {
		stone = OStone
	}
	dst = append(dst, game.Change{Cell: row*Width + col, From: Playable, To: stone})
	if row+1 < Height {
		dst = append(dst, game.Change{Cell: (row+1)*Width + col, From: Unreachable, To: Playable})
	}
	return dst
}

// ToMove implements game.Game: X moves first.
func (rules) ToMove(p game.Position) game.Side { return game.Side(FromPosition(p).Plies() & 1) }

// Result implements game.Game. Only the side that just moved can have
// four in a row.
func (r rules) Result(p game.Position) game.Result {
	b := FromPosition(p)
	switch {
	case b.LastMoverWon():
		return game.Win(r.ToMove(p).Other())
	case b.Full():
		return game.Tie
	}
	return game.Ongoing
}

// ParseMove reads a column, 1 to 7.
func (rules) ParseMove(s string) (int, error) {
	col, err := strconv.Atoi(s)
	if err != nil || col < 1 || col > Width {
		return 0, fmt.Errorf("%q is not a column: type 1 to 7", s)
	}
	return col - 1, nil
}

// Inputs is the size of a Connect Four network's input: for cell = row*7
// + column (row 0 the bottom row), input 2*cell is 1 when X holds the
// cell and 2*cell+1 when O does; input 84 is 1 when X is to move.
const Inputs = 2*Width*Height + 1

// inputOf[bit] is the input of an X stone on the board's bit; an O stone
// is the input after it.
var inputOf = func() (t [64]int32) {
	for col := range Width {
		for row := range Height {
			t[col*(Height+1)+row] = int32(2 * (row*Width + col))
		}
	}
	return t
}()

// Encode implements game.Game: the side input first, then the stones'
// inputs in increasing order.
func (rules) Encode(p game.Position, on []int32) []int32 {
	b := FromPosition(p)
	x, o := b.Cur, b.Mask^b.Cur // the side to move's stones, the other's
	if b.Plies()&1 == 1 {
		x, o = o, x
	} else {
		on = append(on, Inputs-1)
	}
	var in [2]uint64 // inputs 0..63 and 64..84, as bits
	for m := x; m != 0; m &= m - 1 {
		i := inputOf[bits.TrailingZeros64(m)]
		in[i>>6] |= 1 << (i & 63)
	}
	for m := o; m != 0; m &= m - 1 {
		i := inputOf[bits.TrailingZeros64(m)] + 1
		in[i>>6] |= 1 << (i & 63)
	}
	for w, m := range in {
		for ; m != 0; m &= m - 1 {
			on = append(on, int32(64*w+bits.TrailingZeros64(m)))
		}
	}
	return on
}
