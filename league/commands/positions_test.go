package commands_test

import (
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// ttt verify --positions reads only values it can trust: a label of the
// wrong length is named as such (not "'-' is not a square"), one that the
// solver contradicts is refused, never scored, and a phase of the game
// with no position in the file is "none", not a share of 0%. A line too
// long to be a position is refused with its number.
func TestVerifyPositionLabels(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, "train", "--games", "10", "--hidden", "4", "-o", "n.bin")
	// After X on 4, O draws in a corner and loses on an edge.
	p.Write(t, "good.txt", []byte("4 DLDL-LDLD\n"))
	if out := p.OK(t, "verify", "n.bin", "--positions", "good.txt"); !strings.Contains(out, "(1/1 positions; early ") || !strings.Contains(out, ", middle none, late none)") {
		t.Errorf("verify --positions good.txt:\n%s", out)
	}
	for file, want := range map[string]string{
		"4 WWW\n":                    `good.txt: line 1: the values "WWW" are 3 characters; a position of tic-tac-toe takes 9, one a square (W, D, L, or - where it cannot be played)`,
		"4 DLDL-LDLD\n4 WWWW-WWWW\n": "good.txt: line 2: the values say square 0 is a win, and the solver finds it a draw (ttt analyze shows every move's)",
		// A line of 10 MB, longer than a scanner's token: its number.
		"4 DLDL-LDLD\n# a comment\n" + strings.Repeat("4", 10<<20) + "\n": "good.txt: line 3: 10485760 characters before any comment, where a position takes at most 4096",
	} {
		p.Write(t, "good.txt", []byte(file))
		p.Refused(t, want, "verify", "n.bin", "--positions", "good.txt")
	}
}
