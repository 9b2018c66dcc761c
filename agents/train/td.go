package train

import (
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/nn"
)

// TD is a value net that learns by TD(λ) from the games it plays,
// the method of TD-Gammon and GNU Backgammon: it moves to the afterstate
// it values most (nn.Net.Afterstates), and after each game moves the
// value of every position it left toward what came next. It is not safe
// for concurrent use.
//
// What came next is the λ-return, computed backwards from the end for
// each side the learner played: a position's target is the next position
// that side chose, valued (1-λ) by the net's estimate and λ by its own
// target in turn; the last position's target is the game's score. λ = 0
// is one-step TD, λ = 1 is the plain result. An exploring move (a random
// one, with probability epsilon) is not what the learner believes best,
// so its consequences do not back up: the position before it is valued
// by the best move the learner saw there instead (Watkins' cut). The
// exact scores of finished games are the rules, not something learned:
// the net is never trained on a position that ends the game.
type TD struct {
	Net    *nn.Net
	LR     float32
	Lambda float32
	Rand   *rand.Rand

	pass   nn.Pass
	values []float32
	steps  []tdStep
}

// tdStep is one move of a learning side: the position it left, and
// whether it explored, with the best worth it saw among its moves.
type tdStep struct {
	side     game.Side
	after    game.Position
	ended    bool    // the move ended the game
	explored bool    // a random move, not the best
	best     float32 // the worth of the best move there
}

// NewTD returns a TD(λ) learner for the value net net.
func NewTD(net *nn.Net, lr, lambda float32, rng *rand.Rand) *TD {
	return &TD{Net: net, LR: lr, Lambda: lambda, Rand: rng, values: make([]float32, net.Game.Moves())}
}

// Play implements Learner.
func (l *TD) Play(side game.Side, opp game.Player, epsilon float64) game.Result {
	return l.play(l.Net.Game.Start(), -1, side, opp, epsilon)
}

// Greedy implements Learner: the best afterstate.
func (l *TD) Greedy(p game.Position) int {
	m, _ := l.Net.Afterstates(p, &l.pass, nil)
	return m
}

// Drill implements Learner. The drill's first move is a choice, not an
// exploration: what follows it backs up into it, and into the moves
// after it, as in any game.
func (l *TD) Drill(start game.Position, avoid int, opp game.Player, epsilon float64) game.Result {
	return l.play(start, otherMove(l.Net.Game, start, avoid, l.Rand), l.Net.Game.ToMove(start), opp, epsilon)
}

// play plays from p as side against opp (itself for nil), first being
// the learner's first move there if it is not -1, and learns.
func (l *TD) play(p game.Position, first int, side game.Side, opp game.Player, epsilon float64) game.Result {
	g := l.Net.Game
	l.steps = l.steps[:0]
	for g.Result(p) == game.Ongoing {
		mover := g.ToMove(p)
		if opp != nil && mover != side {
			p = g.Play(p, opp.Move(p))
			continue
		}
		m, best := l.Net.Afterstates(p, &l.pass, l.values)
		explored := false
		switch {
		case first >= 0:
			m, first = first, -1
		case epsilon > 0 && l.Rand.Float64() < epsilon:
			m = game.RandomMove(g, p, l.Rand)
			explored = l.values[m] < best
		}
		p = g.Play(p, m)
		l.steps = append(l.steps, tdStep{side: mover, after: p, ended: g.Result(p) != game.Ongoing, explored: explored, best: best})
	}
	result := g.Result(p)
	if opp == nil {
		l.learn(side.Other(), result)
	}
	l.learn(side, result)
	return result
}

// learn backs up the λ-returns of side's moves, from the last.
func (l *TD) learn(side game.Side, result game.Result) {
	var target float32 // the λ-return of the later move
	switch result {
	case game.Tie:
		target = nn.ScoreTie
	case game.Win(side):
		target = nn.ScoreWin
	default:
		target = nn.ScoreLoss
	}
	later := -1 // the index of side's later move
	for i := len(l.steps) - 1; i >= 0; i-- {
		s := l.steps[i]
		if s.side != side {
			continue
		}
		if later >= 0 {
			next := l.steps[later]
			switch {
			case next.explored:
				target = next.best
			case !next.ended:
				target = (1-l.Lambda)*next.best + l.Lambda*target
			}
		}
		if !s.ended {
			l.Net.LearnValue(s.after, target, l.LR, &l.pass)
		}
		later = i
	}
}
