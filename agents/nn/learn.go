package nn

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"ttt/agents/game"
)

// The reward policy of ttt-rl. Losing costs twice what winning earns, and
// a tie is worth a little: against a random opponent a tie is often the
// best a side can force, so it must be reinforced, but less than a win.
const (
	RewardWin  = 1.0
	RewardTie  = 0.3
	RewardLoss = -2.0
)

// DefaultLR is ttt-rl's learning rate.
const DefaultLR = 0.1

// Reward returns the reward for side after a finished game.
func Reward(result game.Result, side game.Side) float32 {
	switch result {
	case game.Tie:
		return RewardTie
	case game.Win(side):
		return RewardWin
	}
	return RewardLoss
}

// Learn applies the learning rule of ttt-rl to one finished game, for the
// moves that side played. moves are the squares played in order, from the
// empty board; result is how the game ended. p is scratch space.
//
// The rule is a Monte Carlo policy update: we do not know which move of a
// lost game was the mistake, so every move of the game gets the game's
// reward, scaled by how late it came:
//
//	importance = 0.5 + 0.5 * moveIndex / len(moves)
//
// Early moves leave the game open and are judged mildly; the later a move,
// the more it decided the result. This scaling makes A LOT of difference.
//
// For each of side's moves, STEP 1 builds a target distribution for the
// position before it: with a positive reward, all of the probability on
// the move played; with a negative one, spread evenly over the other empty
// squares, which pushes the move down without saying which alternative is
// right. STEP 2 takes one cross-entropy gradient step toward the target,
// scaled by |reward|.
func (n *Net) Learn(moves []int, result game.Result, side game.Side, lr float32, p *Pass) {
	g := n.Game
	pos := g.Start()
	for idx, move := range moves {
		if g.ToMove(pos) == side {
			n.LearnMove(pos, move, idx, len(moves), result, lr, p)
		}
		pos = g.Play(pos, move)
	}
}

// LearnMove applies Learn's rule to one move: the side to move in pos
// played move there, as move number ply (from 0, counted from the empty
// board) of a game of plies moves that ended in result. Learn calls it
// for each of a side's moves; alone, it learns one move of a game whose
// other moves are not in question, as a drill does (train.Learner.Drill).
func (n *Net) LearnMove(pos game.Position, move, ply, plies int, result game.Result, lr float32, p *Pass) {
	// STEP 1: the target, for the position before the move.
	importance := 0.5 + 0.5*float32(ply)/float32(plies)
	scaled := Reward(result, n.Game.ToMove(pos)) * importance
	p.size(n)
	target := p.target
	clear(target)
	if scaled >= 0 {
		target[move] = 1
	} else if others := n.Game.Legal(pos) &^ (1 << move); others != 0 {
		share := 1 / float32(bits.OnesCount64(others))
		for m := range n.Outputs {
			if others&(1<<m) != 0 {
				target[m] = share
			}
		}
	}

	// STEP 2: the gradient step, as strong as the reward.
	n.Step(pos, target, lr, float32(math.Abs(float64(scaled))), p)
}

// Step runs the net forward in pos and takes one gradient step of softmax
// cross-entropy toward target, with the loss scaled by scale: the update
// of Learn for one move. p is scratch space.
//
// With softmax outputs and cross-entropy loss the error at output k is
// simply probs[k] - target[k]; hidden units switched off by ReLU pass no
// error back and their outgoing weights get no update (their activation is
// 0), and only the inputs that were on have input weights to update.
func (n *Net) Step(pos game.Position, target []float32, lr, scale float32, p *Pass) {
	n.Forward(pos, p)

	// STEP 1: output errors; backprop takes the rest.
	dOut := p.dOut[:n.Outputs]
	for k := range dOut {
		dOut[k] = (p.Probs[k] - target[k]) * scale
	}
	n.backprop(p, lr)
}

// backprop takes one gradient step from the errors at the outputs in
// p.dOut, for the forward pass in p.
func (n *Net) backprop(p *Pass, lr float32) {
	H, out := n.Hidden, n.Outputs
	h := p.hidden[:H]
	dOut := p.dOut[:out]

	// STEP 1: hidden errors through the weights as they were before this
	// step.
	dHidden := p.grad[:0]
	for _, j := range p.active {
		w := n.WHO[int(j)*out:][:out]
		var e float32
		for k := range dOut {
			e += dOut[k] * w[k]
		}
		dHidden = append(dHidden, e)
	}

	// STEP 2: update the weights, output layer first.
	for _, j := range p.active {
		w := n.WHO[int(j)*out:][:out]
		v := h[j]
		for k := range dOut {
			w[k] -= lr * dOut[k] * v
		}
	}
	for k := range dOut {
		n.BO[k] -= lr * dOut[k]
	}
	for _, i := range p.on {
		row := n.WIH[int(i)*H : int(i)*H+H]
		for a, j := range p.active {
			row[j] -= lr * dHidden[a]
		}
	}
	for a, j := range p.active {
		n.BH[j] -= lr * dHidden[a]
	}
}

// Sample picks a training move in pos from the logits in p (Logits or
// Forward fills them) by epsilon-softmax: with probability epsilon a
// uniformly random legal move (exploration that ignores what the net
// believes), otherwise a move drawn from the softmax over the legal moves
// at the given temperature (1 keeps the net's own preferences; lower is
// greedier).
func (n *Net) Sample(pos game.Position, p *Pass, epsilon, temperature float64, rng *rand.Rand) int {
	if epsilon > 0 && rng.Float64() < epsilon {
		return game.RandomMove(n.Game, pos, rng)
	}
	legal := n.Game.Legal(pos)
	m := float32(math.Inf(-1))
	for k := range n.Outputs {
		if legal&(1<<k) != 0 {
			m = max(m, p.Logits[k])
		}
	}
	w := p.target[:n.Outputs]
	var sum float32
	invT := float32(1 / temperature)
	for k := range n.Outputs {
		w[k] = 0
		if legal&(1<<k) != 0 {
			w[k] = exp32((p.Logits[k] - m) * invT)
			sum += w[k]
		}
	}
	r := rng.Float32() * sum
	last := -1
	for k := range n.Outputs {
		if legal&(1<<k) == 0 {
			continue
		}
		last = k
		if r < w[k] {
			return k
		}
		r -= w[k]
	}
	return last // rounding left r just above the total
}
