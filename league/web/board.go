package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"net/http"
	"strconv"
	"strings"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// notation is how the move API writes the positions of one game, and
// reads them: the only thing in the API that differs from game to game.
type notation struct {
	span string // the moves people type: 0-8, 1-7
	full string // what a move that cannot be played is: taken, full
	// write is p, reached by moves (nil when the request gave a board),
	// as the answer's board and after give it.
	write func(kit *agents.Kit, p game.Position, moves []int) string
	// board reads the board=B of a request; nil for a game whose
	// positions are given by their moves only.
	board func(s string) (game.Position, error)
}

// notations are the games' notations, by name. Tic-tac-toe's board is
// its nine squares (X.O......); Connect Four's is its moves, the columns
// 1-7 as ttt analyze takes them (4453): where a stone lands depends on
// the stones under it, and the moves say that in a few characters.
var notations = map[string]notation{
	"tictactoe": {span: "0-8", full: "taken",
		write: func(_ *agents.Kit, p game.Position, _ []int) string { return tictactoe.FromPosition(p).Compact() },
		board: func(s string) (game.Position, error) {
			b, err := checkBoard(s)
			return b.Position(), err
		}},
	"connect4": {span: "1-7", full: "full",
		write: func(kit *agents.Kit, _ game.Position, moves []int) string {
			var sb strings.Builder
			for _, m := range moves {
				sb.WriteString(kit.FormatMove(m))
			}
			return sb.String()
		}},
}

// requestPosition reads the position a move is asked for: on GET from
// the query, board=B (the game's board, see notations) or moves=4,0,8
// (the moves played, X first, as people type them: squares 0-8, columns
// 1-7); on POST from a JSON body {"board": B} or {"moves": [4, 0, 8]}.
// Not both; neither is the start. moves is nil for a board. A position
// is one a game can reach; it may be finished (the caller decides what
// that means). An error says what is wrong, in the request's terms; a
// body over the size limit is an *http.MaxBytesError.
func requestPosition(r *http.Request, kit *agents.Kit, n notation) (p game.Position, moves []int, err error) {
	var board *string
	var typed []string
	example := "4, 0"
	if n.board == nil {
		example = "4, 4, 3"
	}
	if r.Method == http.MethodPost {
		var body struct {
			Board *string `json:"board"`
			Moves []int   `json:"moves"`
		}
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		err := dec.Decode(&body)
		if err == nil && dec.More() {
			err = errors.New("more than one JSON value")
		}
		if err != nil {
			if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
				return p, nil, err
			}
			if errors.Is(err, io.EOF) {
				err = errors.New("the body is empty")
			}
			if n.board == nil {
				return p, nil, fmt.Errorf(`the body must be {"moves": [%s]}: %v`, example, err)
			}
			return p, nil, fmt.Errorf(`the body must be {"board": "X.O......"} or {"moves": [%s]}: %v`, example, err)
		}
		if body.Moves != nil && body.Board != nil {
			return p, nil, errors.New("give board or moves, not both")
		}
		board = body.Board
		for _, m := range body.Moves {
			typed = append(typed, strconv.Itoa(m))
		}
	} else {
		q := r.URL.Query()
		if q.Has("board") && q.Has("moves") {
			return p, nil, errors.New("give board or moves, not both")
		}
		if q.Has("board") {
			b := q.Get("board")
			board = &b
		}
		if list := q.Get("moves"); list != "" {
			typed = strings.Split(list, ",")
		}
	}
	if board != nil {
		if n.board == nil {
			return p, nil, fmt.Errorf("%s takes no board: give its moves, moves=%s", kit.Title(), strings.ReplaceAll(example, " ", ""))
		}
		p, err = n.board(*board)
		return p, nil, err
	}
	return playMoves(kit, n, typed)
}

// playMoves plays the moves typed from the start of kit's game, X
// first, and says which move is not legal, if one is.
func playMoves(kit *agents.Kit, n notation, typed []string) (game.Position, []int, error) {
	p, word := kit.Start(), kit.MoveName()
	moves := make([]int, 0, len(typed))
	for i, s := range typed {
		s = strings.TrimSpace(s)
		if _, err := strconv.Atoi(s); err != nil {
			return p, nil, fmt.Errorf("moves=%s: %q is not a %s number (%s)", strings.Join(typed, ","), s, word, n.span)
		}
		m, err := kit.ParseMove(s)
		switch {
		case kit.Result(p) != game.Ongoing:
			err = errors.New("the game is over")
		case err != nil:
			err = fmt.Errorf("%s %s is off the board (%s)", word, s, n.span)
		case kit.Legal(p)&(1<<m) == 0:
			err = fmt.Errorf("%s %s is %s", word, s, n.full)
		}
		if err != nil {
			return p, nil, fmt.Errorf("move %d (%s on %s): %v", i+1, kit.ToMove(p), s, err)
		}
		p = kit.Play(p, m)
		moves = append(moves, m)
	}
	return p, moves, nil
}

// checkBoard reads a board as tictactoe.ParseBoard does and checks that a game
// can reach it: X moves first and the sides alternate (ParseBoard checks
// the counts), and a game ends at the first three in a row, so both
// sides cannot have one, and nobody moves after one. These are all the
// conditions: a board that meets them is reachable (the package's tests
// compare it with every reachable position).
func checkBoard(s string) (tictactoe.Board, error) {
	if len(s) != 9 {
		return tictactoe.Board{}, fmt.Errorf("board %q: want 9 characters, X, O or . for each square, row-major", s)
	}
	if i := strings.IndexFunc(s, func(c rune) bool { return !strings.ContainsRune("XxOo.-_", c) }); i >= 0 {
		return tictactoe.Board{}, fmt.Errorf("board %q: square %d is %q; use X, O or . (empty)", s, i, s[i])
	}
	// ParseBoard now refuses only counts that no game has.
	b, err := tictactoe.ParseBoard(s)
	if err != nil {
		return b, fmt.Errorf("%v: X moves first and the sides take turns", err)
	}
	xLine := tictactoe.Board{X: b.X}.Result() == game.XWins
	oLine := tictactoe.Board{O: b.O}.Result() == game.OWins
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
