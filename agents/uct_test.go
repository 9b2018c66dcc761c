package agents_test

import (
	"math/rand/v2"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// UCT takes a win in one and blocks a loss in one: with a thousand
// playouts both stand out from every other move by far.
func TestUCTWinsAndBlocks(t *testing.T) {
	for _, tt := range []struct {
		board string
		want  int
	}{
		{"XX.OO....", 2}, // X wins at 2
		{"XX.O.....", 2}, // O must block at 2
	} {
		b, err := tictactoe.ParseBoard(tt.board)
		if err != nil {
			t.Fatal(err)
		}
		m := &agents.UCT{Game: tictactoe.Game, Playouts: 1000, Rand: rand.New(rand.NewPCG(1, 2))}
		got := m.Move(b.Position())
		if !b.IsEmpty(got) {
			t.Fatalf("%s: UCT played taken square %d", tt.board, got)
		}
		if got != tt.want {
			t.Errorf("%s: UCT played %d, want %d", tt.board, got, tt.want)
		}
	}
}

// The same generator gives the same moves: a match with UCT replays.
func TestUCTIsReproducible(t *testing.T) {
	play := func(seed uint64) []int {
		m := &agents.UCT{Game: tictactoe.Game, Playouts: 200, Rand: rand.New(rand.NewPCG(seed, 0))}
		var moves []int
		p := tictactoe.Game.Start()
		for tictactoe.Game.Result(p) == game.Ongoing {
			mv := m.Move(p)
			moves = append(moves, mv)
			p = tictactoe.Game.Play(p, mv)
		}
		return moves
	}
	a, b := play(7), play(7)
	if len(a) != len(b) {
		t.Fatalf("two games from one seed: %v and %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("two games from one seed: %v and %v", a, b)
		}
	}
}

// More playouts play better: against the perfect player, a strong UCT
// never loses as X over a few games while a one-playout UCT, random in
// effect, loses some.
func TestUCTStrengthGrowsWithPlayouts(t *testing.T) {
	losses := func(playouts int) int {
		n := 0
		for seed := range uint64(20) {
			m := &agents.UCT{Game: tictactoe.Game, Playouts: playouts, Rand: rand.New(rand.NewPCG(seed, 1))}
			if game.Play(tictactoe.Game, tictactoe.Game.Start(), m, tictactoe.Perfect()) == game.OWins {
				n++
			}
		}
		return n
	}
	weak, strong := losses(1), losses(3000)
	if strong != 0 || weak == 0 {
		t.Errorf("losses to perfect in 20 games as X: %d with 1 playout, %d with 3,000; want some and none", weak, strong)
	}
}
