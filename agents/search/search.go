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
	"slices"
	"strconv"
	"strings"
	"time"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// Search is a kind of search that ttt can put around a model, and what
// the rest of ttt asks of it: registered once (Register), it is parsed
// from a spec, described in help and in the move API, and played.
// Nothing outside this package asks which search it has in hand.
type Search struct {
	// Name is what a spec starts with, before its number: ab (ab4).
	Name string
	// Title is its name in words (alpha-beta, MCTS); in lower case, the
	// kind the move API reports.
	Title string
	// Unit is what its number counts, plural (plies, simulations), One
	// the same of one (ply, simulation; the unit when empty), and Per
	// what follows in words (deep, a move): "4 plies deep", "1 ply
	// deep". The move API reports what a move reached under the unit's
	// name.
	Unit, One, Per string
	// Max is the largest number it takes; the smallest is 1. Example is
	// one for help texts: ab4.
	Max, Example int
	// New returns the search of n around what s judges with: its move
	// in a position, which is in play, with views (nil or one a move)
	// written as Model.Explain does, and how far it got (its n but
	// where s's limit stopped it). It may keep scratch space between
	// moves: a Searcher is one goroutine's.
	New func(s *Searcher, n int) func(p game.Position, views []float64) (move, reached int)
}

// searches are the searches ttt knows, in the order help lists them.
var searches []*Search

// Register makes s known by its name, as its package loads (or in a
// test that runs alone: the registry has no lock). It panics on a
// search that lacks what every search declares, or whose name clashes
// with another's: one name before another's number (ab, abc) would make
// a spec mean two searches.
func Register(s *Search) {
	if s.Name == "" || strings.ContainsAny(s.Name, "0123456789@") || s.Title == "" || s.Unit == "" || s.Max < 1 || s.Example < 1 || s.Example > s.Max || s.New == nil {
		panic(fmt.Sprintf("search: %q declares no name of letters, title, unit, Max, Example within it, or New", s.Name))
	}
	for _, o := range searches {
		if strings.HasPrefix(s.Name, o.Name) || strings.HasPrefix(o.Name, s.Name) {
			panic(fmt.Sprintf("search: %s and %s: one name starts the other", s.Name, o.Name))
		}
	}
	searches = append(searches, s)
}

// Unregister forgets the search called name: a test's own search,
// registered for the test alone.
func Unregister(name string) {
	searches = slices.DeleteFunc(searches, func(s *Search) bool { return s.Name == name })
}

// Bounds of the built-in searches' N: alpha-beta beyond 42 plies (a
// whole game of Connect Four) looks at nothing more; a million
// simulations is minutes a move.
const (
	MaxDepth       = 42
	MaxSimulations = 1_000_000
)

func init() {
	Register(&Search{Name: "ab", Title: "alpha-beta", Unit: "plies", One: "ply", Per: "deep", Max: MaxDepth, Example: 4, New: newAlphaBeta})
	Register(&Search{Name: "mcts", Title: "MCTS", Unit: "simulations", One: "simulation", Per: "a move", Max: MaxSimulations, Example: 800, New: newMCTS})
}

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

// Spec is a search and its bound, as written after @: ab4 is alpha-beta
// to 4 plies. Parse reads it from text, once.
type Spec struct {
	Search *Search
	N      int
}

// String returns the spec as it is written after @: ab4, mcts800.
func (s Spec) String() string { return s.Search.Name + strconv.Itoa(s.N) }

// ErrSpec is the error of a search that is none of those ttt knows.
var ErrSpec = errors.New("unknown search")

// Parse reads a search as written after @: a registered search's name
// and its number, from 1 to its Max: abN (alpha-beta to N plies, 1 to
// 42) or mctsN (MCTS with N simulations a move, 1 to 1,000,000).
func Parse(s string) (Spec, error) {
	var known []string
	for _, k := range searches {
		known = append(known, fmt.Sprintf("%sN (%s, N %s: %s%d)", k.Name, k.Title, k.Unit, k.Name, k.Example))
		rest, ok := strings.CutPrefix(s, k.Name)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || n > k.Max || rest != strconv.Itoa(n) {
			return Spec{}, fmt.Errorf("%w %q: %s takes a number from 1 to %d (%s%d)", ErrSpec, s, k.Name, k.Max, k.Name, k.Example)
		}
		return Spec{k, n}, nil
	}
	if len(known) > 1 {
		known[len(known)-2] += " or " + known[len(known)-1]
		known = known[:len(known)-1]
	}
	return Spec{}, fmt.Errorf("%w %q: ttt searches %s", ErrSpec, s, strings.Join(known, ", "))
}

// Help says what searches ttt knows, for help texts: "abN (alpha-beta,
// N plies deep), mctsN (MCTS, N simulations a move)".
func Help() string {
	var out []string
	for _, k := range searches {
		out = append(out, fmt.Sprintf("%sN (%s, N %s %s)", k.Name, k.Title, k.Unit, k.Per))
	}
	return strings.Join(out, ", ")
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

// Searching returns the search of m, where m is a searched model, as a
// player of its own that thinks limit a move at most (0: no limit);
// nil for a model alone.
func Searching(m learn.Model, limit time.Duration) *Searcher {
	sm, ok := m.(*Model)
	if !ok {
		return nil
	}
	b := *sm
	b.Limit = limit
	return b.Searcher()
}

// Player implements learn.Model: the search, with a tree and scratch
// space of its own.
func (m *Model) Player() game.Player { return m.Searcher() }

// Searcher returns the search as a player of its own, which reports what
// its last move cost (Last).
func (m *Model) Searcher() *Searcher {
	s := &Searcher{spec: m.Spec, limit: m.Limit, ctx: m.Ctx, g: m.Plays(), judge: judgeOf(m.Model)}
	s.search = m.Spec.Search.New(s, m.Spec.N)
	return s
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

// Layout implements learn.Model: a search is no network nor table, and
// its own layout is none; Describe says what it searches around.
func (m *Model) Layout() learn.Layout { return learn.Layout{} }

// FileFor implements learn.Model: none. The file of one side would play
// as the model alone does, not as the search.
func (m *Model) FileFor(game.Side) []byte { return nil }

// Describe implements learn.Model.
func (m *Model) Describe() string {
	return m.Model.Describe() + ", searched " + m.Spec.Describe()
}

// Describe says what s is in words: "by alpha-beta, 4 plies deep".
func (s Spec) Describe() string {
	return fmt.Sprintf("by %s, %d %s %s", s.Search.Title, s.N, s.Search.Unit, s.Search.Per)
}

// Stats is what a searcher's move cost.
type Stats struct {
	Time  time.Duration
	Nodes int // positions judged
	// Depth is how far the search got, in its Unit: the deepest
	// alpha-beta search finished (its spec's N but where a limit stopped
	// it); MCTS's simulations run.
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
	// search is the spec's own: its Search's New.
	search func(p game.Position, views []float64) (move, reached int)

	deadline time.Time
	stopped  bool
	stats    Stats
	// calls and looked: TimeUp's calls this move, and the positions
	// judged when it last looked at the clock.
	calls, looked int
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
	s.stats, s.stopped, s.calls, s.looked = Stats{}, false, 0, 0
	if s.limit > 0 {
		s.deadline = start.Add(s.limit)
	}
	m, reached := s.search(p, views)
	s.stats.Depth, s.stats.Time = reached, time.Since(start)
	return m
}

// Game is the game s plays.
func (s *Searcher) Game() game.Game { return s.g }

// Judge writes into values, by move, what each legal move of p (which is
// in play) is worth to the side to move, as the model judges it: the
// expected score of the position it leaves, exact where the move ends
// the game. It counts p among the positions judged (Stats.Nodes).
func (s *Searcher) Judge(p game.Position, values []float32) {
	s.judge(p, values)
	s.stats.Nodes++
}

// TimeUp reports whether the search must stop now, its limit passed or
// its context done: it then returns the best it found so far.
//
// It looks at the clock and the context every 16 calls, and sooner where
// 16 positions were judged since its last look: a position of a policy
// network, judged by playing its games out, costs up to a millisecond,
// and a stop must come within a tenth of a second. Counting the calls
// too bounds a search that judges nothing: MCTS in a tic-tac-toe tree
// it has wholly expanded runs its simulations through settled positions
// alone, a million of them in seconds.
func (s *Searcher) TimeUp() bool {
	if s.stopped {
		return true
	}
	s.calls++
	if s.calls&15 != 0 && s.stats.Nodes-s.looked < 16 {
		return false
	}
	s.looked = s.stats.Nodes
	if s.limit > 0 && time.Now().After(s.deadline) || s.ctx != nil && s.ctx.Err() != nil {
		s.stopped = true
	}
	return s.stopped
}
