package ntuple

import (
	"math/bits"
	"math/rand/v2"

	"ttt/agents/game"
)

// TD is an n-tuple net that learns by TD(λ) from the games it plays. It
// is not safe for concurrent use.
//
// Every move of a game, whoever made it, leaves an afterstate, and what
// that afterstate is worth to its mover is one minus what the best reply
// is worth to the other side: the negamax of a zero-sum game. So the
// one-step target of an afterstate is one minus the best worth the next
// mover saw among its moves, whatever it then played, and the λ-return
// mixes in the later targets along the moves actually played, as far as
// they were the best ones (Watkins' cut at an exploring move). The last
// move's worth is the game's exact score. Because the target of every
// afterstate is the best reply, it learns from any opponent's moves,
// not only from its own, and from positions no player of its own would
// reach.
type TD struct {
	Net    *Net
	LR     float32
	Lambda float32
	// Openings: each game of Play starts with a uniformly random number
	// of random moves, up to Openings, before the learner plays its
	// moves: positions that greedy self-play would never show it.
	Openings int
	Rand     *rand.Rand

	pass    Pass
	values  []float32
	steps   []step
	entries []int32 // of each step's afterstate, one after the other
}

// step is one move of a game: the afterstate it left (by its entries,
// in TD.entries), its mover's worth of it, and the best worth that mover
// saw among its moves.
type step struct {
	ended    bool
	explored bool // not the mover's best
	worth    float32
	best     float32
}

// NewTD returns a TD(λ) learner for net.
func NewTD(net *Net, lr, lambda float32, openings int, rng *rand.Rand) *TD {
	return &TD{Net: net, LR: lr, Lambda: lambda, Openings: openings, Rand: rng, values: make([]float32, net.Game.Moves())}
}

// Play plays one game as side against opp (itself for nil), exploring at
// rate epsilon, and learns from it.
func (l *TD) Play(side game.Side, opp game.Player, epsilon float64) game.Result {
	random := 0
	if l.Openings > 0 {
		random = l.Rand.IntN(l.Openings + 1)
	}
	return l.play(l.Net.Game.Start(), -1, random, side, opp, epsilon)
}

// Greedy returns the learner's move in p, as a frozen snapshot plays it.
func (l *TD) Greedy(p game.Position) int {
	m, _ := l.Net.Afterstates(p, &l.pass, nil)
	return m
}

// Drill plays one game from start, where the learner is to move, with a
// first move other than avoid, against opp, and learns from it. The
// first move is a choice, not an exploration: what follows it backs up
// into it.
func (l *TD) Drill(start game.Position, avoid int, opp game.Player, epsilon float64) game.Result {
	g := l.Net.Game
	others := g.Legal(start) &^ (1 << avoid)
	for k := l.Rand.IntN(bits.OnesCount64(others)); k > 0; k-- {
		others &= others - 1
	}
	return l.play(start, bits.TrailingZeros64(others), 0, g.ToMove(start), opp, epsilon)
}

// play plays from p: first, if not -1, is the learner's first move, and
// the first random moves of the game are random.
func (l *TD) play(p game.Position, first, random int, side game.Side, opp game.Player, epsilon float64) game.Result {
	g := l.Net.Game
	l.steps, l.entries = l.steps[:0], l.entries[:0]
	for g.Result(p) == game.Ongoing {
		m, best := l.Net.Afterstates(p, &l.pass, l.values)
		switch {
		case first >= 0:
			m, first = first, -1
		case len(l.steps) < random:
			m = game.RandomMove(g, p, l.Rand)
		case opp != nil && g.ToMove(p) != side:
			m = opp.Move(p)
		case epsilon > 0 && l.Rand.Float64() < epsilon:
			m = game.RandomMove(g, p, l.Rand)
		}
		mover := g.ToMove(p)
		after := g.Play(p, m)
		worth := l.values[m]
		ended := g.Result(after) != game.Ongoing
		if !ended {
			l.entries = l.Net.afterEntries(p, m, mover, &l.pass, l.entries)
		}
		p = after
		l.steps = append(l.steps, step{ended: ended, explored: worth < best, worth: worth, best: best})
	}
	l.learn()
	return g.Result(p)
}

// learn backs up the λ-returns of the game's afterstates, from the last.
func (l *TD) learn() {
	var target float32 // the λ-return of the next afterstate, to its mover
	size := len(l.Net.inst)
	end := len(l.entries) // the entries of the afterstates not yet learned end here
	for i := len(l.steps) - 1; i >= 0; i-- {
		s := l.steps[i]
		if s.ended {
			target = s.worth // the rules' exact score
			continue
		}
		next := l.steps[i+1]
		if next.explored {
			target = 1 - next.best
		} else {
			target = 1 - ((1-l.Lambda)*next.best + l.Lambda*target)
		}
		e := l.entries[end-size : end]
		end -= size
		l.Net.learn(e, target, l.LR)
	}
}
