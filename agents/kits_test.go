package agents

import (
	"strings"
	"testing"

	"ttt/agents/game/connect4"
)

// Every game's kit declares what a game must, and one that does not is
// refused when it registers, naming what it lacks.
func TestKitsAreComplete(t *testing.T) {
	for _, k := range Games {
		if err := k.complete(); err != nil {
			t.Errorf("%s: %v", k.Name(), err)
		}
	}
	for _, c := range []struct {
		kit  Kit
		want string
	}{
		{Kit{Game: connect4.Game, Layout: Layout{Rows: 7, Cols: 6, Drop: true}}, "is not its board's 42 cells in rows of 7"},
		{Kit{Game: connect4.Game, Layout: Layout{Rows: 6, Cols: 7}}, "7 moves do not fit its layout"},
		{Kit{Game: connect4.Game, Layout: ConnectFour.Layout}, "it declares no Learner, League, Builtins, random first, Check, Analyze"},
	} {
		err := c.kit.complete()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.kit.Layout, err, c.want)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "the kit of connect4") {
			t.Errorf("Register of an incomplete kit: %v", r)
		}
	}()
	Register(&Kit{Game: connect4.Game})
}
