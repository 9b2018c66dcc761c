package nn

import (
	"math/rand/v2"

	"ttt/agents/game"
)

// A value net has one output: a position's worth to the side that has
// just moved, as the expected score (1 a win, 1/2 a tie, 0 a loss)
// through a sigmoid. This is GNU Backgammon's evaluator, with one output
// where it has five because these games have no gammons: it moves by
// trying every legal move and keeping the position it likes best (the
// afterstate), and it learns by temporal differences (train.TDLearner)
// rather than by ttt-rl's rule. Its layout and file are the policy net's
// with one output.

// NewValue returns a value net with hidden units, drawn as New draws.
func NewValue(g game.Game, hidden int, rng *rand.Rand) *Net {
	return initial(alloc(g, hidden, 1), rng)
}

// IsValue reports whether n is a value net (one output) rather than a
// policy net (one output per move).
func (n *Net) IsValue() bool { return n.Outputs == 1 }

// Scores for the side that has just moved.
const (
	ScoreWin  = 1
	ScoreTie  = 0.5
	ScoreLoss = 0
)

// Value returns the value net's estimate of pos for the side that has
// just moved there: the side not to move.
func (n *Net) Value(pos game.Position, p *Pass) float32 {
	n.Logits(pos, p)
	return sigmoid(p.Logits[0])
}

// Afterstates writes into values what each legal move of pos is worth to
// the side to move: the exact score where the move ends the game (the
// rules, not the net, say what a finished game is worth), the net's
// Value of the position it leaves otherwise (values may be nil). It returns the best move,
// the lowest that wins by the rules, else the lowest on a tie, and its
// worth.
func (n *Net) Afterstates(pos game.Position, p *Pass, values []float32) (best int, worth float32) {
	g := n.Game
	legal := g.Legal(pos)
	side := g.ToMove(pos)
	best, worth = -1, -1
	won := -1
	for m := range g.Moves() {
		if legal&(1<<m) == 0 {
			continue
		}
		after := g.Play(pos, m)
		var v float32
		switch r := g.Result(after); r {
		case game.Ongoing:
			v = n.Value(after, p)
		case game.Tie:
			v = ScoreTie
		case game.Win(side):
			v = ScoreWin
			if won < 0 {
				won = m
			}
		default:
			v = ScoreLoss
		}
		if values != nil {
			values[m] = v
		}
		if v > worth {
			best, worth = m, v
		}
	}
	// A win the rules settle before any estimate, even one of 1 (a
	// float32 sigmoid reaches it).
	if won >= 0 {
		return won, ScoreWin
	}
	return best, worth
}

// LearnValue takes one step of the value net's estimate in pos toward
// target: gradient descent on the cross-entropy between the sigmoid's
// output and target, whose error at the output is simply value - target.
// (Squared error, TD-Gammon's choice, would scale that by the sigmoid's
// slope, and learn nothing where the net is sure and wrong.)
func (n *Net) LearnValue(pos game.Position, target, lr float32, p *Pass) {
	v := n.Value(pos, p)
	p.dOut[0] = v - target
	n.backprop(p, lr)
}

// sigmoid is 1/(1+e^-x), through exp32 of a number that is never
// positive: the value net's output, computed for every move tried.
func sigmoid(x float32) float32 {
	if x >= 0 {
		return 1 / (1 + exp32(-x))
	}
	e := exp32(x)
	return e / (1 + e)
}
