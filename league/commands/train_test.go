package commands_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/agents/conv"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/table"
	"ttt/agents/train"
	"ttt/agents/verify"
	"ttt/league/commands/clitest"
)

// Every method trains through ttt train and writes a file that ttt
// verify reads; --until stops at the first check the learner passes,
// and says after how many games.
func TestTrainMethods(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	for _, method := range agents.MethodNames() {
		file := method + ".bin"
		// The convolutional learner labels every position of a game by
		// a search: 2,000 games would take it a minute of CPU, and 20
		// make its file as well.
		games := "2000"
		if method == conv.Method.Name {
			games = "20"
		}
		args := []string{"train", "--method", method, "--games", games, "-o", file}
		if m, _ := agents.MethodOf(method); slices.Contains(m.Own, train.Hidden) {
			args = append(args, "--hidden", "8")
		}
		out := p.OK(t, args...)
		if !strings.HasSuffix(out, " saved to "+file+"\n") {
			t.Errorf("train --method %s said:\n%s", method, out)
		}
		out, errOut, code := p.Run(t, "verify", file)
		if (code != 0 && code != 1) || strings.Count(out, "vs random exactly") != 2 {
			t.Errorf("verify %s: exit %d\n%s%s", file, code, out, errOut)
		}
	}

	// The article's learner, until perfect: the line of each class as it
	// is first reached, then the last.
	out := p.OK(t, "train", "--method", "table", "--until", "perfect", "-o", "table.bin")
	reached := regexp.MustCompile(`(?m)^Games: (\d+), [\d.]+s: perfect \(optimal moves X 100\.0%, O 100\.0%\)$`).FindStringSubmatch(out)
	if !strings.HasPrefix(out, "Training a tic-tac-toe table of values (table) against a random opponent for at most 150000 games (seed 1)\n") ||
		reached == nil || !strings.Contains(out, "\nReached perfect after "+reached[1]+" games\nTable of ") {
		t.Errorf("train --method table --until perfect said:\n%s", out)
	}
	out = p.OK(t, "verify", "table.bin")
	tab, err := table.Parse(p.File(t, "table.bin"))
	if err != nil {
		t.Fatal(err)
	}
	// verify's figures are the file's table's, as a player.
	for _, side := range []game.Side{game.X, game.O} {
		if want := fmt.Sprintf("%s; vs random %s", verify.Check(tab, side), "exactly "+verify.Exact(tab, side).String()); !strings.Contains(out, want) {
			t.Errorf("verify table.bin said:\n%s\nwant a line with %q", out, want)
		}
	}

	// ttt play takes the file: the table's move is its greedy one, with
	// the value it puts on the position after each square.
	b := tictactoe.Board{}.Play(4)
	stdout, errOut, code := p.RunInput(t, "4\nq\n", "play", "--file", "table.bin")
	if want := fmt.Sprintf("table.bin plays O on %d; the value it puts on the position after each square:\n", tab.Move(b.Position())); code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("play --file table.bin: exit %d, want a line %q\n%s%s", code, want, stdout, errOut)
	}

	// A run that does not get there in --games writes its file and
	// fails.
	p.Refused(t, "not unbeatable after 2000 games, the most --games allows: the last check found it beatable",
		"train", "--method", "selfplay-table", "--until", "unbeatable", "--games", "2000", "-o", "book.bin")
	if _, err := table.Parse(p.File(t, "book.bin")); err != nil {
		t.Errorf("the table of a run that fell short: %v", err)
	}

	// A table replaces only a table unless forced.
	p.Write(t, "notes.txt", []byte("notes\n"))
	p.Refused(t, "cannot write notes.txt: it is a file of 6 bytes of another kind",
		"train", "--method", "table", "--games", "10", "-o", "notes.txt")
	p.OK(t, "train", "--method", "table", "--games", "10", "-o", "notes.txt", "--force")
	before := p.File(t, "table.bin")
	p.OK(t, "train", "--method", "table", "--games", "10", "-o", "table.bin")
	if bytes.Equal(before, p.File(t, "table.bin")) {
		t.Error("train -o table.bin left the table it replaces")
	}
}

// ttt train --game connect4 trains a method that learns Connect Four and
// writes a file that ttt verify measures on the position sets; a table
// of values, which cannot hold Connect Four's positions, is refused
// before any game, and writes nothing.
func TestTrainConnectFour(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	// The net grows after 1000 games, as a league's would: 4 walks and
	// the 36 lines of four cells, then the lines again, of five.
	out := p.OK(t, "train", "--game", "connect4", "--method", "ntuple", "--games", "2000",
		"--tuples", "4", "--tuple-length", "4", "--grow-at", "1000", "--grow-length", "5", "-o", "c4.bin")
	if !strings.HasPrefix(out, "Training a Connect Four n-tuple network (ntuple) in self-play for 2000 games (seed 1)\n") ||
		!strings.HasSuffix(out, " saved to c4.bin\n") {
		t.Errorf("train --game connect4 said:\n%s", out)
	}
	out = p.OK(t, "verify", "--against", "tactician", "c4.bin")
	if !strings.Contains(out, "tactical set: optimal moves ") || !strings.Contains(out, "vs tactician: as X W/D/L ") ||
		!strings.Contains(out, "n-tuple network of 76 tuples") {
		t.Errorf("verify c4.bin said:\n%s", out)
	}
	p.Usage(t, "a table of values cannot hold the positions of Connect Four",
		"train", "--game", "connect4", "--method", "table", "-o", "table.bin")
	if _, err := os.Stat(filepath.Join(p.Dir, "table.bin")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused train left table.bin: %v", err)
	}
}
