// Package train plays training games for a learning network: against a
// fixed opponent, or against itself with both sides learning. It is the
// loop of ttt-rl's trainer; the learning rule itself is nn.Learn.
package train

import (
	"math/rand/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/nn"
)

// Learner is a network that learns from every game it plays. Its moves are
// sampled by epsilon-softmax (nn.Sample); after each game it applies
// nn.Learn. It is not safe for concurrent use.
type Learner struct {
	Net         *nn.Net
	LR          float32
	Temperature float64
	Rand        *rand.Rand

	pass  nn.Pass
	moves []int
}

// NewLearner returns a learner for net that draws its samples from rng.
func NewLearner(net *nn.Net, lr float32, temperature float64, rng *rand.Rand) *Learner {
	return &Learner{Net: net, LR: lr, Temperature: temperature, Rand: rng, moves: make([]int, 0, 9)}
}

// Play plays one game with the learner as side against opp, then learns
// from the learner's moves. A nil opp means the learner plays itself: it
// samples the moves of both sides and learns from both, so one game
// teaches what to repeat and what to avoid.
func (l *Learner) Play(side game.Side, opp agents.Player, epsilon float64) game.Result {
	var b game.Board
	l.moves = l.moves[:0]
	for b.Result() == game.Ongoing {
		var sq int
		if opp == nil || b.ToMove() == side {
			l.Net.Logits(b, &l.pass)
			sq = nn.Sample(b, &l.pass, epsilon, l.Temperature, l.Rand)
		} else {
			sq = opp.Move(b)
		}
		l.moves = append(l.moves, sq)
		b = b.Play(sq)
	}
	result := b.Result()
	if opp == nil {
		l.Net.Learn(l.moves, result, side.Other(), l.LR, &l.pass)
	}
	l.Net.Learn(l.moves, result, side, l.LR, &l.pass)
	return result
}

// Greedy returns the learner's greedy move on b: the move evaluation and
// play would make, and a frozen snapshot's table holds.
func (l *Learner) Greedy(b game.Board) int {
	l.Net.Forward(b, &l.pass)
	return nn.Greedy(b, &l.pass)
}

// Drill plays one game from start, where the learner is to move, against
// opp, and learns from its first move alone. That move is a uniformly
// random empty square other than avoid, the move the learner would play
// there; the rest of its moves are sampled as in Play, at epsilon. start
// must hold an empty square besides avoid.
//
// A drill asks one question: is another move better here than mine?
// Playing its own move would only confirm it (a tie still earns a
// reward), so the drill tries the others, and the game's result is the
// answer. Only the question is learned: ttt-rl's rule blames every move
// of a game for its result, and after a random first move the learner's
// later moves may be good moves in a game that was already lost, or
// already won.
func (l *Learner) Drill(start game.Board, avoid int, opp agents.Player, epsilon float64) game.Result {
	side := start.ToMove()
	others := start
	others.X |= 1 << avoid // avoid as if taken, for RandomMove
	first := agents.RandomMove(others, l.Rand)
	b := start.Play(first)
	for b.Result() == game.Ongoing {
		var sq int
		if b.ToMove() == side {
			l.Net.Logits(b, &l.pass)
			sq = nn.Sample(b, &l.pass, epsilon, l.Temperature, l.Rand)
		} else {
			sq = opp.Move(b)
		}
		b = b.Play(sq)
	}
	l.Net.LearnMove(start, first, start.Moves(), b.Moves(), b.Result(), l.LR, &l.pass)
	return b.Result()
}
