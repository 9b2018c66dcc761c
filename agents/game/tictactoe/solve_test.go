package tictactoe_test

import (
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

func TestPositionCounts(t *testing.T) {
	s := tictactoe.Solve()
	pos := s.Positions()
	if got, want := len(pos), 5478; got != want {
		t.Errorf("%d reachable positions, want %d", got, want)
	}
	ongoing := 0
	seen := map[int]bool{}
	for _, b := range pos {
		if seen[b.Index()] {
			t.Fatalf("position listed twice:\n%s", b)
		}
		seen[b.Index()] = true
		if b.Result() == game.Ongoing {
			ongoing++
		}
	}
	if got, want := ongoing, 4520; got != want {
		t.Errorf("%d positions with a move due, want %d", got, want)
	}
}

func TestKnownValues(t *testing.T) {
	s := tictactoe.Solve()
	for _, tt := range []struct {
		board string
		want  game.Value
	}{
		{".........", game.Draw}, // the empty board is a draw
		{"X........", game.Draw}, // O to move after a corner
		{"XO.......", game.Won},  // O answered a corner with an adjacent edge: X wins
		{"X...O....", game.Draw}, // the centre reply holds
		{"XX.OO....", game.Won},  // X to move completes the top row
		{"XX.OO.X..", game.Won},  // O to move completes the middle row
		{"X.O.X.O..", game.Won},  // O left the diagonal open
		{"XXXOO....", game.Loss}, // finished: O, to move, has lost
		{"XOXXOOOXX", game.Draw}, // finished in a tie
	} {
		b, err := tictactoe.ParseBoard(tt.board)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Value(b); got != tt.want {
			t.Errorf("value of %s (%s to move) = %v, want %v", tt.board, b.ToMove(), got, tt.want)
		}
	}
}

// The value table must satisfy the negamax equation everywhere.
func TestValuesAreConsistent(t *testing.T) {
	s := tictactoe.Solve()
	for _, b := range s.Positions() {
		if b.Result() != game.Ongoing {
			continue
		}
		best := game.Loss
		optimal := 0
		for sq := range 9 {
			if b.IsEmpty(sq) {
				best = max(best, s.MoveValue(b, sq))
			}
		}
		for sq := range 9 {
			if b.IsEmpty(sq) && s.Optimal(b, sq) {
				optimal++
			}
		}
		if best != s.Value(b) || optimal == 0 {
			t.Fatalf("position\n%s\nvalue %v, best move value %v, %d optimal moves", b, s.Value(b), best, optimal)
		}
	}
}
