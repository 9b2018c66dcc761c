package commands_test

import (
	"strconv"
	"strings"
	"testing"

	"ttt/agents/game/tictactoe"
	"ttt/league/commands/clitest"
)

// ttt analyze prints every legal move's exact outcome, as the solved
// game has it, in the csv columns the README documents (its refusals:
// the script analyze.txtar).
func TestAnalyzeTicTacToe(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	for _, moves := range []string{"", "4", "408", "0,1,3"} {
		out := p.OK(t, "analyze", "--format", "csv", moves)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if lines[0] != "move,value,plies" {
			t.Fatalf("analyze %q: header %q", moves, lines[0])
		}
		var b tictactoe.Board
		for _, r := range strings.NewReplacer(",", "").Replace(moves) {
			b = b.Play(int(r - '0'))
		}
		var want []string
		for sq := range 9 {
			if b.IsEmpty(sq) {
				o := tictactoe.Solve().Outcome(b, sq)
				plies := ""
				if o.Plies > 0 {
					plies = strconv.Itoa(o.Plies)
				}
				want = append(want, strconv.Itoa(sq)+","+o.Value.String()+","+plies)
			}
		}
		if got := strings.Join(lines[1:], "\n"); got != strings.Join(want, "\n") {
			t.Errorf("analyze %q:\n%s\nwant\n%s", moves, got, strings.Join(want, "\n"))
		}
	}
}
