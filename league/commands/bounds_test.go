package commands_test

import (
	"testing"

	"ttt/league/commands/clitest"
)

// Every numeric flag has an upper bound, refused with one line before
// anything is stored (issue 26: --games-per-round 9223372036854775807 was
// stored as the league's setting before a first round that never ended,
// and every plain resume began it again).
func TestFlagBounds(t *testing.T) {
	t.Parallel()
	p := smallLeague(t)
	fresh := clitest.New(t)
	for _, c := range []struct {
		want string
		args []string
	}{
		{"--games-per-round must be at most 1000000000 (got 9223372036854775807)", clitest.LeagueRun(nil, "--games-per-round", "9223372036854775807")},
		{"--games-per-round must be at most 1000000000 (got 1000000001)", clitest.LeagueRun(nil, "--games-per-round", "1000000001")},
		{"--rounds must be at most 1000000000", clitest.LeagueRun(nil, "--rounds", "9223372036854775807")},
		{"--opponents must be at most 1000000", clitest.LeagueRun(nil, "--opponents", "1000001")},
		{"--openings must be within 0..2 moves", clitest.LeagueRun(nil, "--openings", "9223372036854775807")},
		{"--duration must be at most 87600h0m0s", clitest.LeagueRun(nil, "--duration", "2562047h")},
		{"--epsilon-games must be at most 1000000000000", clitest.LeagueRun(nil, "--epsilon-games", "9223372036854775807")},
		{"--workers must be at most 4096", clitest.LeagueRun(nil, "--workers", "4097")},
		{"--games must be at most 10000000000", []string{"train", "--games", "9223372036854775807", "--db", "league.db"}},
		{"--games must be at most 10000000000", []string{"verify", "--games", "10000000001", "3"}},
		{"--openings must be within 0..2 moves", []string{"roundrobin", "--openings", "9", "random", "perfect"}},
		{"--limit must be at most 1000000", []string{"checkpoints", "--limit", "9223372036854775807"}},
		{"--limit must be at most 1000000", []string{"ratings", "--limit", "1000001"}},
		{"--limit must be at most 1000000", []string{"rounds", "--limit", "1000001"}},
		{"--top must be at most 1000", []string{"ratings", "plot", "--top", "1001", "-o", "p.svg"}},
		{"--sample must be at most 1000000000", []string{"check", "--sample", "9223372036854775807"}},
	} {
		for _, q := range []clitest.TTT{p, fresh} {
			before := clitest.Snapshot(t, q.Dir)
			q.Usage(t, c.want, c.args...)
			if after := clitest.Snapshot(t, q.Dir); after != before {
				t.Errorf("ttt %v changed the directory:\nbefore %s\nafter  %s", c.args, before, after)
			}
		}
	}
}
