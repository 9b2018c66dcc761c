package train_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/nn"
	"ttt/agents/train"
)

// optimalShare is the share of the positions of the exhaustive check,
// on both sides, where the value net's move keeps the game's value.
func optimalShare(net *nn.Net) float64 {
	var optimal, positions int
	for _, r := range agents.TicTacToe.Check(&nn.Player{Net: net.Clone()}).Verify {
		optimal += r.Optimal
		positions += r.Positions
	}
	return float64(optimal) / float64(positions)
}

// TD(λ) in self-play, from results alone, learns tic-tac-toe: every
// position of every line an opponent can choose, on both sides, is
// checked.
func TestTDLearnsTicTacToe(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	net := nn.NewValue(tictactoe.Game, nn.DefaultHidden, rng)
	if s := optimalShare(net); s > 0.8 {
		t.Fatalf("an untrained net keeps the value in %.1f%% of positions", 100*s)
	}
	l := train.NewTD(net, 0.1, learn.DefaultLambda, rng)
	for g := range 30000 {
		l.Play(game.Side(g%2), nil, 0.1)
	}
	if s := optimalShare(net); s < 0.95 {
		t.Errorf("after 30,000 games of self-play the net keeps the value in %.1f%% of positions", 100*s)
	}
}

func TestTDSameSeedSameNet(t *testing.T) {
	t.Parallel()
	run := func(seed uint64) []byte {
		rng := rand.New(rand.NewPCG(seed, 2))
		net := nn.NewValue(tictactoe.Game, 20, rng)
		l := train.NewTD(net, 0.1, 0.7, rng)
		random := game.Random{Game: tictactoe.Game, Rand: rng}
		for g := range 500 {
			var opp game.Player // itself, then random
			if g%2 == 1 {
				opp = random
			}
			l.Play(game.Side(g%2), opp, 0.1)
		}
		return net.Bytes()
	}
	if !bytes.Equal(run(1), run(1)) {
		t.Error("the same seed gave different weights")
	}
	if bytes.Equal(run(1), run(2)) {
		t.Error("different seeds gave the same weights")
	}
}
