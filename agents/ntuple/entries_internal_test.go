package ntuple

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
)

// The entries of a move's afterstate, moved from the position before it
// by the cells the game says the move changes, as the learner records
// them, are those the afterstate selects read afresh: each game's
// Changes agrees with its CellStates.
func TestAfterEntriesAreTheAfterstates(t *testing.T) {
	for _, g := range []game.Game{connect4.Game, tictactoe.Game} {
		rng := rand.New(rand.NewPCG(3, 4))
		tuples, err := RandomWalks(g.Board(), 12, 5, rng)
		if err != nil {
			t.Fatal(err)
		}
		n, err := New(g, tuples)
		if err != nil {
			t.Fatal(err)
		}
		var p, q Pass
		for range 300 {
			pos := g.Start()
			for plies := rng.IntN(g.MaxPlies()); plies > 0 && g.Result(pos) == game.Ongoing; plies-- {
				pos = g.Play(pos, game.RandomMove(g, pos, rng))
			}
			if g.Result(pos) != game.Ongoing {
				continue
			}
			n.Afterstates(pos, &p, nil)
			mover := g.ToMove(pos)
			for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
				m := bits.TrailingZeros64(legal)
				after := g.Play(pos, m)
				got := n.afterEntries(pos, m, mover, &p, nil)
				n.indices(after, &q)
				if want := n.entries(mover, q.index, nil); !slices.Equal(got, want) {
					t.Fatalf("%s %v: moved entries %v, afresh %v", g.Name(), after, got, want)
				}
			}
		}
	}
}
