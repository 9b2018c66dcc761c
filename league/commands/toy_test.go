package commands_test

import (
	"strings"
	"testing"

	"ttt/agents/toy"
	"ttt/league/commands/clitest"
)

// TestToyGame: a game that declares its rules and its kit, and nothing
// else, runs through the commands as the two real games do. Connect
// Three (package toy, five columns of four cells) is known to no command
// by name: what each command prints of it comes from its kit. The game
// is registered in the test's own process alone.
func TestToyGame(t *testing.T) {
	t.Parallel()
	if !toy.OwnProcess(t) {
		return
	}
	p := clitest.New(t)
	name := toy.Game.Name()
	out := p.OK(t, "league", "run", "--game", name, "--rounds", "3", "--games-per-round", "500", "--search", "ab3")
	if !strings.Contains(out, "new Connect Three league") || !strings.Contains(out, "round 3  checkpoint-") {
		t.Fatalf("league run:\n%s", out)
	}
	if show := p.OK(t, "league", "show"); !strings.Contains(show, "game:         "+name) {
		t.Errorf("league show:\n%s", show)
	}
	var list []struct {
		Name   string   `json:"agent"`
		Kind   string   `json:"kind"`
		Random *float64 `json:"random_pct"`
	}
	p.OKJSON(t, &list, "ratings", "--format", "json", "--all")
	kinds := map[string]int{}
	for _, a := range list {
		kinds[a.Kind]++
		if a.Kind == "checkpoint" && a.Random == nil {
			t.Errorf("%s has no share of the position set", a.Name)
		}
	}
	if kinds["checkpoint"] != 3 || kinds["mcts"] != 2 || kinds["random"] != 1 || kinds["searched"] == 0 {
		t.Errorf("the league's agents by kind: %v", kinds)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "best", "--against", "mcts-10"}, "vs mcts-10: as X W/D/L "},
		{[]string{"verify", "best@ab3"}, "time a move, searched by alpha-beta, 3 plies deep"},
		{[]string{"compare", "best", "checkpoint-4"}, "positions (the position set)"},
		{[]string{"roundrobin", "best", "checkpoint-4", "mcts-10"}, "mcts-10"},
		{[]string{"analyze", "--game", name, "33"}, "2     win    3"},
		{[]string{"export", "-o", "best.bin"}, "written to best.bin"},
		// A headerless file's size fits networks of other games too:
		// --inputs says which.
		{[]string{"import", "--name", "again", "--inputs", "41", "best.bin"}, "a Connect Three policy network of 41 inputs"},
		{[]string{"ratings", "plot", "-o", "r.png"}, "drawn in r.png"},
	} {
		if out := p.OK(t, c.args...); !strings.Contains(out, c.want) {
			t.Errorf("ttt %s lacks %q:\n%s", strings.Join(c.args, " "), c.want, out)
		}
	}
	p.Usage(t, "a Connect Three policy network", "import", "--name", "other", "best.bin")

	// play draws the board from the game's layout: five columns of four
	// cells, the stones where they fell.
	play, _, code := p.RunInput(t, "3\n9\nq\n", "play", "--checkpoint", "best", "--hint")
	for _, want := range []string{
		"Type a column (1-5) and Enter",
		"  |           |\n  |           |\n  |           |\n  |           |\n  +-----------+\n    1 2 3 4 5\n",
		"The value of each move for you",
		"Not a move: column 9 is off the board (1-5).",
	} {
		if !strings.Contains(play, want) {
			t.Errorf("play lacks %q:\n%s", want, play)
		}
	}
	if code != 0 || !strings.Contains(play, "|     X ") {
		t.Errorf("play: exit %d, X's stone not at the bottom of column 3:\n%s", code, play)
	}
}
