package nn_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
)

func newNet(hidden int, seed uint64) *nn.Net {
	return nn.New(tictactoe.Game, hidden, rand.New(rand.NewPCG(seed, 1)))
}

// denseForward is the textbook forward pass of ttt-rl, every input and
// every hidden unit, in float64: the reference for the sparse one.
func denseForward(n *nn.Net, b tictactoe.Board) [9]float64 {
	var in [tictactoe.Inputs]float64
	for sq := range 9 {
		switch b.At(sq) {
		case 'X':
			in[2*sq] = 1
		case 'O':
			in[2*sq+1] = 1
		}
	}
	if b.ToMove() == game.X {
		in[18] = 1
	}
	H := n.Hidden
	h := make([]float64, H)
	for j := range h {
		s := float64(n.BH[j])
		for i := range in {
			s += in[i] * float64(n.WIH[i*H+j])
		}
		h[j] = math.Max(s, 0)
	}
	var z, p [9]float64
	m := math.Inf(-1)
	for k := range z {
		z[k] = float64(n.BO[k])
		for j := range h {
			z[k] += h[j] * float64(n.WHO[j*9+k])
		}
		m = math.Max(m, z[k])
	}
	var sum float64
	for k := range z {
		p[k] = math.Exp(z[k] - m)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
	return p
}

func TestForwardMatchesDense(t *testing.T) {
	n := newNet(100, 1)
	var p nn.Pass
	for _, b := range tictactoe.Solve().Positions() {
		n.Forward(b.Position(), &p)
		want := denseForward(n, b)
		for k := range want {
			if d := math.Abs(float64(p.Probs[k]) - want[k]); d > 1e-5 {
				t.Fatalf("position\n%s\noutput %d: %v, dense %v", b, k, p.Probs[k], want[k])
			}
		}
	}
}

// loss is the scaled cross-entropy that Step descends, in float64.
func loss(n *nn.Net, b tictactoe.Board, target []float32, scale float64) float64 {
	p := denseForward(n, b)
	var l float64
	for k, t := range target {
		if t > 0 {
			l -= float64(t) * math.Log(p[k])
		}
	}
	return scale * l
}

// TestStepFollowsGradient checks backpropagation against finite
// differences: the change Step makes to every parameter must be -lr times
// the numerical derivative of the loss.
func TestStepFollowsGradient(t *testing.T) {
	b := tictactoe.Board{}.Play(4).Play(0).Play(8) // O to move
	targets := map[string][]float32{
		"reward a move": {2: 1, 8: 0},
		"spread a loss": {1: 0.2, 3: 0.2, 5: 0.2, 6: 0.2, 7: 0.2, 8: 0},
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			const lr, scale, h = 1e-3, 1.5, 1e-3
			n := newNet(8, 3)
			after := n.Clone()
			var p nn.Pass
			after.Step(b.Position(), target, lr, scale, &p)

			params := func(n *nn.Net) [][]float32 { return [][]float32{n.WIH, n.WHO, n.BH, n.BO} }
			checked := 0
			for g, group := range params(n) {
				for i := range group {
					old := group[i]
					group[i] = old + h
					up := loss(n, b, target, scale)
					group[i] = old - h
					down := loss(n, b, target, scale)
					group[i] = old
					numeric := (up - down) / (2 * h)
					step := float64(params(after)[g][i]-old) / -lr
					if math.Abs(step-numeric) > 1e-3+1e-2*math.Abs(numeric) {
						t.Errorf("parameter group %d index %d: step says %.6f, finite differences %.6f", g, i, step, numeric)
					}
					if numeric != 0 {
						checked++
					}
				}
			}
			if checked < 50 {
				t.Errorf("only %d parameters had a gradient: the test checks little", checked)
			}
		})
	}
}

func TestLearnRewardsAndPunishes(t *testing.T) {
	moves := []int{4, 0, 8, 2, 1, 6, 7} // X wins with 1-4-7
	var p nn.Pass
	prob := func(n *nn.Net, b tictactoe.Board, sq int) float32 {
		n.Forward(b.Position(), &p)
		return p.Probs[sq]
	}
	start := tictactoe.Board{}
	for _, tt := range []struct {
		side game.Side
		b    tictactoe.Board
		sq   int
		up   bool
	}{
		{game.X, start, 4, true},                                 // the winner's first move gains
		{game.O, start.Play(4), 0, false},                        // the loser's first move loses ground
		{game.X, start.Play(4).Play(0).Play(8).Play(2), 1, true}, // and the winner's later moves too
	} {
		n := newNet(20, 5)
		before := prob(n, tt.b, tt.sq)
		n.Learn(moves, game.XWins, tt.side, 0.1, &p)
		after := prob(n, tt.b, tt.sq)
		if (after > before) != tt.up {
			t.Errorf("%s: probability of %d went from %v to %v", tt.side, tt.sq, before, after)
		}
	}
}

func TestRewards(t *testing.T) {
	for _, tt := range []struct {
		r    game.Result
		side game.Side
		want float32
	}{
		{game.XWins, game.X, nn.RewardWin},
		{game.XWins, game.O, nn.RewardLoss},
		{game.OWins, game.O, nn.RewardWin},
		{game.Tie, game.X, nn.RewardTie},
	} {
		if got := nn.Reward(tt.r, tt.side); got != tt.want {
			t.Errorf("Reward(%v, %v) = %v, want %v", tt.r, tt.side, got, tt.want)
		}
	}
}

func TestGreedyPicksBestEmptySquareLowestOnTie(t *testing.T) {
	b := tictactoe.Board{}.Play(0) // square 0 taken
	p := nn.Pass{Probs: []float32{0.9, 0.02, 0.03, 0.03, 0.01, 0.01, 0, 0, 0}}
	n := nn.New(tictactoe.Game, 4, rand.New(rand.NewPCG(1, 1)))
	if got := n.Greedy(b.Position(), &p); got != 2 {
		t.Errorf("greedy move %d, want 2 (0 is taken; 2 and 3 tie)", got)
	}
}

func TestSampleStaysLegalAndFollowsTemperature(t *testing.T) {
	n := newNet(30, 9)
	rng := rand.New(rand.NewPCG(1, 2))
	b := tictactoe.Board{}.Play(4).Play(0)
	var p nn.Pass
	n.Forward(b.Position(), &p)
	greedy := n.Greedy(b.Position(), &p)
	counts := map[float64]int{}
	for _, temp := range []float64{1, 0.001} {
		for range 2000 {
			sq := n.Sample(b.Position(), &p, 0, temp, rng)
			if !b.IsEmpty(sq) {
				t.Fatalf("sampled taken square %d", sq)
			}
			if sq == greedy {
				counts[temp]++
			}
		}
	}
	if counts[0.001] != 2000 || counts[1] == 2000 {
		t.Errorf("greedy move chosen %d/2000 at T=1 and %d/2000 at T=0.001", counts[1], counts[0.001])
	}
	for range 2000 {
		if sq := n.Sample(b.Position(), &p, 1, 1, rng); !b.IsEmpty(sq) {
			t.Fatalf("epsilon move on taken square %d", sq)
		}
	}
}

// Learn is LearnMove over each of the side's moves, to the bit.
func TestLearnIsLearnMoveForEachMove(t *testing.T) {
	moves := []int{4, 0, 8, 2, 1, 6, 7} // X wins with 1-4-7
	for _, side := range []game.Side{game.X, game.O} {
		var p nn.Pass
		whole, each := newNet(20, 9), newNet(20, 9)
		whole.Learn(moves, game.XWins, side, 0.1, &p)
		var b tictactoe.Board
		for i, sq := range moves {
			if b.ToMove() == side {
				each.LearnMove(b.Position(), sq, i, len(moves), game.XWins, 0.1, &p)
			}
			b = b.Play(sq)
		}
		if !bytes.Equal(whole.Bytes(), each.Bytes()) {
			t.Errorf("%s: Learn and LearnMove for each move differ", side)
		}
	}
}

// One move learned alone gains with a win and a tie, and loses ground
// with a loss.
func TestLearnMove(t *testing.T) {
	b := tictactoe.Board{}.Play(4).Play(0) // X to move
	for _, tt := range []struct {
		result game.Result
		up     bool
	}{{game.XWins, true}, {game.Tie, true}, {game.OWins, false}} {
		n := newNet(20, 5)
		var p nn.Pass
		n.Forward(b.Position(), &p)
		before := p.Probs[8]
		n.LearnMove(b.Position(), 8, 2, 7, tt.result, 0.1, &p)
		n.Forward(b.Position(), &p)
		if (p.Probs[8] > before) != tt.up {
			t.Errorf("%s: probability of 8 went from %v to %v", tt.result, before, p.Probs[8])
		}
	}
}
