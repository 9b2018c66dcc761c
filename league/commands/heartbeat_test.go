package commands_test

import (
	"regexp"
	"slices"
	"strconv"
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
	beats := regexp.MustCompile(`(?m)\bround (\d): training, (\d+) of 3000 games(;|$)`).FindAllStringSubmatch(out, -1)
	if len(beats) < 2 || beats[0][1] != "1" || beats[len(beats)-1][1] != "2" {
		t.Errorf("a run with --heartbeat 1ns said:\n%s", out)
	}
	if out := p.OK(t, "league", "run", "--rounds", "1", "--games-per-round", "3000", "--heartbeat", "0"); strings.Contains(out, "training,") {
		t.Errorf("a run with --heartbeat 0 said:\n%s", out)
	}
	p.Usage(t, "--heartbeat must not be negative", "league", "run", "--rounds", "1", "--heartbeat", "-1s")
}

// TestRoundLineAtCommit: a round's line is printed as the round is
// committed, before the best's extra games against the ladder; those
// have a line of their own when they end, and meanwhile the heartbeat
// says how far the evaluation and then the ladder games have come. With
// --heartbeat 1ns every match of them prints a line, so the order of the
// lines is the order of the events: the round line came before the
// ladder games' first match ended. In both games, and with --quiet.
func TestRoundLineAtCommit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		rounds int
		args   []string
	}{
		{"tictactoe", 2, []string{"--games-per-round", "2000", "--hidden", "16"}},
		{"tictactoe-quiet", 2, []string{"--games-per-round", "2000", "--hidden", "16", "--quiet"}},
		// From the empty board alone and a wide ladder interval: a few
		// extra games, but some (from every opening of one move, the
		// first games against the solver and the MCTS players cost the
		// test most of its CPU).
		{"connect4", 1, []string{"--game", "connect4", "--games-per-round", "2000", "--openings", "0", "--ladder-interval", "80"}},
	} {
		quiet := slices.Contains(c.args, "--quiet")
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := clitest.New(t)
			out := p.OK(t, append([]string{"league", "run", "--rounds", strconv.Itoa(c.rounds), "--heartbeat", "1ns"}, c.args...)...)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			ladderLines := 0
			for round := 1; round <= c.rounds; round++ {
				n := strconv.Itoa(round)
				roundLine := regexp.MustCompile(`^round ` + n + `  checkpoint-\d+  Elo `)
				evaluating := regexp.MustCompile(`^round ` + n + `: evaluating, (\d+) of (\d+) matches`)
				laddering := regexp.MustCompile(`^round ` + n + `: ladder games of the best, checkpoint-\d+, (\d+) of about (\d+)`)
				ladder := regexp.MustCompile(`^round ` + n + `  best checkpoint-\d+: (\d+) ladder games in [\dhms.]+, most v [\w-]+, ladder -?\d+ \[-?\d+, -?\d+\]  float [-+][\d.]+$`)
				at, evaluated, lastLaddering := -1, false, ""
				for i, line := range lines {
					switch m := evaluating.FindStringSubmatch(line); {
					case m != nil:
						done, _ := strconv.Atoi(m[1])
						if total, _ := strconv.Atoi(m[2]); at >= 0 || done < 1 || done > total {
							t.Errorf("line %d, %q: an evaluation's heartbeat after its round's line, or past its end", i+1, line)
						}
						evaluated = true
					case roundLine.MatchString(line):
						at = i
					}
					if m := laddering.FindStringSubmatch(line); m != nil {
						// With --quiet, a round whose snapshot is not the
						// best has no line, but its best may play on.
						if at < 0 && !quiet {
							t.Errorf("line %d, %q: the ladder games of round %d before the round's line", i+1, line, round)
						}
						lastLaddering = m[1]
					}
					if m := ladder.FindStringSubmatch(line); m != nil {
						ladderLines++
						if at < 0 || lastLaddering != m[1] {
							t.Errorf("line %d, %q: the ladder games' line, after the round's line at %d and their heartbeat (last at %s games)", i+1, line, at+1, lastLaddering)
						}
					}
				}
				if !evaluated || (at < 0 && !quiet) {
					t.Errorf("round %d: evaluated %v, its line at %d", round, evaluated, at+1)
				}
			}
			if ladderLines == 0 {
				t.Errorf("no extra games against the ladder:\n%s", out)
			}
			if t.Failed() {
				t.Logf("the run said:\n%s", out)
			}
		})
	}
}
