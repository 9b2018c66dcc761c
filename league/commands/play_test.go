package commands_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/nn"
	"ttt/agents/verify"
	"ttt/league/commands"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// humanLines calls visit with the human's moves and the result of every
// game a human playing side human can play against the deterministic p.
func humanLines(p game.Player, human game.Side, visit func(moves []int, r game.Result)) {
	var walk func(b tictactoe.Board, moves []int)
	walk = func(b tictactoe.Board, moves []int) {
		if r := b.Result(); r != game.Ongoing {
			visit(moves, r)
			return
		}
		if b.ToMove() != human {
			walk(b.Play(p.Move(b.Position())), moves)
			return
		}
		for sq := range 9 {
			if b.IsEmpty(sq) {
				walk(b.Play(sq), append(moves[:len(moves):len(moves)], sq))
			}
		}
	}
	walk(tictactoe.Board{}, nil)
}

// firstLine returns the human's moves in the first line against p that
// ends in want, as the lines typed at the move prompt.
func firstLine(t *testing.T, p game.Player, human game.Side, want game.Result) string {
	t.Helper()
	var script string
	humanLines(p, human, func(moves []int, r game.Result) {
		if r == want && script == "" {
			for _, sq := range moves {
				script += fmt.Sprintf("%d\n", sq)
			}
		}
	})
	if script == "" {
		t.Fatalf("no line of the human as %s ends in %s", human, want)
	}
	return script
}

// unbeatableFile is testdata/unbeatable.bin, made by
// `ttt train --games 2000000 --seed 1 -o testdata/unbeatable.bin`. Its
// path is absolute: in-process commands run in their test's directory.
var unbeatableFile, _ = filepath.Abs(filepath.Join("testdata", "unbeatable.bin"))

// unbeatableNet reads unbeatableFile and checks that it is what its name
// says, so that tests relying on it cannot pass vacuously.
func unbeatableNet(t *testing.T) *nn.Net {
	t.Helper()
	data, err := os.ReadFile(unbeatableFile)
	if err != nil {
		t.Fatal(err)
	}
	net, err := nn.Parse(tictactoe.Game, data, nn.Shape{Inputs: tictactoe.Inputs})
	if err != nil {
		t.Fatal(err)
	}
	table := tictactoe.NewTable(&nn.Player{Net: net})
	for _, side := range []game.Side{game.X, game.O} {
		if r := verify.Check(table, side); !r.Unbeatable() {
			t.Fatalf("testdata/unbeatable.bin: %s", r)
		}
	}
	return net
}

// weakNet is an untrained network: greedy, deterministic and easy to beat.
func weakNet() *nn.Net { return nn.New(tictactoe.Game, nn.DefaultHidden, rand.New(rand.NewPCG(1, 2))) }

// TestPlayScripted plays scripted games through the command's stdin and
// checks each transcript's outcome exactly, and that playing leaves the
// database as it was.
func TestPlayScripted(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.Write(t, "weak.bin", weakNet().Bytes())
	p.OK(t, "import", "--name", "weak", "weak.bin")
	p.OK(t, "import", "--name", "unbeatable", unbeatableFile)
	net := unbeatableNet(t)
	perfect := tictactoe.Perfect()

	// Each game ends with "n" to the question whether to play again.
	const end = "Play again? (y/n): n\n"
	for _, tc := range []struct {
		name  string
		args  []string
		input string
		want  []string // in this order in the transcript
	}{{
		name:  "win",
		args:  []string{"--checkpoint", "weak"},
		input: firstLine(t, tictactoe.NewTable(&nn.Player{Net: weakNet()}), game.X, game.XWins) + "n\n",
		want:  []string{"You are X and weak plays O; you move first.", "You win!\n" + end + "Against weak you won 1, drew 0 and lost 0.\n"},
	}, {
		name:  "loss as O",
		args:  []string{"--checkpoint", "unbeatable", "--as", "O"},
		input: firstLine(t, tictactoe.NewTable(&nn.Player{Net: net}), game.O, game.XWins) + "n\n",
		want:  []string{"unbeatable moves first.", "unbeatable wins.\n" + end + "Against unbeatable you won 0, drew 0 and lost 1.\n"},
	}, {
		name:  "tie",
		args:  []string{"--checkpoint", "perfect"},
		input: firstLine(t, perfect, game.X, game.Tie) + "n\n",
		want:  []string{"the game value of each move for perfect:", "A tie.\n" + end + "Against perfect you won 0, drew 1 and lost 0.\n"},
	}, {
		name:  "play again, then end of input",
		args:  []string{"--checkpoint", "perfect", "--as", "O"},
		input: firstLine(t, perfect, game.O, game.XWins) + "maybe\ny\n4\n",
		want: []string{
			"perfect wins.\nPlay again? (y/n): maybe\nAnswer y or n.\nPlay again? (y/n): y\n",
			"Your move (0-8, q quits): \nEnd of input.\nThis game is not counted.\nAgainst perfect you won 0, drew 0 and lost 1.\n",
		},
	}, {
		name: "a line longer than 64 KiB is a bad move like any other",
		args: []string{"--checkpoint", "perfect"},
		// 64 KiB is the longest line read whole; then a longer one.
		input: strings.Repeat("7", 64<<10) + "\n" + strings.Repeat("7", 1<<20) + "\n4\nq\n",
		want: []string{
			"Your move (0-8, q quits): " + strings.Repeat("7", 64<<10) + "\nNot a move: square " + strings.Repeat("7", 64<<10) + " is off the board (0-8).\n",
			"Your move (0-8, q quits): [a line of more than 64 KiB]\nNot a move: the line is longer than 64 KiB.\nYour move (0-8, q quits): 4\n",
			"Your move (0-8, q quits): q\nThis game is not counted.\nAgainst perfect you won 0, drew 0 and lost 0.\n",
		},
	}, {
		name:  "a line longer than 64 KiB is no answer to play again",
		args:  []string{"--checkpoint", "perfect", "--as", "O"},
		input: firstLine(t, perfect, game.O, game.XWins) + strings.Repeat("y", 100<<10) + "\nn\n",
		want:  []string{"perfect wins.\nPlay again? (y/n): [a line of more than 64 KiB]\nAnswer y or n.\nPlay again? (y/n): n\nAgainst perfect you won 0, drew 0 and lost 1.\n"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			before := clitest.Snapshot(t, p.Dir)
			out, errOut, code := p.RunInput(t, tc.input, append([]string{"play"}, tc.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
			}
			rest := out
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("transcript lacks %q (or has it out of order):\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			if strings.HasSuffix(tc.want[len(tc.want)-1], "\n") && rest != "" {
				t.Errorf("transcript goes on after the end:\n%s", out)
			}
			if after := clitest.Snapshot(t, p.Dir); after != before {
				t.Errorf("play changed the directory:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// TestNoHumanLineBeatsUnbeatable plays every line of human moves, on both
// sides, through the game loop of ttt play against perfect and against a
// network verified unbeatable, and checks that none is a human win.
func TestNoHumanLineBeatsUnbeatable(t *testing.T) {
	t.Parallel()
	net := unbeatableNet(t)
	for _, tc := range []struct {
		agent  *store.Agent
		model  learn.Model
		player game.Player
	}{
		{&store.Agent{Kind: agents.Perfect, Name: "perfect"}, nil, tictactoe.Perfect()},
		{&store.Agent{Kind: store.Imported, Name: "unbeatable", Method: "policy"}, net, tictactoe.NewTable(&nn.Player{Net: net})},
	} {
		for _, human := range []game.Side{game.X, game.O} {
			t.Run(fmt.Sprintf("%s as %s", tc.agent.Name, human.Other()), func(t *testing.T) {
				lines := 0
				humanLines(tc.player, human, func(moves []int, r game.Result) {
					lines++
					var script strings.Builder
					for _, sq := range moves {
						fmt.Fprintf(&script, "%d\n", sq)
					}
					script.WriteString("n\n")
					tally, err := commands.PlayGames(strings.NewReader(script.String()), io.Discard, tc.agent, tc.model, human, 1)
					want := game.Record{Losses: 1}
					if r == game.Tie {
						want = game.Record{Draws: 1}
					}
					if err != nil || tally != want {
						t.Fatalf("moves %v: %s, %v; want %s (the line ends in %s)", moves, tally, err, want, r)
					}
				})
				// Every line the exhaustive check follows, and no other.
				if want := verify.Check(tc.player, human.Other()).Lines; lines != want {
					t.Errorf("played %d lines, verify counts %d", lines, want)
				}
			})
		}
	}
}

// FuzzPlayInput feeds any input to the game loop against perfect: it
// never fails, the human never wins, the session always ends with its
// record, and a line the move prompt takes is a legal move.
func FuzzPlayInput(f *testing.F) {
	f.Add("4\n0\n8\nq\n", false)
	f.Add("abc\n\n9\n-1\n4\n4\ny\n", true)
	perfect := &store.Agent{Kind: agents.Perfect, Name: "perfect"}
	boards := []tictactoe.Board{{}, tictactoe.Board{}.Play(4).Play(0)}
	f.Fuzz(func(t *testing.T, input string, asO bool) {
		human := game.X
		if asO {
			human = game.O
		}
		var out strings.Builder
		tally, err := commands.PlayGames(strings.NewReader(input), &out, perfect, nil, human, 1)
		if err != nil {
			t.Fatalf("PlayGames: %v", err)
		}
		if tally.Wins > 0 {
			t.Fatalf("the human beat perfect: %s\n%s", tally, out.String())
		}
		summary := fmt.Sprintf("Against perfect you won 0, drew %d and lost %d.\n", tally.Draws, tally.Losses)
		if !strings.HasSuffix(out.String(), summary) {
			t.Fatalf("transcript does not end with %q:\n%s", summary, out.String())
		}
		for line := range strings.Lines(input) {
			for _, b := range boards {
				sq, err := commands.ParseMove(b, line)
				if err == nil && (sq < 0 || sq > 8 || !b.IsEmpty(sq)) {
					t.Fatalf("ParseMove(%s, %q) took square %d", b.Compact(), line, sq)
				}
			}
		}
	})
}

// For each side a network can be beaten on, verify prints a shortest
// line that beats it, and the moves to type in ttt play to beat it: they
// do.
func TestVerifyShowsTheLineThatBeatsIt(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	weak := tictactoe.NewTable(&nn.Player{Net: weakNet()})
	p.Write(t, "weak.bin", weakNet().Bytes())
	p.OK(t, "import", "--name", "weak", "weak.bin")
	out, _, code := p.Run(t, "verify", "weak.bin", "--games", "10")
	if code != 1 {
		t.Fatalf("verify weak.bin: exit %d\n%s", code, out)
	}
	line := regexp.MustCompile(`(?m)^([XO]): beaten in (\d+) moves by ([0-8 ]+) \(X first\); in ttt play --as ([XO]), type ([0-8 ]+)$`)
	found := line.FindAllStringSubmatch(out, -1)
	if len(found) != 2 {
		t.Fatalf("verify weak.bin said:\n%s\nwant a beating line for X and O", out)
	}
	for _, m := range found {
		side, human := game.X, game.O
		if m[1] == "O" {
			side, human = game.O, game.X
		}
		// No shorter line beats it: every game of a human as the other
		// side that wins lasts as long at least.
		shortest := 10
		humanLines(weak, human, func(moves []int, r game.Result) {
			if r == game.Win(human) {
				shortest = min(shortest, 2*len(moves)-1+int(human)) // the human's last move wins
			}
		})
		if n, _ := strconv.Atoi(m[2]); n != shortest || len(strings.Fields(m[3])) != n || m[4] != human.String() {
			t.Errorf("%s: %q; the shortest win of a human as %s lasts %d moves", side, m[0], human, shortest)
		}
		script := strings.ReplaceAll(m[5], " ", "\n") + "\nn\n"
		if got, _, code := p.RunInput(t, script, "play", "--checkpoint", "weak", "--as", m[4]); code != 0 || !strings.Contains(got, "You win!") {
			t.Errorf("play --as %s typing %s:\n%s", m[4], m[5], got)
		}
	}
	if out := p.OK(t, "verify", unbeatableFile, "--games", "10"); strings.Contains(out, "beaten in") {
		t.Errorf("verify of an unbeatable net said:\n%s", out)
	}
}
