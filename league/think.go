package league

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
	"ttt/store"
)

// Shown is what an agent shows of each move when it plays a person: ttt
// play prints it over the board, the play page draws it.
type Shown int

// What agents show.
const (
	ShowsNothing  Shown = iota // MCTS, the tactician, the solver: they only move
	Probabilities              // a policy network's softmax, random's chance of each move
	Scores                     // the expected score after each move: value networks, n-tuple networks, searches
	TableValues                // a table's value of the position after each move, on its own scale
	GameValues                 // perfect's exact value of each move: 1 a win, 0 a draw, -1 a loss
)

// Thought is an agent's move in a position and, by move, what it made of
// each legal move (nil where it shows nothing).
type Thought struct {
	Move  int
	Views []float64
}

// Thinker is a stored agent playing a person: its moves, and what it
// thought of each, the same for ttt play and for the play page.
type Thinker struct {
	Shows Shown
	// Searcher is a searched model's search, which says what its last
	// move cost; nil for the others.
	Searcher *search.Searcher
	think    func(ctx context.Context, p game.Position, views []float64) (int, error)
	moves    int
}

// NewThinker returns a, an agent of kit's game whose model is m (nil for
// a built-in player), as a Thinker: a model plays greedily, or with its
// search within limit a move; random and MCTS draw their moves from rng.
func NewThinker(kit *agents.Kit, a *store.Agent, m learn.Model, rng *rand.Rand, limit time.Duration) (*Thinker, error) {
	t := &Thinker{moves: kit.Moves()}
	b, builtin := kit.Builtin(a.Name)
	switch {
	case m != nil:
		t.Shows = map[learn.Views]Shown{learn.Probabilities: Probabilities, learn.Scores: Scores, learn.Values: TableValues}[m.Views()]
		t.think = func(_ context.Context, p game.Position, views []float64) (int, error) {
			return m.Explain(p, views), nil
		}
		if t.Searcher = search.Searching(m, limit); t.Searcher != nil {
			t.think = t.Searcher.Think // stopped by the caller's ctx
		}
	case !builtin:
		return nil, fmt.Errorf("agent %d (%s) is a %s, which %s has no player for", a.ID, a.Name, a.Kind, kit.Title())
	case a.Kind == agents.Random:
		t.Shows = Probabilities
		player := b.New(rng)
		t.think = func(_ context.Context, p game.Position, views []float64) (int, error) {
			legal := kit.Legal(p)
			for l := legal; l != 0; l &= l - 1 {
				views[bits.TrailingZeros64(l)] = 1 / float64(bits.OnesCount64(legal))
			}
			return player.Move(p), nil
		}
	case a.Kind == agents.Perfect:
		t.Shows = GameValues
		player := b.New(rng)
		t.think = func(ctx context.Context, p game.Position, views []float64) (int, error) {
			values, err := kit.Analyze(ctx, p) // tic-tac-toe's are looked up
			for move, o := range values {
				views[move] = float64(o.Value)
			}
			return player.Move(p), err
		}
	default:
		player := b.New(rng)
		t.think = func(_ context.Context, p game.Position, _ []float64) (int, error) { return player.Move(p), nil }
	}
	return t, nil
}

// Think returns the agent's move in p, which is in play, and what it
// made of each move.
func (t *Thinker) Think(ctx context.Context, p game.Position) (Thought, error) {
	views := make([]float64, t.moves)
	m, err := t.think(ctx, p, views)
	if t.Shows == ShowsNothing {
		views = nil
	}
	return Thought{Move: m, Views: views}, err
}
