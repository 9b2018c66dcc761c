package commands

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"ttt/agents"
	"ttt/agents/game"
)

// parse reads one line typed at the move prompt in p: the move to play,
// errQuit for q, or why the line is not a legal move.
func parseMove(kit *agents.Kit, p game.Position, line string) (int, error) {
	text, word, span := strings.TrimSpace(line), kit.MoveName(), kit.Span()
	switch strings.ToLower(text) {
	case "q", "quit":
		return 0, errQuit
	case "":
		return 0, fmt.Errorf("the line is empty; type a %s %s", word, span)
	}
	if _, err := strconv.Atoi(text); errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s %s is off the board (%s)", word, text, span)
	} else if err != nil {
		return 0, fmt.Errorf("%q is not a %s number (%s)", text, word, span)
	}
	m, err := kit.ParseMove(text)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%s %s is off the board (%s)", word, text, span)
	case kit.Legal(p)&(1<<m) == 0:
		return 0, fmt.Errorf("%s %s is %s", word, text, kit.Full())
	}
	return m, nil
}

// writeBoard draws p as people see it: a grid of cells with their
// numbers beside it (tic-tac-toe's squares), or the rows of a game whose
// stones drop, the top first, over the column numbers people type.
func writeBoard(w io.Writer, kit *agents.Kit, p game.Position) {
	marks := kit.Marks(p)
	for _, row := range marks {
		for c, m := range row {
			if m == '.' {
				row[c] = ' '
			}
		}
	}
	if kit.Layout.Drop {
		for _, row := range marks {
			fmt.Fprintf(w, "  | %s |\n", spaced(row))
		}
		fmt.Fprintf(w, "  +%s+\n", strings.Repeat("-", 2*kit.Layout.Cols+1))
		fmt.Fprintf(w, "    %s\n", strings.Join(labels(kit), " "))
		return
	}
	line := "  " + strings.Repeat("---+", kit.Layout.Cols-1) + "---"
	all := labels(kit)
	for r, row := range marks {
		if r > 0 {
			fmt.Fprintln(w, line)
		}
		cells := make([]string, len(row))
		for c, m := range row {
			cells[c] = string(m)
		}
		fmt.Fprintf(w, "   %s      %s\n", strings.Join(cells, " | "), strings.Join(all[r*len(row):(r+1)*len(row)], " "))
	}
}

// spaced is row's marks with a space between each two.
func spaced(row []byte) string {
	return strings.Join(strings.Split(string(row), ""), " ")
}

// labels are kit's moves as people type them, in order.
func labels(kit *agents.Kit) []string {
	out := make([]string, kit.Moves())
	for m := range out {
		out[m] = kit.FormatMove(m)
	}
	return out
}

// writeCells draws the agent's text of each move of p, cells (by move),
// the chosen move's in brackets: over the board where a move is a cell,
// the free cells with their text and the others with their marks; on one
// line where a move is a column, a full column as -.
func writeCells(w io.Writer, kit *agents.Kit, p game.Position, cells []string, chosen int) {
	if kit.Layout.Drop {
		var sb strings.Builder
		for col, c := range cells {
			switch {
			case c == "":
				c = "-"
			case col == chosen:
				c = "[" + c + "]"
			}
			fmt.Fprintf(&sb, "%s:%-8s ", kit.FormatMove(col), c)
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
		return
	}
	for r, row := range kit.Marks(p) {
		var sb strings.Builder
		for c, m := range row {
			switch sq := kit.Cell(r, c); {
			case m != '.':
				fmt.Fprintf(&sb, "     %c   ", m)
			case sq == chosen:
				fmt.Fprintf(&sb, " [%6s]", cells[sq])
			default:
				fmt.Fprintf(&sb, "  %6s ", cells[sq])
			}
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
	}
}
