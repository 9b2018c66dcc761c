package agents_test

import (
	"math/rand/v2"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
)

func TestRandomIsLegalAndUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	b := game.Board{}.Play(4).Play(0).Play(8) // 6 empty squares
	counts := map[int]int{}
	const n = 60000
	for range n {
		sq := agents.RandomMove(b, rng)
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
	p := agents.Perfect()
	if got := agents.Play(game.Board{}, p, p); got != game.Tie {
		t.Errorf("perfect vs perfect: %v", got)
	}
}

func TestPerfectFinishesQuickly(t *testing.T) {
	// X to move with two ways to win: now at 2, or later. It must win now.
	b, _ := game.ParseBoard("XX.OO....")
	if got := agents.Perfect().Move(b); got != 2 {
		t.Errorf("perfect plays %d, want the immediate win at 2", got)
	}
}

func TestTableRecordsEveryPosition(t *testing.T) {
	calls := 0
	tab := agents.NewTable(func(b game.Board) int {
		calls++
		return agents.RandomMove(b, rand.New(rand.NewPCG(uint64(b.Index()), 0)))
	})
	if calls != 4520 {
		t.Errorf("table asked %d positions, want 4520", calls)
	}
	for _, b := range game.Solve().Positions() {
		if b.Result() == game.Ongoing && !b.IsEmpty(tab.Move(b)) {
			t.Fatalf("table move on a taken square in\n%s", b)
		}
	}
}
