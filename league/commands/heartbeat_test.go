package commands_test

import (
	"regexp"
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// TestHeartbeat: a league run whose output is no terminal (a log file)
// says now and then how far a round's training has come, at most as
// often as --heartbeat, and not at all with --heartbeat 0.
func TestHeartbeat(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	out := p.OK(t, "league", "run", "--rounds", "2", "--games-per-round", "3000", "--heartbeat", "1ns")
	beats := regexp.MustCompile(`(?m)^round (\d): training, (\d+) of 3000 games$`).FindAllStringSubmatch(out, -1)
	if len(beats) < 2 || beats[0][1] != "1" || beats[len(beats)-1][1] != "2" {
		t.Errorf("a run with --heartbeat 1ns said:\n%s", out)
	}
	if out := p.OK(t, "league", "run", "--rounds", "1", "--games-per-round", "3000", "--heartbeat", "0"); strings.Contains(out, "training,") {
		t.Errorf("a run with --heartbeat 0 said:\n%s", out)
	}
	p.Usage(t, "--heartbeat must not be negative", "league", "run", "--rounds", "1", "--heartbeat", "-1s")
}
