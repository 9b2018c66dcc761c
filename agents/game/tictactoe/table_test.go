package tictactoe_test

import (
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

func TestRandomIsLegalAndUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	b := tictactoe.Board{}.Play(4).Play(0).Play(8) // 6 empty squares
	counts := map[int]int{}
	const n = 60000
	for range n {
		sq := game.RandomMove(tictactoe.Game, b.Position(), rng)
		if !b.IsEmpty(sq) {
			t.Fatalf("random move on taken square %d", sq)
		}
		counts[sq]++
	}
	if len(counts) != 6 {
		t.Errorf("random moves reached %d squares, want 6", len(counts))
	}
	for sq, c := range counts {
		if c < n/6*9/10 || c > n/6*11/10 {
			t.Errorf("square %d chosen %d times of %d", sq, c, n)
		}
	}
}

func TestPerfectDrawsItself(t *testing.T) {
	p := tictactoe.Perfect()
	if got := game.Play(tictactoe.Game, tictactoe.Game.Start(), p, p); got != game.Tie {
		t.Errorf("perfect vs perfect: %v", got)
	}
}

func TestPerfectFinishesQuickly(t *testing.T) {
	// X to move with two ways to win: now at 2, or later. It must win now.
	b, _ := tictactoe.ParseBoard("XX.OO....")
	if got := tictactoe.Perfect().Move(b.Position()); got != 2 {
		t.Errorf("perfect plays %d, want the immediate win at 2", got)
	}
}

func TestTableRecordsEveryPosition(t *testing.T) {
	calls := 0
	tab := tictactoe.NewTable(boardPlayer(func(b tictactoe.Board) int {
		calls++
		return game.RandomMove(tictactoe.Game, b.Position(), rand.New(rand.NewPCG(uint64(b.Index()), 0)))
	}))
	if calls != 4520 {
		t.Errorf("table asked %d positions, want 4520", calls)
	}
	for _, b := range tictactoe.Solve().Positions() {
		if b.Result() == game.Ongoing && !b.IsEmpty(tab.Move(b.Position())) {
			t.Fatalf("table move on a taken square in\n%s", b)
		}
	}
}

// boardPlayer is a player written as a function of the board.
func boardPlayer(move func(tictactoe.Board) int) game.Player {
	return game.PlayerFunc(func(p game.Position) int { return move(tictactoe.FromPosition(p)) })
}
