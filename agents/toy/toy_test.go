package toy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
)

// The rules keep game.Game's contract on random games: a move's Changes
// are what CellStates differ by, Encode lists the side input first and
// then each stone, and a game ends at the first three in a row, which
// the solver agrees with (a finished position is lost for the side to
// move, unless it is a tie).
func TestRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	before, after := make([]uint8, cells), make([]uint8, cells)
	for range 2000 {
		p := Game.Start()
		for Game.Result(p) == game.Ongoing {
			m := game.RandomMove(Game, p, rng)
			changes := Game.Changes(p, m, nil)
			Game.CellStates(p, before)
			next := Game.Play(p, m)
			Game.CellStates(next, after)
			for _, c := range changes {
				before[c.Cell] = c.To
			}
			if len(changes) != 1 || !slices.Equal(before, after) {
				t.Fatalf("%s: column %d changes %v\n%s", Game.Format(p), m+1, changes, Game.Format(next))
			}
			p = next
		}
		on := Game.Encode(p, nil)
		if want := Game.Plies(p) + 1 - int(Game.ToMove(p)); len(on) != want || (Game.ToMove(p) == game.X) != (on[0] == 2*cells) {
			t.Fatalf("%s: inputs %v", Game.Format(p), on)
		}
		if v := scores()[p]; Game.Result(p) == game.Tie && v != 0 || Game.Result(p) != game.Tie && v >= 0 {
			t.Fatalf("%s: %v, score %d", Game.Format(p), Game.Result(p), v)
		}
	}
}

// Importing the package registers nothing: a test binary that imports it
// runs the two games users get, but for the test that calls OwnProcess.
// Registered, the kit is complete (agents.Register panics otherwise),
// and the game is known by its name.
func TestRegister(t *testing.T) {
	name := Game.Name()
	if _, err := game.Named(name); err == nil {
		t.Fatalf("%s is registered as game on import", name)
	}
	if _, err := agents.KitOf(name); err == nil {
		t.Fatalf("%s's kit is registered on import", name)
	}
	register()
	if g, err := game.Named(name); err != nil || g != Game {
		t.Errorf("game.Named(%q) = %v, %v after register", name, g, err)
	}
	if k, err := agents.KitOf(name); err != nil || k != Kit {
		t.Errorf("agents.KitOf(%q) = %v, %v after register", name, k, err)
	}
}
