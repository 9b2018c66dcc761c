package commands_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/testkit"
	"ttt/league"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// Every kind of model, in both games, goes through the commands as the
// others do: its file, with both sides and with one (--side), reads back
// with no flags as a model that plays as the checkpoint does in every
// position (of that side), verify says the same of the stored agent and
// of its file, the file imported back plays as the agent does, and a
// file of one game given to a league of the other is refused, naming
// both. Pruned, a table says so.
//
// It belongs to the long tier, for its files of one side; its quick
// sibling, TestEveryKindOfAgentBothSides, tries the files of both.
func TestEveryKindOfAgent(t *testing.T) {
	t.Parallel()
	testkit.Long(t, "every kind's file with both sides and with each; TestEveryKindOfAgentBothSides tries both sides alone")
	everyKindOfAgent(t, []string{"", "X", "O"})
}

// TestEveryKindOfAgentBothSides is TestEveryKindOfAgent with the files
// of both sides alone, each verified beside its stored agent.
func TestEveryKindOfAgentBothSides(t *testing.T) {
	t.Parallel()
	everyKindOfAgent(t, []string{""})
}

// everyKindOfAgent is TestEveryKindOfAgent with files of sides: "" for
// both, X or O for one. Its Connect Four league evaluates each snapshot
// from the empty board alone (--openings 0): the point is the files, and
// a new best's first games against the solver and the MCTS players from
// every opening of one move were four fifths of the test's CPU.
func everyKindOfAgent(t *testing.T, sides []string) {
	for _, c := range []struct {
		kit     *agents.Kit
		methods []string
		flags   []string
	}{
		{agents.TicTacToe, []string{"table", "policy", "tdlambda", "selfplay-table", "ntuple"}, []string{"--games-per-round", "2000", "--hidden", "16"}},
		{agents.ConnectFour, []string{"policy", "tdlambda", "ntuple"}, []string{"--games-per-round", "300", "--hidden", "16", "--tuples", "6", "--tuple-length", "4", "--opponents", "6", "--openings", "0", "--ladder-interval", "200"}},
	} {
		t.Run(c.kit.Name(), func(t *testing.T) {
			t.Parallel()
			p := clitest.New(t)
			other := []string{"--game", "connect4", "--tuples", "4", "--tuple-length", "4", "--openings", "0", "--ladder-interval", "200"}
			if c.kit == agents.ConnectFour {
				other = []string{"--game", "tictactoe", "--hidden", "8"}
			}
			p.OK(t, append([]string{"league", "run", "--db", "other.db", "--rounds", "1", "--games-per-round", "100", "--opponents", "4"}, other...)...)
			p.OK(t, append([]string{"league", "run", "--game", c.kit.Name(), "--learners", strings.Join(c.methods, ","),
				"--rounds", strconv.Itoa(len(c.methods)), "--seed", "5"}, c.flags...)...)
			positions := positionsOf(c.kit)
			for round, method := range c.methods {
				id := strconv.Itoa(len(c.kit.Builtins) + 1 + round)
				t.Run(method, func(t *testing.T) {
					stored, model := storedAgent(t, p, c.kit, id)
					if stored.Method != method {
						t.Fatalf("agent %s: method %q, want %q", id, stored.Method, method)
					}
					verify := []string{"verify"}
					if !c.kit.Solved {
						verify = append(verify, "--against", "tactician")
					}
					for _, side := range sides {
						file := method + side + ".bin"
						export := []string{"export", "--checkpoint", id, "-o", file}
						moving := []game.Side{game.X, game.O}
						if side != "" {
							export = append(export, "--side", side)
							s, _ := game.ParseSide(side)
							moving = []game.Side{s}
						}
						p.OK(t, export...)
						read, err := agents.ReadFile(nil, p.File(t, file), nil)
						if err != nil {
							t.Fatalf("%s read back with no flags: %v", file, err)
						}
						samePlay(t, c.kit, positions, moving, model, read.Model, file)

						out := p.OK(t, "import", file, "--name", "copy-"+method+side)
						m := regexp.MustCompile(`stored as agent (\d+) `).FindStringSubmatch(out)
						if m == nil {
							t.Fatalf("import %s said:\n%s", file, out)
						}
						_, copied := storedAgent(t, p, c.kit, m[1])
						samePlay(t, c.kit, positions, moving, model, copied, "the imported "+file)

						p.Refused(t, fmt.Sprintf("%s: it is a %s ", file, c.kit.Title()), "import", "--db", "other.db", file)

						if side == "" {
							fromDB, _, dbCode := p.Run(t, append(verify, id)...)
							fromFile, _, fileCode := p.Run(t, append(verify, file)...)
							if fromDB == "" || fromDB != fromFile || dbCode != fileCode {
								t.Errorf("verify %s: exit %d\n%s\nverify %s: exit %d\n%s", id, dbCode, fromDB, file, fileCode, fromFile)
							}
						}
					}
				})
			}
			if c.kit != agents.TicTacToe {
				return
			}
			// A pruned table checkpoint says what it was.
			p.OK(t, "prune", "--best", "1", "--every", "0")
			pruned := 0
			for _, id := range []string{"6", "9"} { // the tables'
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
				t.Error("prune --best 1 --every 0 kept both tables")
			}
		})
	}
}

// positionsOf returns the positions to compare moves in: every position
// of tic-tac-toe where a move is due, or Connect Four's two sets and
// positions of random moves.
func positionsOf(kit *agents.Kit) []game.Position {
	var out []game.Position
	if kit.Solved {
		for _, b := range tictactoe.Solve().Positions() {
			if b.Result() == game.Ongoing {
				out = append(out, b.Position())
			}
		}
		return out
	}
	for _, s := range append(kit.Positions(), kit.Random()...) {
		out = append(out, s.Position)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 2000 {
		p := kit.Start()
		for n := rng.IntN(kit.MaxPlies()); n > 0 && kit.Result(p) == game.Ongoing; n-- {
			p = kit.Play(p, game.RandomMove(kit.Game, p, rng))
		}
		if kit.Result(p) == game.Ongoing {
			out = append(out, p)
		}
	}
	return out
}

// samePlay checks that got plays as want in every position where one of
// sides is to move.
func samePlay(t *testing.T, kit *agents.Kit, positions []game.Position, sides []game.Side, want, got learn.Model, what string) {
	t.Helper()
	w, g := want.Player(), got.Player()
	compared, differ := 0, 0
	for _, p := range positions {
		if kit.ToMove(p) != sides[0] && kit.ToMove(p) != sides[len(sides)-1] {
			continue
		}
		compared++
		if a, b := w.Move(p), g.Move(p); a != b {
			if differ++; differ <= 3 {
				t.Errorf("%s\n%s to move: the checkpoint plays %s, %s %s", kit.Format(p), kit.ToMove(p), kit.FormatMove(a), what, kit.FormatMove(b))
			}
		}
	}
	if compared == 0 {
		t.Errorf("%s: no position to compare the moves in", what)
	}
}

// storedAgent reads the agent id of the league in p's directory, a
// league of kit's game, and its model.
func storedAgent(t *testing.T, p clitest.TTT, kit *agents.Kit, id string) (*store.Agent, learn.Model) {
	t.Helper()
	a, err := storedAgentErr(t, p, id)
	if err != nil {
		t.Fatal(err)
	}
	la, err := league.AgentOf(a)
	if err != nil {
		t.Fatal(err)
	}
	m, err := league.ModelOf(kit, la)
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
