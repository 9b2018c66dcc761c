// Package train plays training games for a learner: against a fixed
// opponent, or against itself with both sides learning. Its learners are
// the methods of the documents ttt grew from: ttt-rl's policy net (whose
// rule is nn.Learn), the TD(λ) value net of TD-Gammon and GNU
// Backgammon, and the tables of values of the CodeProject article and of
// Sutton and Barto. Run (run.go) is `ttt train`: one learner of either
// game, trained the way its document does.
package train

import (
	"math/bits"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/nn"
)

// Policy is ttt-rl's learner: a policy net whose moves are sampled by
// epsilon-softmax (nn.Net.Sample), and which applies nn.Net.Learn after
// each game. It is not safe for concurrent use.
type Policy struct {
	Net         *nn.Net
	LR          float32
	Temperature float64
	Rand        *rand.Rand

	pass  nn.Pass
	moves []int
}

// NewPolicy returns a policy learner for net that draws its samples from
// rng.
func NewPolicy(net *nn.Net, lr float32, temperature float64, rng *rand.Rand) *Policy {
	return &Policy{Net: net, LR: lr, Temperature: temperature, Rand: rng, moves: make([]int, 0, net.Game.MaxPlies())}
}

// Play plays one game with the learner as side against opp, then learns
// from the learner's moves. A nil opp means the learner plays itself: it
// samples the moves of both sides and learns from both, so one game
// teaches what to repeat and what to avoid.
func (l *Policy) Play(side game.Side, opp game.Player, epsilon float64) game.Result {
	g := l.Net.Game
	p := g.Start()
	l.moves = l.moves[:0]
	for g.Result(p) == game.Ongoing {
		var m int
		if opp == nil || g.ToMove(p) == side {
			l.Net.Logits(p, &l.pass)
			m = l.Net.Sample(p, &l.pass, epsilon, l.Temperature, l.Rand)
		} else {
			m = opp.Move(p)
		}
		l.moves = append(l.moves, m)
		p = g.Play(p, m)
	}
	result := g.Result(p)
	if opp == nil {
		l.Net.Learn(l.moves, result, side.Other(), l.LR, &l.pass)
	}
	l.Net.Learn(l.moves, result, side, l.LR, &l.pass)
	return result
}

// Greedy returns the learner's greedy move in p: the move evaluation and
// play would make, and a frozen snapshot makes.
func (l *Policy) Greedy(p game.Position) int {
	l.Net.Forward(p, &l.pass)
	return l.Net.Greedy(p, &l.pass)
}

// Drill plays one game from start, where the learner is to move, against
// opp, and learns from its first move alone. That move is a uniformly
// random legal move other than avoid, the move the learner would play
// there; the rest of its moves are sampled as in Play, at epsilon. start
// must have a legal move besides avoid.
//
// A drill asks one question: is another move better here than mine?
// Playing its own move would only confirm it (a tie still earns a
// reward), so the drill tries the others, and the game's result is the
// answer. Only the question is learned: ttt-rl's rule blames every move
// of a game for its result, and after a random first move the learner's
// later moves may be good moves in a game that was already lost, or
// already won.
func (l *Policy) Drill(start game.Position, avoid int, opp game.Player, epsilon float64) game.Result {
	g := l.Net.Game
	side := g.ToMove(start)
	first := otherMove(g, start, avoid, l.Rand)
	p := g.Play(start, first)
	for g.Result(p) == game.Ongoing {
		var m int
		if g.ToMove(p) == side {
			l.Net.Logits(p, &l.pass)
			m = l.Net.Sample(p, &l.pass, epsilon, l.Temperature, l.Rand)
		} else {
			m = opp.Move(p)
		}
		p = g.Play(p, m)
	}
	l.Net.LearnMove(start, first, g.Plies(start), g.Plies(p), g.Result(p), l.LR, &l.pass)
	return g.Result(p)
}

// otherMove returns a uniformly random legal move of p other than avoid,
// a drill's first move.
func otherMove(g game.Game, p game.Position, avoid int, rng *rand.Rand) int {
	others := g.Legal(p) &^ (1 << avoid)
	for k := rng.IntN(bits.OnesCount64(others)); k > 0; k-- {
		others &= others - 1 // drop the lowest other move
	}
	return bits.TrailingZeros64(others)
}
