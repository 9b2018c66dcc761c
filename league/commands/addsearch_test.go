package commands_test

import (
	"errors"
	"math/bits"
	"strings"
	"sync/atomic"
	"testing"

	"ttt/agents/game"
	"ttt/agents/search"
	"ttt/league/commands/clitest"
)

// greedy is a toy search, registered by TestAddingASearch alone: one
// ply, the move the model judges best, the lowest on a tie. moves counts
// the moves it chose.
func greedy(moves *atomic.Int64) *search.Search {
	return &search.Search{Name: "greedy", Title: "greedy", Unit: "plies", Per: "deep", Max: 1, Example: 1,
		New: func(s *search.Searcher, n int) func(game.Position, []float64) (int, int) {
			g := s.Game()
			values := make([]float32, g.Moves())
			return func(p game.Position, views []float64) (int, int) {
				moves.Add(1)
				s.Judge(p, values)
				best := -1
				for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
					m := bits.TrailingZeros64(legal)
					if views != nil {
						views[m] = float64(values[m])
					}
					if best < 0 || values[m] > values[best] {
						best = m
					}
				}
				return best, n
			}
		}}
}

// TestAddingASearch does what docs/develop.md's "Adding a search" says:
// a search registered here, and nowhere else, is an agent's search
// wherever a model is named with a search after an @ (best@greedy1): a
// league's --search, ttt show, ttt play and ttt verify. Unregistered,
// its name is no search again.
func TestAddingASearch(t *testing.T) {
	var moves atomic.Int64
	search.Register(greedy(&moves))
	t.Cleanup(func() { search.Unregister("greedy") })

	p := clitest.New(t)
	if help := p.OK(t, "league", "run", "--help"); !strings.Contains(help, "greedyN (greedy, N plies deep)") {
		t.Errorf("league run --help names no greedy search:\n%s", help)
	}
	out := p.OK(t, "league", "run", "--rounds", "3", "--search", "greedy1")
	if !strings.Contains(out, "@greedy1 joins: the best, searched") || moves.Load() == 0 {
		t.Fatalf("no greedy agent joined, %d greedy moves:\n%s", moves.Load(), out)
	}
	if show := p.OK(t, "show", "best@greedy1"); !strings.Contains(show, "searched by greedy, 1 plies deep") {
		t.Errorf("show best@greedy1:\n%s", show)
	}
	before := moves.Load()
	play, _, code := p.RunInput(t, "4\nq\n", "play", "--checkpoint", "best@greedy1")
	if code != 0 || !strings.Contains(play, "by greedy, 1 plies in") || moves.Load() == before {
		t.Errorf("play best@greedy1: exit %d, %d greedy moves\n%s", code, moves.Load()-before, play)
	}
	p.Write(t, "mine.txt", []byte("40\n"))
	if v := p.OK(t, "verify", "best@greedy1", "--positions", "mine.txt"); !strings.Contains(v, "time a move, searched by greedy, 1 plies deep") {
		t.Errorf("verify best@greedy1 --positions:\n%s", v)
	}
	p.Usage(t, `unknown search "greedy2": greedy takes a number from 1 to 1 (greedy1)`, "show", "best@greedy2")

	search.Unregister("greedy")
	if _, err := search.Parse("greedy1"); !errors.Is(err, search.ErrSpec) {
		t.Errorf("greedy1 unregistered: %v", err)
	}
	p.Usage(t, `unknown search "greedy1"`, "play", "--checkpoint", "latest@greedy1")
}
