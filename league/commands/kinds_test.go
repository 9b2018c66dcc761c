package commands_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/league"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// methods are the four ways an agent learns, in the order of the league
// below: round r's checkpoint, agent 5+r, is the learner of
// methods[(r-1)%4].
var methods = []string{"table", "policy", "tdlambda", "selfplay-table"}

// Every kind of stored agent, a network of either method or a table of
// either, goes through the commands as the others do: verify says the
// same of the stored agent and of its exported file, and the file
// imported back plays as the agent does in every position. Pruned, a
// table says so.
func TestEveryKindOfAgent(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	// Five rounds: the table learner's line has two checkpoints, of
	// which prune keeps at most one (the best), and the newest is
	// another's.
	p.OK(t, "league", "run", "--learners", "table,policy,tdlambda,selfplay-table", "--rounds", "5",
		"--games-per-round", "2000", "--hidden", "16", "--seed", "5")
	for round, method := range methods {
		id := strconv.Itoa(6 + round)
		t.Run(method, func(t *testing.T) {
			stored, model := storedAgent(t, p, id)
			if stored.Method != method {
				t.Fatalf("agent %s: method %q, want %q", id, stored.Method, method)
			}
			file := method + ".bin"
			p.OK(t, "export", "--checkpoint", id, "-o", file)
			fromDB, _, dbCode := p.Run(t, "verify", id)
			fromFile, _, fileCode := p.Run(t, "verify", file)
			if fromDB == "" || fromDB != fromFile || dbCode != fileCode {
				t.Errorf("verify %s: exit %d\n%s\nverify %s: exit %d\n%s", id, dbCode, fromDB, file, fileCode, fromFile)
			}

			out := p.OK(t, "import", file, "--name", "copy-of-"+method)
			m := regexp.MustCompile(`stored as agent (\d+) `).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("import %s said:\n%s", file, out)
			}
			copied, copiedModel := storedAgent(t, p, m[1])
			if method == "selfplay-table" && copied.Method != "table" || method != "selfplay-table" && copied.Method != method {
				t.Errorf("the copy of a %s agent: method %q", method, copied.Method)
			}
			compared, differ := 0, 0
			for _, b := range tictactoe.Solve().Positions() {
				if b.Result() != game.Ongoing {
					continue
				}
				compared++
				if a, c := model.Player().Move(b.Position()), copiedModel.Player().Move(b.Position()); a != c {
					if differ++; differ <= 3 {
						t.Errorf("%s: agent %s plays %d, its imported copy %d", b.Compact(), id, a, c)
					}
				}
			}
			if compared == 0 {
				t.Error("no position to compare the moves in")
			}
		})
	}

	// A pruned table checkpoint says what it was.
	p.OK(t, "prune", "--best", "1", "--every", "0")
	pruned := 0
	for _, id := range []string{"6", "10"} { // the table learner's
		if _, err := storedAgentErr(t, p, id); !errors.Is(err, store.ErrPruned) {
			continue
		}
		pruned++
		want := regexp.MustCompile(`(?m)^model: +its weights dropped by ttt prune \(its record, ratings and games remain\)$`)
		if out := p.OK(t, "show", id); !want.MatchString(out) {
			t.Errorf("show %s, pruned:\n%s", id, out)
		}
		p.Refused(t, fmt.Sprintf("agent %s (checkpoint-%s): its weights were dropped by ttt prune", id, id), "export", "--checkpoint", id, "-o", "x.bin")
	}
	if pruned == 0 {
		t.Error("prune --best 1 --every 0 kept both of the table learner's checkpoints")
	}
}

// storedAgent reads the agent id of the league in p's directory, and its
// model.
func storedAgent(t *testing.T, p clitest.TTT, id string) (*store.Agent, learn.Model) {
	t.Helper()
	a, err := storedAgentErr(t, p, id)
	if err != nil {
		t.Fatal(err)
	}
	m, err := league.ModelOf(agents.TicTacToe, a)
	if err != nil {
		t.Fatal(err)
	}
	return a, m
}

// storedAgentErr is storedAgent's look-up, with its error.
func storedAgentErr(t *testing.T, p clitest.TTT, id string) (*store.Agent, error) {
	t.Helper()
	db, err := store.OpenRead(t.Context(), filepath.Join(p.Dir, "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return db.Agent(t.Context(), id)
}
