package commands_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/league"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// ttt compare of two networks of a tic-tac-toe league: their record as
// the league stored it, and every position where their moves differ,
// counted here over the solved game's positions. (Its refusals: the
// script compare.txtar.)
func TestCompare(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "3")...)
	out := p.OK(t, "compare", "6", "8", "--db", "league.db")

	db, err := store.OpenRead(t.Context(), filepath.Join(p.Dir, "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a, err := db.Agent(t.Context(), "6")
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Agent(t.Context(), "8")
	if err != nil {
		t.Fatal(err)
	}
	records, err := db.PairRecords(t.Context(), [][2]int64{{8, 6}})
	if err != nil {
		t.Fatal(err)
	}
	// The league stores the newer agent's record: agent 6's is reversed.
	rec := records[[2]int64{8, 6}].Reversed()
	if want := fmt.Sprintf("head to head:  %s in %d games", rec, rec.Games()); !strings.Contains(out, want) {
		t.Errorf("ttt compare 6 8 says\n%s\nwant %q", out, want)
	}
	diff := a.Standing.Elo - b.Standing.Elo
	if want := fmt.Sprintf("difference:    %+.1f (95%%: ", diff); !strings.Contains(out, want) {
		t.Errorf("ttt compare 6 8 says\n%s\nwant %q", out, want)
	}

	// Every position where a move is due, and those where they differ.
	ma, err := league.ModelOf(agents.TicTacToe, &league.Agent{Agent: a})
	if err != nil {
		t.Fatal(err)
	}
	mb, err := league.ModelOf(agents.TicTacToe, &league.Agent{Agent: b})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := ma.Player(), mb.Player()
	due, differ := 0, map[string]bool{}
	for _, pos := range tictactoe.Solve().Positions() {
		if pos.Result() != game.Ongoing {
			continue
		}
		due++
		if ma, mb := pa.Move(pos.Position()), pb.Move(pos.Position()); ma != mb {
			differ[pos.String()+fmt.Sprintf(" %d %d", ma, mb)] = true
		}
	}
	if want := fmt.Sprintf("moves:         different in %d of %d positions", len(differ), due); !strings.Contains(out, want) {
		t.Errorf("ttt compare 6 8 says\n%.600s\nwant %q", out, want)
	}
	// Each position printed: its three rows, the first with the moves.
	listed := regexp.MustCompile(`(?m)^(\S{3})   [XO] to move: checkpoint-6 plays (\d) \(\w+\), checkpoint-8 plays (\d) \(\w+\)\n(\S{3})\n(\S{3})$`).FindAllStringSubmatch(out, -1)
	if len(listed) != len(differ) {
		t.Errorf("ttt compare 3 5 lists %d positions; they differ in %d", len(listed), len(differ))
	}
	for _, m := range listed {
		key := m[1] + "\n" + m[4] + "\n" + m[5] + " " + m[2] + " " + m[3]
		if !differ[key] {
			t.Errorf("ttt compare 3 5 lists %q, where they do not move so", key)
		}
	}
}
