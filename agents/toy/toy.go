// Package toy is a third game for the tests alone: Connect Three, on a
// board of five columns and four rows, where the stones drop as in
// Connect Four and three in a row wins. It is what a game ttt learns to
// play must declare, and nothing more: rules (game.Game) and a kit
// (agents.Kit) whose built-in players are random and MCTS, and whose
// check is the share of optimal moves on sets of solved positions, as
// Connect Four's is (the game is small enough to solve whole).
//
// Importing the package registers nothing: the program users get has
// two games, and so has every test but those whose point is this one.
// Such a test calls OwnProcess, which runs it in a process of its own
// with the game registered. There a league of it goes through the same
// code as the two real games.
package toy

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/train"
)

// The board: Cols columns of Rows cells, cell row*Cols+column from the
// bottom left.
const (
	Cols  = 5
	Rows  = 4
	cells = Cols * Rows
)

// Game is Connect Three. A position's A holds X's stones and B O's, a
// bit per cell.
var Game game.Game = rules{}

// Kit is what ttt knows of playing Connect Three.
var Kit = &agents.Kit{
	Game:    Game,
	Layout:  agents.Layout{Rows: Rows, Cols: Cols, Drop: true},
	Learner: train.PolicyMethod,
	League:  agents.LeagueDefaults{GamesPerRound: 2000, Openings: 1, Opponents: 8, LadderOpenings: 1, SelfPlay: 0.5},
	Builtins: []agents.Builtin{
		agents.RandomBuiltin(Game),
		agents.MCTSBuiltin(Game, 10, 150),
		agents.MCTSBuiltin(Game, 100, 400),
	},
	Positions: positions,
	Random:    random,
	Check:     check,
	Analyze:   analyze,
}

type rules struct{}

func (rules) Name() string                       { return "connect3" }
func (rules) Title() string                      { return "Connect Three" }
func (rules) Start() game.Position               { return game.Position{} }
func (rules) Moves() int                         { return Cols }
func (rules) MaxPlies() int                      { return cells }
func (rules) Inputs() int                        { return 2*cells + 1 }
func (rules) MoveName() string                   { return "column" }
func (rules) FormatMove(col int) string          { return strconv.Itoa(col + 1) }
func (rules) Plies(p game.Position) int          { return bits.OnesCount64(p.A | p.B) }
func (r rules) ToMove(p game.Position) game.Side { return game.Side(r.Plies(p) & 1) }

func (rules) ParseMove(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > Cols {
		return 0, fmt.Errorf("column %q is not one of 1-%d", s, Cols)
	}
	return n - 1, nil
}

func (rules) Legal(p game.Position) uint64 {
	var legal uint64
	for col := range Cols {
		if (p.A|p.B)&(1<<((Rows-1)*Cols+col)) == 0 {
			legal |= 1 << col
		}
	}
	return legal
}

// landing is the cell where a stone dropped in col lands in p.
func landing(p game.Position, col int) int {
	cell := col
	for (p.A|p.B)&(1<<cell) != 0 {
		cell += Cols
	}
	return cell
}

func (r rules) Play(p game.Position, col int) game.Position {
	bit := uint64(1) << landing(p, col)
	if r.ToMove(p) == game.X {
		p.A |= bit
	} else {
		p.B |= bit
	}
	return p
}

func (r rules) Result(p game.Position) game.Result {
	for _, l := range lineMasks {
		switch {
		case p.A&l == l:
			return game.XWins
		case p.B&l == l:
			return game.OWins
		}
	}
	if r.Plies(p) == cells {
		return game.Tie
	}
	return game.Ongoing
}

// Encode implements game.Game: X's stones are inputs 0-19, O's 20-39,
// and input 40 is on when X is to move.
func (r rules) Encode(p game.Position, on []int32) []int32 {
	if r.ToMove(p) == game.X {
		on = append(on, 2*cells)
	}
	for m := p.A; m != 0; m &= m - 1 {
		on = append(on, int32(bits.TrailingZeros64(m)))
	}
	for m := p.B; m != 0; m &= m - 1 {
		on = append(on, int32(cells+bits.TrailingZeros64(m)))
	}
	return on
}

func (rules) Board() game.Board { return board }

func (rules) CellStates(p game.Position, dst []uint8) {
	for cell := range cells {
		dst[cell] = stateOf(p, cell)
	}
}

// stateOf is cell's state in p: 0 empty, 1 X's, 2 O's.
func stateOf(p game.Position, cell int) uint8 {
	switch bit := uint64(1) << cell; {
	case p.A&bit != 0:
		return 1
	case p.B&bit != 0:
		return 2
	}
	return 0
}

func (r rules) Changes(p game.Position, col int, dst []game.Change) []game.Change {
	return append(dst, game.Change{Cell: landing(p, col), From: 0, To: 1 + uint8(r.ToMove(p))})
}

func (rules) Format(p game.Position) string {
	var sb strings.Builder
	for row := Rows - 1; row >= 0; row-- {
		for col := range Cols {
			sb.WriteByte(".XO"[stateOf(p, row*Cols+col)])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// board is the board as an n-tuple network reads it, and lineMasks its
// lines of three as masks of cells.
var board, lineMasks = func() (game.Board, []uint64) {
	b := game.Board{Cells: cells, Width: Cols, States: 3}
	ident, mirror := make([]int, cells), make([]int, cells)
	for cell := range cells {
		ident[cell], mirror[cell] = cell, cell/Cols*Cols+Cols-1-cell%Cols
	}
	b.Symmetries = [][]int{ident, mirror}
	var masks []uint64
	for row := range Rows {
		for col := range Cols {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				var line []int
				var mask uint64
				for k := range 3 {
					r, c := row+k*d[0], col+k*d[1]
					if r < Rows && c >= 0 && c < Cols {
						line = append(line, r*Cols+c)
						mask |= 1 << (r*Cols + c)
					}
				}
				if len(line) == 3 {
					b.Lines, masks = append(b.Lines, line), append(masks, mask)
				}
			}
		}
	}
	return b, masks
}()
