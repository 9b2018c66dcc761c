package tictactoe_test

import (
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// play returns the board after the given squares, X moving first.
func play(t *testing.T, squares ...int) tictactoe.Board {
	t.Helper()
	var b tictactoe.Board
	for _, sq := range squares {
		if err := b.CheckMove(sq); err != nil {
			t.Fatalf("move %d on\n%s\n: %v", sq, b, err)
		}
		b = b.Play(sq)
	}
	return b
}

func TestEveryLineWins(t *testing.T) {
	lines := [][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}
	for _, l := range lines {
		for _, side := range []game.Side{game.X, game.O} {
			var b tictactoe.Board
			for _, sq := range l {
				if side == game.X {
					b.X |= 1 << sq
				} else {
					b.O |= 1 << sq
				}
			}
			if got, want := b.Result(), game.Win(side); got != want {
				t.Errorf("line %v for %s: result %v, want %v", l, side, got, want)
			}
		}
	}
	// Two of a line and a gap is no win.
	if got := play(t, 0, 3, 1, 4).Result(); got != game.Ongoing {
		t.Errorf("no line yet: result %v", got)
	}
}

func TestGameResults(t *testing.T) {
	for _, tt := range []struct {
		name  string
		moves []int
		want  game.Result
	}{
		{"X row", []int{0, 3, 1, 4, 2}, game.XWins},
		{"O column", []int{0, 1, 3, 4, 8, 7}, game.OWins},
		{"X wins on the last square", []int{0, 1, 2, 4, 3, 6, 5, 8, 7}, game.Tie},
		{"full board tie", []int{0, 1, 2, 4, 3, 5, 7, 6, 8}, game.Tie},
		{"X diagonal with the ninth move", []int{0, 1, 2, 3, 4, 6, 5, 7, 8}, game.XWins},
		{"empty", nil, game.Ongoing},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := play(t, tt.moves...).Result(); got != tt.want {
				t.Errorf("result %v, want %v", got, tt.want)
			}
		})
	}
}

func TestIllegalMovesRefused(t *testing.T) {
	b := play(t, 4)
	for _, sq := range []int{-1, 9, 100, 4} {
		if b.CheckMove(sq) == nil {
			t.Errorf("move %d accepted on\n%s", sq, b)
		}
	}
	over := play(t, 0, 3, 1, 4, 2)
	if over.CheckMove(8) == nil {
		t.Error("a move after the game ended was accepted")
	}
	if err := b.CheckMove(0); err != nil {
		t.Errorf("legal move refused: %v", err)
	}
}

func TestSideToMove(t *testing.T) {
	b := tictactoe.Board{}
	for i, sq := range []int{4, 0, 8, 2, 6} {
		want := game.Side(i % 2)
		if got := b.ToMove(); got != want {
			t.Fatalf("after %d moves: %s to move, want %s", i, got, want)
		}
		b = b.Play(sq)
	}
	if b.X != 1<<4|1<<8|1<<6 || b.O != 1<<0|1<<2 {
		t.Errorf("pieces landed wrong:\n%s", b)
	}
}

func TestParseBoard(t *testing.T) {
	b := play(t, 4, 0, 8)
	got, err := tictactoe.ParseBoard(b.Compact())
	if err != nil || got != b {
		t.Errorf("ParseBoard(%q) = %v, %v; want %v", b.Compact(), got, err, b)
	}
	for _, bad := range []string{"", "XXX......", "X.O.Z....", "........."[:8]} {
		if _, err := tictactoe.ParseBoard(bad); err == nil {
			t.Errorf("ParseBoard(%q) accepted", bad)
		}
	}
}

func TestParseSide(t *testing.T) {
	for in, want := range map[string]game.Side{"X": game.X, "o": game.O} {
		if got, err := game.ParseSide(in); err != nil || got != want {
			t.Errorf("ParseSide(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "Y", "XO"} {
		if _, err := game.ParseSide(bad); err == nil {
			t.Errorf("ParseSide(%q) accepted", bad)
		}
	}
}

// ReadBoard takes a board exactly when a game can reach it: of all 3^9
// ways to fill the squares, it accepts the 5,478
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
		b, err := tictactoe.ReadBoard(string(squares[:]))
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
