package commands_test

import (
	"path/filepath"
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// A Connect Four league through the commands a user types: its rounds
// say the share of optimal moves, it keeps its game, its listings show
// the tactician and the ladder, and its best network goes out to a file
// and back into another league playing the same.
func TestConnectFourLeague(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	run := []string{"league", "run", "--game", "connect4", "--rounds", "3", "--games-per-round", "200", "--hidden", "16", "--opponents", "8"}
	out := p.OK(t, run...)
	if got := strings.Count(out, "optimal "); got != 3 {
		t.Errorf("league run: %d round lines with the optimal share, want 3:\n%s", got, out)
	}
	p.Usage(t, "--game tictactoe: the league in league.db plays Connect Four", "league", "run", "--game", "tictactoe", "--rounds", "1")
	p.Usage(t, "--exploit and --drill need a game whose every position is solved, and Connect Four is not", "league", "run", "--exploit", "0.2", "--rounds", "1")
	p.OK(t, "league", "run", "--rounds", "1", "--games-per-round", "200") // resumes as Connect Four
	p.Usage(t, "--learner policy: this league's learner is tdlambda", "league", "run", "--learner", "policy", "--rounds", "1")
	if show := p.OK(t, "show", "latest"); !strings.Contains(show, "85-16-1") {
		t.Errorf("show latest: not a value net of 85 inputs, 16 hidden units:\n%s", show)
	}

	board := p.OK(t, "ratings", "--format", "csv")
	for _, want := range []string{"optimal_pct", "tactician", "random", "checkpoint-"} {
		if !strings.Contains(board, want) {
			t.Errorf("ratings: no %q in\n%s", want, board)
		}
	}
	if show := p.OK(t, "show", "best"); !strings.Contains(show, "verify:  optimal moves") && !strings.Contains(show, "optimal moves") {
		t.Errorf("show best:\n%s", show)
	}

	p.OK(t, "export", "-o", "c4best.bin")
	p.OK(t, "import", "--db", "other.db", "--game", "connect4", "c4best.bin")
	p.Usage(t, "--game tictactoe: the league in other.db plays Connect Four", "import", "--db", "other.db", "--game", "tictactoe", "c4best.bin")
	stored := p.OK(t, "verify", "--against", "tactician,mcts-100", "best")
	file := p.OK(t, "verify", "--against", "tactician,mcts-100", "--db", filepath.Join(p.Dir, "other.db"), "c4best.bin")
	if first := strings.SplitN(stored, "\n", 2)[0]; first != strings.SplitN(file, "\n", 2)[0] || !strings.HasPrefix(first, "network: optimal moves") {
		t.Errorf("verify of the stored net and of its file differ:\n%s\n%s", stored, file)
	}
	if !strings.Contains(stored, "vs mcts-100: as X") {
		t.Errorf("verify: no results against the ladder:\n%s", stored)
	}

	// A game in the terminal: the columns typed 1-7, a full column refused.
	out, _, code := p.RunInput(t, "4\n4\n4\n4\n8\nq\n", "play", "--checkpoint", "tactician")
	for _, want := range []string{"Type a column (1-7)", "tactician plays O on 4.", "Not a move: column 4 is full.",
		"Not a move: column 8 is off the board (1-7).", "    1 2 3 4 5 6 7"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("play: exit %d, no %q in\n%s", code, want, out)
		}
	}
}

// ttt analyze solves Connect Four positions: a win in one, a forced loss,
// and the known values of the moves after the centre opening's reply.
func TestAnalyzeConnectFour(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	for _, tt := range []struct {
		moves, want string
	}{
		// X has 4, 5, 6 on the bottom row: columns 3 and 7 win at once,
		// the rest lose (O then has two ways to stop only one threat...
		// no: O blocks, so they are judged by the solver).
		{"445566", "3,win,1"},
		{"445566", "7,win,1"},
		// O to move against two open ends of X's three: every move loses
		// in two plies.
		{"4455664", "1,loss,2"},
		{"4455664", "4,loss,2"},
	} {
		out := p.OK(t, "analyze", "--game", "connect4", "--format", "csv", tt.moves)
		if !strings.HasPrefix(out, "move,value,plies\n") || !strings.Contains(out, tt.want+"\n") {
			t.Errorf("analyze %s: no line %q in\n%s", tt.moves, tt.want, out)
		}
	}
	p.Refused(t, "move 7 (4): column 4 cannot be played", "analyze", "--game", "connect4", "4444444")
	p.Refused(t, `"8" is not a column`, "analyze", "--game", "connect4", "48")
}

// Either learner learns either game: ttt-rl's policy net in Connect Four,
// the value net in tic-tac-toe, each kept across a resume.
func TestLearners(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, "league", "run", "--game", "connect4", "--db", "policy.db", "--learner", "policy", "--rounds", "1", "--games-per-round", "200", "--hidden", "16", "--opponents", "8")
	p.OK(t, "league", "run", "--db", "policy.db", "--rounds", "1")
	if show := p.OK(t, "show", "--db", "policy.db", "latest"); !strings.Contains(show, "85-16-7") {
		t.Errorf("show latest: not a policy net of 85 inputs, 16 hidden units:\n%s", show)
	}
	p.OK(t, "league", "run", "--db", "td.db", "--learner", "tdlambda", "--rounds", "2", "--games-per-round", "2000", "--hidden", "32")
	if show := p.OK(t, "show", "--db", "td.db", "latest"); !strings.Contains(show, "19-32-1") {
		t.Errorf("show latest: not a value net of 19 inputs, 32 hidden units:\n%s", show)
	}
	p.OK(t, "export", "--db", "td.db", "-o", "td.bin")
	// verify exits 1 for a beatable net; the two must say the same.
	stored, _, code1 := p.Run(t, "verify", "--db", "td.db", "latest")
	file, _, code2 := p.Run(t, "verify", "--db", "td.db", "td.bin")
	if stored != file || code1 != code2 || !strings.Contains(stored, "optimal moves") {
		t.Errorf("verify of the stored value net and of its file differ:\n%s\n%s", stored, file)
	}
}
