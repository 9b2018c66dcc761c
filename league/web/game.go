package web

import (
	"net/http"

	"ttt/agents"
)

// gameAnswer is the league's game as the pages draw it and play it:
// what they read of a game rather than asking its name, so that a game
// ttt learns to play needs no page of its own.
type gameAnswer struct {
	Name  string   `json:"name"`  // as --game takes it: connect4
	Title string   `json:"title"` // as people read it: Connect Four
	Move  string   `json:"move"`  // what a move is called: square, column
	Moves []string `json:"moves"` // each move as people type it, by its number
	Full  string   `json:"full"`  // what a move that cannot be played is: taken, full
	Rows  int      `json:"rows"`
	Cols  int      `json:"cols"`
	// Drop: a move names a column, and its stone falls to the lowest
	// empty cell; otherwise a move names a cell, numbered row by row
	// from the top left.
	Drop bool `json:"drop"`
	// Lines are the lines that win the game, each as its cells, [row,
	// column] with the top row 0.
	Lines [][][2]int `json:"lines"`
	// Solved: every position's value is known, and a check classes the
	// players (perfect, beatable...); Sets: the players are measured by
	// their share of optimal moves in fixed sets of solved positions.
	Solved bool `json:"solved"`
	Sets   bool `json:"sets"`
	// Board: the move endpoint takes board=B, the cells row by row from
	// the top; a game without it takes moves only.
	Board bool `json:"board"`
}

// game answers GET /api/game: the league's game.
func (s *Server) game(w http.ResponseWriter, r *http.Request, o *opened) {
	writeJSON(w, r, describe(agents.KitFor(o.db.Game())))
}

// describe is kit as the pages read it.
func describe(kit *agents.Kit) gameAnswer {
	l := kit.Layout
	out := gameAnswer{Name: kit.Name(), Title: kit.Title(), Move: kit.MoveName(), Full: kit.Full(),
		Rows: l.Rows, Cols: l.Cols, Drop: l.Drop, Solved: kit.Solved, Sets: kit.Positions != nil, Board: kit.ReadBoard != nil}
	for m := range kit.Moves() {
		out.Moves = append(out.Moves, kit.FormatMove(m))
	}
	at := make(map[int][2]int, l.Rows*l.Cols)
	for r := range l.Rows {
		for c := range l.Cols {
			at[kit.Cell(r, c)] = [2]int{r, c}
		}
	}
	for _, line := range kit.Board().Lines {
		cells := make([][2]int, len(line))
		for k, cell := range line {
			cells[k] = at[cell]
		}
		out.Lines = append(out.Lines, cells)
	}
	return out
}
