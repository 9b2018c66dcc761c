package ntuple

import (
	"math/bits"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// TD is an n-tuple net that learns by TD(λ) from the games it plays. It
// is not safe for concurrent use, but its games can be played apart
// from its learning (learn.Parallel): actors play on a frozen copy of
// its tables, and it learns from their episodes in the order given.
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
	// Lookahead is how many plies deep the learner looks in its games,
	// to choose its moves and to set its targets: 1, each move's
	// position (Net.Afterstates); 2, the best reply to each move too
	// (Net.Replies), so that each position learns toward what a search
	// of two plies finds there.
	Lookahead int
	// GrowAt is the training game from which the net has more tuples:
	// its line tuples again, of GrowLength cells (0: it never grows).
	// See Schedule.
	GrowAt     int64
	GrowLength int
	Rand       *rand.Rand

	own     actor   // plays the games of Play and Drill on Net itself
	episode Episode // the game own played last
	frozen  *Net    // the tables the actors play on, as of the last Sync
}

// Episode is one game as the learner learns from it: each move's
// afterstate and what its mover saw there.
type Episode struct {
	steps   []step
	entries []int32 // of each step's afterstate, one after the other
	result  game.Result
}

// Result implements learn.Episode.
func (e *Episode) Result() game.Result { return e.result }

// step is one move of a game: the afterstate it left (by its entries,
// in Episode.entries), its mover's worth of it, and the best worth that
// mover saw among its moves.
type step struct {
	ended    bool
	explored bool // not the mover's best
	worth    float32
	best     float32
}

// NewTD returns a TD(λ) learner for net, looking lookahead plies deep in
// its games.
func NewTD(net *Net, lr, lambda float32, openings, lookahead int, rng *rand.Rand) *TD {
	return &TD{Net: net, LR: lr, Lambda: lambda, Openings: openings, Lookahead: lookahead, Rand: rng,
		own: actor{net: net, openings: openings, lookahead: lookahead, rng: rng}}
}

// Play plays one game as side against opp (itself for nil), exploring at
// rate epsilon, and learns from it.
func (l *TD) Play(side game.Side, opp game.Player, epsilon float64) game.Result {
	r := l.own.Play(&l.episode, side, opp, epsilon)
	l.Learn(&l.episode)
	return r
}

// Greedy returns the learner's move in p, as a frozen snapshot plays it.
func (l *TD) Greedy(p game.Position) int {
	m, _ := l.Net.Afterstates(p, &l.own.pass, nil)
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
	r := l.own.play(&l.episode, start, bits.TrailingZeros64(others), 0, g.ToMove(start), opp, epsilon)
	l.Learn(&l.episode)
	return r
}

// Actor implements learn.Parallel: an actor on the tables as of the
// last Sync, drawing its random moves from rng.
func (l *TD) Actor(rng *rand.Rand) learn.Actor {
	if l.frozen == nil {
		l.Sync()
	}
	return &actor{net: l.frozen, openings: l.Openings, lookahead: l.Lookahead, rng: rng}
}

// Sync implements learn.Parallel: the actors play on the tables as they
// are now. A copy, not a share: the learner goes on learning while they
// play.
func (l *TD) Sync() {
	if l.frozen == nil {
		l.frozen = l.Net.Clone()
		return
	}
	copy(l.frozen.W, l.Net.W)
}

// NewEpisode implements learn.Parallel.
func (l *TD) NewEpisode() learn.Episode { return new(Episode) }

// Learn implements learn.Parallel: it backs up the λ-returns of the
// episode's afterstates, from the last, into the tables.
func (l *TD) Learn(e learn.Episode) {
	ep := e.(*Episode)
	var target float32 // the λ-return of the next afterstate, to its mover
	size := len(l.Net.inst)
	end := len(ep.entries) // the entries of the afterstates not yet learned end here
	for i := len(ep.steps) - 1; i >= 0; i-- {
		s := ep.steps[i]
		if s.ended {
			target = s.worth // the rules' exact score
			continue
		}
		next := ep.steps[i+1]
		if next.explored {
			target = 1 - next.best
		} else {
			target = 1 - ((1-l.Lambda)*next.best + l.Lambda*target)
		}
		l.Net.learn(ep.entries[end-size:end], target, l.LR)
		end -= size
	}
}

// actor plays games on a net without changing it, recording them as
// episodes.
type actor struct {
	net       *Net
	openings  int
	lookahead int
	rng       *rand.Rand
	pass      Pass
	replies   Pass // where lookahead is 2
	values    []float32
}

// Play implements learn.Actor: a game as side against opp (itself for
// nil), exploring at rate epsilon, after up to Openings random moves.
func (a *actor) Play(e learn.Episode, side game.Side, opp game.Player, epsilon float64) game.Result {
	random := 0
	if a.openings > 0 {
		random = a.rng.IntN(a.openings + 1)
	}
	return a.play(e.(*Episode), a.net.Game.Start(), -1, random, side, opp, epsilon)
}

// play plays from p into e: first, if not -1, is the first move, and the
// first random moves of the game are random.
func (a *actor) play(e *Episode, p game.Position, first, random int, side game.Side, opp game.Player, epsilon float64) game.Result {
	g := a.net.Game
	if a.values == nil {
		a.values = make([]float32, g.Moves())
	}
	e.steps, e.entries = e.steps[:0], e.entries[:0]
	for g.Result(p) == game.Ongoing {
		var m int
		var best float32
		if a.lookahead == 2 {
			m, best = a.net.Replies(p, &a.pass, &a.replies, a.values)
		} else {
			m, best = a.net.Afterstates(p, &a.pass, a.values)
		}
		switch {
		case first >= 0:
			m, first = first, -1
		case len(e.steps) < random:
			m = game.RandomMove(g, p, a.rng)
		case opp != nil && g.ToMove(p) != side:
			m = opp.Move(p)
		case epsilon > 0 && a.rng.Float64() < epsilon:
			m = game.RandomMove(g, p, a.rng)
		}
		mover := g.ToMove(p)
		after := g.Play(p, m)
		worth := a.values[m]
		ended := g.Result(after) != game.Ongoing
		if !ended {
			e.entries = a.net.afterEntries(p, m, mover, &a.pass, e.entries)
		}
		p = after
		e.steps = append(e.steps, step{ended: ended, explored: worth < best, worth: worth, best: best})
	}
	e.result = g.Result(p)
	return e.result
}
