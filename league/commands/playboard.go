package commands

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
)

// view is how play shows a game in the terminal and reads the moves typed.
type view struct {
	span  string // the numbers typed: 0-8
	full  string // what a move that cannot be played is: taken
	board func(w io.Writer, p game.Position)
	grid  func(w io.Writer, p game.Position, cells []string, chosen int)
}

// views are the games' views, by name: tic-tac-toe's grid with the
// square numbers beside it, Connect Four's rows over the column numbers.
var views = map[string]view{
	"tictactoe": {span: "0-8", full: "taken",
		board: func(w io.Writer, p game.Position) { writeBoard(w, tictactoe.FromPosition(p)) },
		grid: func(w io.Writer, p game.Position, cells []string, chosen int) {
			writeGrid(w, tictactoe.FromPosition(p), cells, chosen)
		}},
	"connect4": {span: "1-7", full: "full", board: writeColumns, grid: writeColumnCells},
}

// parse reads one line typed at the move prompt in p: the move to play,
// errQuit for q, or why the line is not a legal move.
func (v view) parse(kit *agents.Kit, p game.Position, line string) (int, error) {
	text, word := strings.TrimSpace(line), kit.MoveName()
	switch strings.ToLower(text) {
	case "q", "quit":
		return 0, errQuit
	case "":
		return 0, fmt.Errorf("the line is empty; type a %s %s", word, v.span)
	}
	if _, err := strconv.Atoi(text); errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s %s is off the board (%s)", word, text, v.span)
	} else if err != nil {
		return 0, fmt.Errorf("%q is not a %s number (%s)", text, word, v.span)
	}
	m, err := kit.ParseMove(text)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s %s is off the board (%s)", word, text, v.span)
	case kit.Legal(p)&(1<<m) == 0:
		return 0, fmt.Errorf("%s %s is %s", word, text, v.full)
	}
	return m, nil
}

// writeBoard draws b with the square numbers beside it.
func writeBoard(w io.Writer, b tictactoe.Board) {
	for row := range 3 {
		if row > 0 {
			fmt.Fprintln(w, "  ---+---+---")
		}
		sq := 3 * row
		fmt.Fprintf(w, "   %c | %c | %c      %d %d %d\n",
			mark(b, sq), mark(b, sq+1), mark(b, sq+2), sq, sq+1, sq+2)
	}
}

// mark is what a square shows on the board: X, O, or a space when empty.
func mark(b tictactoe.Board, sq int) byte {
	if c := b.At(sq); c != '.' {
		return c
	}
	return ' '
}

// writeGrid draws the agent's cells over b: the taken squares with their
// marks, the empty ones with their text, and the chosen one in brackets.
func writeGrid(w io.Writer, b tictactoe.Board, cells []string, chosen int) {
	for row := range 3 {
		var sb strings.Builder
		for sq := 3 * row; sq < 3*row+3; sq++ {
			switch {
			case !b.IsEmpty(sq):
				fmt.Fprintf(&sb, "     %c   ", b.At(sq))
			case sq == chosen:
				fmt.Fprintf(&sb, " [%6s]", cells[sq])
			default:
				fmt.Fprintf(&sb, "  %6s ", cells[sq])
			}
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
	}
}

// writeColumns draws a Connect Four board: its rows, the top first, over
// the column numbers people type.
func writeColumns(w io.Writer, p game.Position) {
	b := connect4.FromPosition(p)
	for row := connect4.Height - 1; row >= 0; row-- {
		var sb strings.Builder
		sb.WriteString("  |")
		for col := range connect4.Width {
			c := b.At(row, col)
			if c == '.' {
				c = ' '
			}
			sb.WriteByte(' ')
			sb.WriteByte(c)
		}
		sb.WriteString(" |")
		fmt.Fprintln(w, sb.String())
	}
	fmt.Fprintln(w, "  +---------------+")
	fmt.Fprintln(w, "    1 2 3 4 5 6 7")
}

// writeColumnCells writes the agent's cell of each column on one line, the
// chosen one in brackets, a full column as -.
func writeColumnCells(w io.Writer, _ game.Position, cells []string, chosen int) {
	var sb strings.Builder
	for col, c := range cells {
		switch {
		case c == "":
			c = "-"
		case col == chosen:
			c = "[" + c + "]"
		}
		fmt.Fprintf(&sb, "%d:%-8s ", col+1, c)
	}
	fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
}
