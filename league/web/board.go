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

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// requestBoard reads the position a move is asked for: on GET from the
// query, board=B (nine characters, X, O or . for each square, row-major)
// or moves=4,0,8 (the squares played, X first); on POST from a JSON body
// {"board": B} or {"moves": [4, 0, 8]}. Not both; neither is the empty
// board. A board must be one a game can reach; it may be finished (the
// caller decides what that means). An error says what is wrong, in the
// request's terms; a body over the size limit is an *http.MaxBytesError.
func requestBoard(r *http.Request) (tictactoe.Board, error) {
	var board *string
	var moves []int
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
				return tictactoe.Board{}, err
			}
			if errors.Is(err, io.EOF) {
				err = errors.New("the body is empty")
			}
			return tictactoe.Board{}, fmt.Errorf(`the body must be {"board": "X.O......"} or {"moves": [4, 0]}: %v`, err)
		}
		board, moves = body.Board, body.Moves
		if body.Moves != nil && board != nil {
			return tictactoe.Board{}, errors.New("give board or moves, not both")
		}
	} else {
		q := r.URL.Query()
		if q.Has("board") && q.Has("moves") {
			return tictactoe.Board{}, errors.New("give board or moves, not both")
		}
		if q.Has("board") {
			b := q.Get("board")
			board = &b
		}
		if list := q.Get("moves"); list != "" {
			for _, f := range strings.Split(list, ",") {
				sq, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					return tictactoe.Board{}, fmt.Errorf("moves=%s: %q is not a square number (0-8)", list, f)
				}
				moves = append(moves, sq)
			}
		}
	}
	if board != nil {
		return checkBoard(*board)
	}
	return playMoves(moves)
}

// playMoves plays moves from the empty board, X first, and says which
// move is not legal, if one is.
func playMoves(moves []int) (tictactoe.Board, error) {
	var b tictactoe.Board
	for i, sq := range moves {
		if err := b.CheckMove(sq); err != nil {
			return b, fmt.Errorf("move %d (%s on %d): %v", i+1, b.ToMove(), sq, err)
		}
		b = b.Play(sq)
	}
	return b, nil
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
