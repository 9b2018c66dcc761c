package commands_test

import (
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// check --ratings on a league that commits rounds meanwhile finds it
// sound every time: it reads the results and the standings of one state
// of the league (issue 35: it read them in two transactions, and called a
// healthy league damaged in 5 runs of 38). So do check, ratings and
// checkpoints, each in one state. The league runs until the checks have
// run a fixed number of times, however fast the machine is.
func TestReadersWhileTheLeagueCommits(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	run := p.Start(t, clitest.LeagueRun(clitest.Quick, "--rounds", "100000")...)
	run.WaitOutput(t, "\nround 3 ")
	for i := range 40 {
		out, errOut, code := p.Run(t, "check", "--ratings")
		if code != 0 || !strings.Contains(out, "agrees with the") {
			t.Fatalf("check --ratings %d while the league commits: exit %d\n%s%s", i, code, out, errOut)
		}
		if i%10 == 0 {
			if out, errOut, code := p.Run(t, "check"); code != 0 {
				t.Fatalf("check while the league commits: exit %d\n%s%s", code, out, errOut)
			}
		}
	}
	if stdout, stderr, code := run.Stop(t, 2); code != 0 || !strings.Contains(stdout, "stopped: ") {
		t.Fatalf("the league: exit %d\n%s%s", code, stdout, stderr)
	}
	if n := clitest.LastReported(run.Stdout()); n < 4 {
		t.Errorf("the league committed up to round %d while the checks ran: they did not overlap", n)
	}
}
