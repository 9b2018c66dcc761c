// Package search plays any model with a search around it. A network
// chooses its move by one look at each position its moves leave, so it
// misses what the next few moves would show: a threat it cannot block in
// two, a win its opponent sets up. A search looks further, the model's
// judgement at its leaves, at a fixed cost per move, the way gnubg plays
// the same net at one, two or three plies and the MCTS wrappers of
// Scheiermann and Konen play a TD n-tuple network.
//
// Two searches, named after the model they wrap: REF@ab4 is alpha-beta
// to 4 plies with the model's values at the leaves; REF@mcts800 is Monte
// Carlo tree search with 800 simulations, the model's values in place of
// random playouts. Both are deterministic (no draw on a generator), so a
// searched model plays the same moves on every run and machine. A model
// that puts no value on positions (a policy network) is judged at the
// leaves by playing its own game out, greedily, from there.
package search

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// Kind is a kind of search.
type Kind string

// The searches.
const (
	AlphaBeta Kind = "ab"   // alpha-beta to a depth in plies
	MCTS      Kind = "mcts" // Monte Carlo tree search, simulations a move
)

// Bounds of a search's N: alpha-beta beyond 42 plies (a whole game of
// Connect Four) looks at nothing more; a million simulations is minutes
// a move.
const (
	MaxDepth       = 42
	MaxSimulations = 1_000_000
)

// MaxNodes bounds the tree of an MCTS search: 2^20 positions of 64 bytes,
// 64 MiB a search. A million simulations of Connect Four would pass it
// seven times over, and a server answering a few such searches at once
// would hold gigabytes (BENCHMARKS.md, "Serve under concurrent
// searches"). A search that fills it plays the best move of the
// simulations it ran, as a time limit does. The bound depends on nothing
// but the position, so a league that meets it still plays the same moves
// on every machine. Alpha-beta keeps a ply of scratch space a level, a
// few kilobytes.
const MaxNodes = 1 << 20

// Spec is a search and its bound: depth in plies for alpha-beta,
// simulations a move for MCTS.
type Spec struct {
	Kind Kind
	N    int
}

// String returns the spec as it is written after @: ab4, mcts800.
func (s Spec) String() string { return string(s.Kind) + strconv.Itoa(s.N) }

// ErrSpec is the error of a search that is none of those ttt knows.
var ErrSpec = errors.New("unknown search")

// Parse reads a search as written after @: abN (alpha-beta to N plies,
// 1 to 42) or mctsN (MCTS with N simulations a move, 1 to 1,000,000).
func Parse(s string) (Spec, error) {
	for _, k := range []struct {
		kind Kind
		max  int
	}{{MCTS, MaxSimulations}, {AlphaBeta, MaxDepth}} {
		rest, ok := strings.CutPrefix(s, string(k.kind))
		if !ok {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > k.max || rest != strconv.Itoa(n) {
			return Spec{}, fmt.Errorf("%w %q: %s takes a number from 1 to %d (%s4)", ErrSpec, s, k.kind, k.max, k.kind)
		}
		return Spec{k.kind, n}, nil
	}
	return Spec{}, fmt.Errorf("%w %q: ttt searches abN (alpha-beta, N plies: ab4) or mctsN (MCTS, N simulations: mcts800)", ErrSpec, s)
}

// Split reads an agent's name with a search after it, REF@SEARCH: the
// agent's own name and the search, or nil where ref names none.
func Split(ref string) (string, *Spec, error) {
	i := strings.LastIndexByte(ref, '@')
	if i < 0 {
		return ref, nil, nil
	}
	s, err := Parse(ref[i+1:])
	if err != nil {
		return "", nil, err
	}
	if i == 0 {
		return "", nil, fmt.Errorf("%q: a search needs an agent before the @ (best@%s)", ref, s)
	}
	return ref[:i], &s, nil
}

// Model is a model with a search around it. It is a learn.Model whose
// player searches: its Player, Explain and Describe are the search's;
// its bytes and its file are the model's own, since the search is no
// part of what was learned.
type Model struct {
	learn.Model
	Spec Spec
	// Limit, when not zero, bounds the time of a move: alpha-beta plays
	// the move of the deepest search it finished (iterative deepening),
	// MCTS the best after the simulations it ran. A limited search
	// depends on the machine's speed, so a league never sets one.
	Limit time.Duration
	// Ctx, when not nil, stops the search as soon as it is done: the
	// move is then the best found so far, which the caller, who cancelled
	// it, throws away. The search looks at it as often as at the clock.
	Ctx context.Context
}

var _ learn.Model = (*Model)(nil)

// Wrap returns m played with the search s.
func Wrap(m learn.Model, s Spec) *Model { return &Model{Model: m, Spec: s} }

// Bound returns m, where it is a searched model, as a copy stopped by ctx
// and thinking limit a move at most (0: no limit); any other model as it
// is, since it takes microseconds a move.
func Bound(ctx context.Context, m learn.Model, limit time.Duration) learn.Model {
	sm, ok := m.(*Model)
	if !ok {
		return m
	}
	b := *sm
	b.Ctx, b.Limit = ctx, limit
	return &b
}

// Player implements learn.Model: the search, with a tree and scratch
// space of its own.
func (m *Model) Player() game.Player { return m.Searcher() }

// Searcher returns the search as a player of its own, which reports what
// its last move cost (Last).
func (m *Model) Searcher() *Searcher {
	return &Searcher{spec: m.Spec, limit: m.Limit, ctx: m.Ctx, g: m.Plays(), judge: judgeOf(m.Model)}
}

// Views implements learn.Model: what the search expects to score after
// each move.
func (m *Model) Views() learn.Views { return learn.Scores }

// Explain implements learn.Model: the search's move, and what it makes of
// each legal move: alpha-beta the score each move leads to at its depth,
// MCTS the mean score of the simulations through each move.
func (m *Model) Explain(p game.Position, views []float64) int {
	return m.Searcher().Explain(p, views)
}

// Describe implements learn.Model.
func (m *Model) Describe() string {
	return m.Model.Describe() + ", searched " + m.Spec.Describe()
}

// Describe says what s is in words: "by alpha-beta, 4 plies deep".
func (s Spec) Describe() string {
	if s.Kind == AlphaBeta {
		return fmt.Sprintf("by alpha-beta, %d plies deep", s.N)
	}
	return fmt.Sprintf("by MCTS, %d simulations a move", s.N)
}

// Stats is what a searcher's move cost.
type Stats struct {
	Time  time.Duration
	Nodes int // positions judged
	// Depth is the deepest alpha-beta search finished (its spec's N but
	// where a limit stopped it); MCTS's simulations run.
	Depth int
}

// Searcher is a searched model as a player. It is not safe for
// concurrent use: each goroutine takes its own from Model.Searcher.
type Searcher struct {
	spec  Spec
	limit time.Duration
	ctx   context.Context // nil: never stopped but by the limit
	g     game.Game
	judge func(p game.Position, values []float32)

	deadline time.Time
	stopped  bool
	stats    Stats
	plies    []ply      // alpha-beta's scratch space
	tree     []puctNode // MCTS's, reused
}

// Spec is the search s makes.
func (s *Searcher) Spec() Spec { return s.spec }

// Last is what the last move cost.
func (s *Searcher) Last() Stats { return s.stats }

// Move implements game.Player.
func (s *Searcher) Move(p game.Position) int { return s.Explain(p, nil) }

// Think is Explain stopped by ctx rather than the model's: the move, or
// ctx's error when it stopped the search.
func (s *Searcher) Think(ctx context.Context, p game.Position, views []float64) (int, error) {
	own := s.ctx
	s.ctx = ctx
	defer func() { s.ctx = own }()
	m := s.Explain(p, views)
	return m, ctx.Err()
}

// Explain returns the search's move in p and writes into views, by move,
// what it expects to score after each (views may be nil).
func (s *Searcher) Explain(p game.Position, views []float64) int {
	start := time.Now()
	s.stats, s.stopped = Stats{}, false
	if s.limit > 0 {
		s.deadline = start.Add(s.limit)
	}
	var m int
	if s.spec.Kind == AlphaBeta {
		m = s.alphaBeta(p, views)
	} else {
		m = s.mcts(p, views)
	}
	s.stats.Time = time.Since(start)
	return m
}

// timeUp reports whether the limit has passed or the context is done,
// looking every 16 positions judged: a position of a policy network,
// judged by playing its games out, costs up to a millisecond, and a
// stop must come within a tenth of a second.
func (s *Searcher) timeUp() bool {
	if s.stopped || s.stats.Nodes&15 != 0 {
		return s.stopped
	}
	if s.limit > 0 && time.Now().After(s.deadline) || s.ctx != nil && s.ctx.Err() != nil {
		s.stopped = true
	}
	return s.stopped
}
