package nn_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/nn"
)

func TestValueNetFile(t *testing.T) {
	n := nn.NewValue(connect4.Game, 100, rand.New(rand.NewPCG(3, 1)))
	if !n.IsValue() || n.Outputs != 1 {
		t.Fatalf("NewValue: %d outputs", n.Outputs)
	}
	back, err := nn.Parse(connect4.Game, n.Bytes(), nn.Shape{})
	if err != nil {
		t.Fatal(err)
	}
	if !back.IsValue() || back.Hidden != 100 || !bytes.Equal(back.Bytes(), n.Bytes()) {
		t.Errorf("round trip: %d-%d-%d", back.Inputs, back.Hidden, back.Outputs)
	}
}

// The rules say what a finished game is worth: whatever its weights, a
// value net takes a win in one, and values it exactly.
func TestAfterstatesTakeTheWin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	n := nn.NewValue(connect4.Game, 20, rng)
	var p nn.Pass
	values := make([]float32, 7)
	for i := range 200 {
		b := connect4.Board{}
		for b.WinningMoves() == 0 {
			b = b.Play(game.RandomMove(connect4.Game, b.Position(), rng))
			if b.LastMoverWon() || b.Full() {
				b = connect4.Board{}
			}
		}
		m, worth := n.Afterstates(b.Position(), &p, values)
		if b.WinningMoves()&(1<<m) == 0 || worth != nn.ScoreWin || values[m] != nn.ScoreWin {
			t.Fatalf("position %d:\n%s\nmoved %d worth %v, winning moves %07b", i, b, m+1, worth, b.WinningMoves())
		}
		for c := range 7 {
			if b.CanPlay(c) && b.WinningMoves()&(1<<c) == 0 && !(values[c] > 0 && values[c] < 1) {
				t.Fatalf("column %d of an unfinished game valued %v", c+1, values[c])
			}
		}
	}
}

func TestLearnValueMovesTowardTarget(t *testing.T) {
	n := nn.NewValue(connect4.Game, 50, rand.New(rand.NewPCG(9, 1)))
	pos := connect4.Board{}.Play(3).Play(3).Position()
	var p nn.Pass
	for _, target := range []float32{1, 0, 0.5} {
		before := n.Value(pos, &p)
		for range 200 {
			n.LearnValue(pos, target, 0.01, &p)
		}
		after := n.Value(pos, &p)
		if d0, d1 := abs(before-target), abs(after-target); !(d1 < d0/2) {
			t.Errorf("target %v: value %v -> %v", target, before, after)
		}
	}
}

func abs(x float32) float32 { return max(x, -x) }
