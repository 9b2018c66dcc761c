// Package train plays training games for a learning network: against a
// fixed opponent, or against itself with both sides learning. It is the
// loop of ttt-rl's trainer; the learning rule itself is nn.Learn.
package train

import (
	"fmt"
	"math/rand/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/nn"
)

// Schedule is how the exploration rate epsilon decays: linearly from Start
// to End over the first Games training games, then End for good. Early
// games explore widely, so that the net meets positions its own policy
// would never reach; late games follow the net's own probabilities.
type Schedule struct {
	Start, End float64
	Games      int
}

// At returns epsilon for training game g (counted from 0).
func (s Schedule) At(g int) float64 {
	if g >= s.Games {
		return s.End
	}
	return s.Start + (s.End-s.Start)*float64(g)/float64(s.Games)
}

// Validate reports a schedule that is not a schedule.
func (s Schedule) Validate() error {
	switch {
	case s.Start < 0 || s.Start > 1 || s.End < 0 || s.End > 1:
		return fmt.Errorf("epsilon must be within 0..1 (got %g and %g)", s.Start, s.End)
	case s.Games < 0:
		return fmt.Errorf("epsilon decay games must not be negative (got %d)", s.Games)
	}
	return nil
}

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
