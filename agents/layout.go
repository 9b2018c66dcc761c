package agents

import (
	"fmt"
	"strings"

	"ttt/agents/game"
)

// Layout is a game's board as people see it: Rows rows of Cols cells,
// the cells of the game's Board (whose CellStates say what each holds),
// numbered row by row. In a game of Drop a move names a column and its
// stone falls to the lowest empty cell (Connect Four), so the cells are
// numbered from the bottom row up; otherwise a move names a cell, and
// the cells are numbered from the top left (tic-tac-toe). The terminal
// and the web pages draw every game from its layout.
type Layout struct {
	Rows, Cols int
	Drop       bool
}

// Span is the moves people type, first to last: 0-8, 1-7.
func (k *Kit) Span() string {
	return k.FormatMove(0) + "-" + k.FormatMove(k.Moves()-1)
}

// Full is what a move that cannot be played is: a square taken, a
// column full.
func (k *Kit) Full() string {
	if k.Layout.Drop {
		return "full"
	}
	return "taken"
}

// Marks returns the mark of each cell of p, X, O or '.', by row, the
// top row first, each row from the left.
func (k *Kit) Marks(p game.Position) [][]byte {
	l := k.Layout
	states := make([]uint8, l.Rows*l.Cols)
	k.CellStates(p, states)
	rows := make([][]byte, l.Rows)
	for r := range rows {
		rows[r] = make([]byte, l.Cols)
		for c := range rows[r] {
			switch states[k.Cell(r, c)] {
			case 1:
				rows[r][c] = 'X'
			case 2:
				rows[r][c] = 'O'
			default: // empty, of whatever kind
				rows[r][c] = '.'
			}
		}
	}
	return rows
}

// Cell is the number of the cell in row r (the top row 0) and column c.
func (k *Kit) Cell(r, c int) int {
	if k.Layout.Drop {
		r = k.Layout.Rows - 1 - r
	}
	return r*k.Layout.Cols + c
}

// Register adds kit to the games ttt plays, after Games' own; its game
// must be registered with package game, under the same name. A kit that
// leaves out what every game must declare panics here, when its package
// is loaded, rather than in the middle of a league.
func Register(kit *Kit) {
	if err := kit.complete(); err != nil {
		panic(fmt.Sprintf("agents: the kit of %s: %v", kit.Name(), err))
	}
	if _, err := KitOf(kit.Name()); err == nil {
		panic("agents: two kits of " + kit.Name())
	}
	Games = append(Games, kit)
}

// complete reports what kit lacks of what every game declares.
func (k *Kit) complete() error {
	var missing []string
	b := k.Board()
	switch {
	case k.Layout.Rows*k.Layout.Cols != b.Cells || k.Layout.Cols != b.Width:
		return fmt.Errorf("its layout, %d rows of %d, is not its board's %d cells in rows of %d", k.Layout.Rows, k.Layout.Cols, b.Cells, b.Width)
	case k.Layout.Drop && k.Moves() != k.Layout.Cols, !k.Layout.Drop && k.Moves() != b.Cells:
		return fmt.Errorf("%d moves do not fit its layout", k.Moves())
	}
	if k.Learner == nil {
		missing = append(missing, "Learner")
	}
	if k.League.GamesPerRound < 1 || k.League.Openings < 0 || k.League.Opponents < 1 {
		missing = append(missing, "League")
	}
	if len(k.Builtins) == 0 || k.Builtins[0].Kind != "random" {
		missing = append(missing, "Builtins, random first")
	}
	if k.Check == nil {
		missing = append(missing, "Check")
	}
	if k.Analyze == nil {
		missing = append(missing, "Analyze")
	}
	if k.Solved && (k.Exploiter == nil || k.Mistakes == nil || k.Optimal == nil || k.Perfect == nil || k.Compile == nil) {
		missing = append(missing, "the training aids of a solved game")
	}
	if len(missing) > 0 {
		return fmt.Errorf("it declares no %s", strings.Join(missing, ", "))
	}
	return nil
}
