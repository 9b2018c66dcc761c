package web_test

import (
	"testing"

	"ttt/agents/game/tictactoe"
	"ttt/league/web"
)

// The move endpoint takes a board exactly when a game can reach it: of
// all 3^9 ways to fill the squares, checkBoard accepts the 5,478
// positions of the solved game, and refuses every other with a reason.
func TestBoardsAreTheReachableOnes(t *testing.T) {
	reachable := map[tictactoe.Board]bool{}
	for _, b := range tictactoe.Solve().Positions() {
		reachable[b] = true
	}
	accepted := 0
	var squares [9]byte
	for n := range 19683 {
		for sq, k := 0, n; sq < 9; sq, k = sq+1, k/3 {
			squares[sq] = ".XO"[k%3]
		}
		b, err := web.CheckBoard(string(squares[:]))
		switch {
		case err == nil && !reachable[b]:
			t.Errorf("%s is accepted, but no game reaches it", squares)
		case err != nil && reachable[b]:
			t.Errorf("%s is refused (%v), but a game reaches it", squares, err)
		case err == nil:
			accepted++
		case err.Error() == "":
			t.Errorf("%s is refused without a reason", squares)
		}
	}
	if accepted != len(reachable) {
		t.Errorf("%d boards accepted, want %d", accepted, len(reachable))
	}
}
