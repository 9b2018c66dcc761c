package commands_test

import (
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// ttt prune drops the weights of the checkpoints it does not keep and
// nothing else: the ratings, the history, every game and the file's
// health are as they were, the league goes on, and only the commands
// that need a pruned network refuse it, saying why.
func TestPrune(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "12", "--quiet")...)
	reads := [][]string{
		{"ratings", "--all", "--format", "csv"},
		{"ratings", "history", "--format", "csv"},
		{"rounds", "--all", "--format", "csv"},
		{"games", "export", "--pgn", "-"},
	}
	var before []string
	for _, args := range reads {
		before = append(before, p.OK(t, args...))
	}
	best := csvRows(t, p.OK(t, "show", "best", "--format", "csv"))[0]["name"]

	out := p.OK(t, "prune", "--best", "2", "--every", "5")
	// 12 checkpoints; kept: the 2 best, the newest (round 12) and those
	// of rounds 5 and 10, four or five of them as the best are among
	// those or not.
	if !strings.HasPrefix(out, "dropped the weights of 7 checkpoints") && !strings.HasPrefix(out, "dropped the weights of 8 checkpoints") {
		t.Errorf("prune said %q", out)
	}
	for i, args := range reads {
		if got := p.OK(t, args...); got != before[i] {
			t.Errorf("ttt %s changed by pruning:\nbefore %s\nafter  %s", strings.Join(args, " "), before[i], got)
		}
	}
	p.OK(t, "check", "--sample", "1")
	p.OK(t, "export", "--checkpoint", best, "-o", "best.bin")
	p.OK(t, "export", "--checkpoint", "latest", "-o", "latest.bin")
	p.OK(t, "export", "--checkpoint", "checkpoint-15", "-o", "round10.bin") // the snapshot of round 10
	if out := p.OK(t, "show", "checkpoint-6"); !strings.Contains(out, "its weights dropped by ttt prune") || !strings.Contains(out, "Elo:") {
		t.Errorf("show of a pruned checkpoint:\n%s", out)
	}
	for _, args := range [][]string{
		{"export", "--checkpoint", "checkpoint-6", "-o", "x.bin"},
		{"verify", "checkpoint-6"},
		{"play", "--checkpoint", "checkpoint-6"},
	} {
		p.Refused(t, "agent 6 (checkpoint-6): its weights were dropped by ttt prune; its record, ratings and games remain", args...)
	}
	if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...); !strings.Contains(out, "\nround 14 ") {
		t.Errorf("the league after pruning said:\n%s", out)
	}
	if out := p.OK(t, "prune", "--best", "2", "--every", "5"); !strings.HasPrefix(out, "dropped the weights of 1 checkpoint ") && !strings.HasPrefix(out, "dropped the weights of 2 checkpoints") {
		t.Errorf("a second prune said %q", out)
	}

	// Connect Four's checkpoints are played by their weights: kept.
	c4 := clitest.New(t)
	c4.OK(t, "league", "run", "--game", "connect4", "--rounds", "2", "--games-per-round", "200", "--hidden", "8", "--opponents", "4")
	if out := c4.OK(t, "prune", "--best", "1", "--every", "0"); !strings.HasPrefix(out, "dropped the weights of 0 checkpoints") {
		t.Errorf("prune of a Connect Four league said %q", out)
	}
	c4.Refused(t, "no league database at none.db", "prune", "--db", "none.db")
	c4.Usage(t, "prune: --best must be at least 1", "prune", "--best", "0")
}
