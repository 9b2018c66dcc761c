package nn

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"ttt/agents"
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
	var b game.Board
	for idx, move := range moves {
		if b.ToMove() == side {
			n.LearnMove(b, move, idx, len(moves), result, lr, p)
		}
		b = b.Play(move)
	}
}

// LearnMove applies Learn's rule to one move: the side to move on b
// played move there, as move number ply (from 0, counted from the empty
// board) of a game of plies moves that ended in result. Learn calls it
// for each of a side's moves; alone, it learns one move of a game whose
// other moves are not in question, as a drill does (train.Learner.Drill).
func (n *Net) LearnMove(b game.Board, move, ply, plies int, result game.Result, lr float32, p *Pass) {
	// STEP 1: the target, for the position before the move.
	importance := 0.5 + 0.5*float32(ply)/float32(plies)
	scaled := Reward(result, b.ToMove()) * importance
	var target [Outputs]float32
	if scaled >= 0 {
		target[move] = 1
	} else {
		others := b.Empty() &^ (1 << move)
		share := 1 / float32(bits.OnesCount16(others))
		for sq := range Outputs {
			if others&(1<<sq) != 0 {
				target[sq] = share
			}
		}
	}

	// STEP 2: the gradient step, as strong as the reward.
	n.Step(b, &target, lr, float32(math.Abs(float64(scaled))), p)
}

// Step runs the net forward on b and takes one gradient step of softmax
// cross-entropy toward target, with the loss scaled by scale: the update
// of Learn for one move. p is scratch space.
//
// With softmax outputs and cross-entropy loss the error at output k is
// simply probs[k] - target[k]; hidden units switched off by ReLU pass no
// error back and their outgoing weights get no update (their activation is
// 0), and only the inputs that were on have input weights to update.
func (n *Net) Step(b game.Board, target *[Outputs]float32, lr, scale float32, p *Pass) {
	n.Forward(b, p)
	H := n.Hidden
	h := p.hidden[:H]

	// STEP 1: output errors, and hidden errors through the weights as
	// they were before this step.
	var dOut [Outputs]float32
	for k := range dOut {
		dOut[k] = (p.Probs[k] - target[k]) * scale
	}
	dHidden := p.grad[:0]
	for _, j := range p.active {
		w := (*[Outputs]float32)(n.WHO[int(j)*Outputs:])
		var e float32
		for k := range dOut {
			e += dOut[k] * w[k]
		}
		dHidden = append(dHidden, e)
	}

	// STEP 2: update the weights, output layer first.
	for _, j := range p.active {
		w := (*[Outputs]float32)(n.WHO[int(j)*Outputs:])
		v := h[j]
		for k := range dOut {
			w[k] -= lr * dOut[k] * v
		}
	}
	for k := range dOut {
		n.BO[k] -= lr * dOut[k]
	}
	for _, i := range p.on[:p.nOn] {
		row := n.WIH[int(i)*H : int(i)*H+H]
		for a, j := range p.active {
			row[j] -= lr * dHidden[a]
		}
	}
	for a, j := range p.active {
		n.BH[j] -= lr * dHidden[a]
	}
}

// Sample picks a training move on b from the logits in p (Logits or
// Forward fills them) by
// epsilon-softmax: with probability epsilon a uniformly random empty
// square (exploration that ignores what the net believes), otherwise a
// square drawn from the softmax over the empty squares at the given
// temperature (1 keeps the net's own preferences; lower is greedier).
func Sample(b game.Board, p *Pass, epsilon, temperature float64, rng *rand.Rand) int {
	if epsilon > 0 && rng.Float64() < epsilon {
		return agents.RandomMove(b, rng)
	}
	empty := b.Empty()
	m := float32(math.Inf(-1))
	for sq := range Outputs {
		if empty&(1<<sq) != 0 {
			m = max(m, p.Logits[sq])
		}
	}
	var w [Outputs]float32
	var sum float32
	invT := float32(1 / temperature)
	for sq := range Outputs {
		if empty&(1<<sq) != 0 {
			w[sq] = exp32((p.Logits[sq] - m) * invT)
			sum += w[sq]
		}
	}
	r := rng.Float32() * sum
	last := -1
	for sq := range Outputs {
		if empty&(1<<sq) == 0 {
			continue
		}
		last = sq
		if r < w[sq] {
			return sq
		}
		r -= w[sq]
	}
	return last // rounding left r just above the total
}
