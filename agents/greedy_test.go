package agents

import (
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/nn"
	"ttt/agents/ntuple"
)

// A win the rules settle outranks every estimate, even an estimate of 1
// (a float32 sigmoid of a large sum is 1 exactly) of a lower column, and
// even within the n-tuple network's tie window: a greedy value net or
// n-tuple network plays the win.
func TestRulesWinOutranksEstimates(t *testing.T) {
	g := connect4.Game
	p := g.Start()
	for _, col := range []int{3, 0, 3, 0, 3, 1} { // X three high in column 4, X to move
		p = g.Play(p, col)
	}
	if r := g.Result(g.Play(p, 3)); r != game.Win(game.X) {
		t.Fatalf("column 4 gives %v, want a win for X", r)
	}

	tuples, err := ntuple.New(g, [][]int{{0, 1, 2, 3}, {7, 8, 9, 10}, {14, 15, 21, 22}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range tuples.W {
		tuples.W[i] = 50 // every position it has not seen end is sure to win
	}
	values := make([]float32, g.Moves())
	if m, v := tuples.Afterstates(p, &ntuple.Pass{}, values); m != 3 || v != ntuple.ScoreWin || values[0] < 1-ntuple.TieWidth {
		t.Errorf("the n-tuple network plays column %d worth %v, values %v; want column 4, a win, over estimates of 1", m+1, v, values)
	}

	value := nn.NewValue(g, 4, rand.New(rand.NewPCG(1, 2)))
	clear(value.WHO)
	value.BO[0] = 50
	if m, v := value.Afterstates(p, &nn.Pass{}, values); m != 3 || v != nn.ScoreWin || values[0] != 1 {
		t.Errorf("the value net plays column %d worth %v, values %v; want column 4, a win, over estimates of 1", m+1, v, values)
	}
}
