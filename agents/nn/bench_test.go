package nn_test

import (
	"testing"

	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
)

// BenchmarkForward is one forward pass of the default network on a
// mid-game position.
func BenchmarkForward(b *testing.B) {
	n := newNet(100, 1)
	pos := tictactoe.Board{}.Play(4).Play(0).Play(8).Play(2)
	var p nn.Pass
	for b.Loop() {
		n.Forward(pos.Position(), &p)
	}
}
