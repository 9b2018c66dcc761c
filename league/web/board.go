package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"ttt/agents"
	"ttt/agents/game"
)

// writeBoard is p, reached by moves (nil when the request gave a board),
// in the notation the move API answers in: its cells, as the request's
// board=B gives them, for a game that reads boards (tic-tac-toe's
// X.O......); its moves, as people type them, for the others (Connect
// Four's 4453).
func writeBoard(kit *agents.Kit, p game.Position, moves []int) string {
	var sb strings.Builder
	if kit.ReadBoard != nil {
		for _, row := range kit.Marks(p) {
			sb.Write(row)
		}
		return sb.String()
	}
	for _, m := range moves {
		sb.WriteString(kit.FormatMove(m))
	}
	return sb.String()
}

// requestPosition reads the position a move is asked for: on GET from
// the query, board=B (the game's board, see writeBoard) or moves=4,0,8
// (the moves played, X first, as people type them: squares 0-8, columns
// 1-7); on POST from a JSON body {"board": B} or {"moves": [4, 0, 8]}.
// Not both; neither is the start. moves is nil for a board. A position
// is one a game can reach; it may be finished (the caller decides what
// that means). An error says what is wrong, in the request's terms; a
// body over the size limit is an *http.MaxBytesError.
func requestPosition(r *http.Request, kit *agents.Kit) (p game.Position, moves []int, err error) {
	var board *string
	var typed []string
	// The examples an error gives: the middle move, and then a corner
	// square, or twice the middle column and one beside it.
	mid := kit.Moves() / 2
	example := kit.FormatMove(mid) + ", " + kit.FormatMove(0)
	if kit.Layout.Drop {
		example = kit.FormatMove(mid) + ", " + kit.FormatMove(mid) + ", " + kit.FormatMove(mid-1)
	}
	cells := kit.Layout.Rows * kit.Layout.Cols
	exampleBoard := "X.O" + strings.Repeat(".", max(cells-3, 0))
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
			if kit.ReadBoard == nil {
				return p, nil, fmt.Errorf(`the body must be {"moves": [%s]}: %v`, example, err)
			}
			return p, nil, fmt.Errorf(`the body must be {"board": %q} or {"moves": [%s]}: %v`, exampleBoard, example, err)
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
		if kit.ReadBoard == nil {
			return p, nil, fmt.Errorf("%s takes no board: give its moves, moves=%s", kit.Title(), strings.ReplaceAll(example, " ", ""))
		}
		p, err = kit.ReadBoard(*board)
		return p, nil, err
	}
	return playMoves(kit, typed)
}

// playMoves plays the moves typed from the start of kit's game, X
// first, and says which move is not legal, if one is.
func playMoves(kit *agents.Kit, typed []string) (game.Position, []int, error) {
	p, word := kit.Start(), kit.MoveName()
	moves := make([]int, 0, len(typed))
	for i, s := range typed {
		s = strings.TrimSpace(s)
		if _, err := strconv.Atoi(s); err != nil {
			return p, nil, fmt.Errorf("moves=%s: %q is not a %s number (%s)", strings.Join(typed, ","), s, word, kit.Span())
		}
		m, err := kit.ParseMove(s)
		switch {
		case kit.Result(p) != game.Ongoing:
			err = errors.New("the game is over")
		case err != nil:
			err = fmt.Errorf("%s %s is off the board (%s)", word, s, kit.Span())
		case kit.Legal(p)&(1<<m) == 0:
			err = fmt.Errorf("%s %s is %s", word, s, kit.Full())
		}
		if err != nil {
			return p, nil, fmt.Errorf("move %d (%s on %s): %v", i+1, kit.ToMove(p), s, err)
		}
		p = kit.Play(p, m)
		moves = append(moves, m)
	}
	return p, moves, nil
}
