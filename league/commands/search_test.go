package commands_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"ttt/agents/testkit"
	"ttt/league/commands/clitest"
)

// TestSearchedAgents: a model with a search after its name is an agent
// of its own wherever a command names one, and a league run with
// --search rates the best with it, the same with one worker or two.
//
// It belongs to the long tier: two Connect Four leagues of 3 rounds of
// 20,000 games, whose searched agents play their pools.
// TestSearchedAgentsInTwoRounds is its quick sibling.
func TestSearchedAgents(t *testing.T) {
	testkit.Long(t, "two Connect Four leagues of 3 rounds of 20,000 games; TestSearchedAgentsInTwoRounds plays one of 2 of 2,000")
	searchedAgents(t, "3", "20000", "1", "1", "2")
}

// TestSearchedAgentsInTwoRounds is TestSearchedAgents with one league, on
// two workers, of 2 rounds of 2,000 games, each snapshot and searched
// agent evaluated from the empty board alone (--openings 0; from every
// opening of one move, the games of the searches and of the built-in
// players were most of the test's CPU): the best of round 1 joins
// searched in round 2. That one worker rates as two do is
// TestSearchedAgents' alone.
func TestSearchedAgentsInTwoRounds(t *testing.T) {
	t.Parallel()
	searchedAgents(t, "2", "2000", "0", "2")
}

// searchedAgents is TestSearchedAgents with leagues of rounds rounds of
// games games evaluated over --openings openings, one on each number of
// workers, which must rate alike.
func searchedAgents(t *testing.T, rounds, games, openings string, workerCounts ...string) {
	ratings := make([]string, len(workerCounts))
	for i, workers := range workerCounts {
		p := clitest.New(t)
		out := p.OK(t, "league", "run", "--game", "connect4", "--rounds", rounds, "--games-per-round", games, "--openings", openings, "--ladder-interval", "200",
			"--search", "ab2,mcts50", "--workers", workers)
		// Round 1 has no best yet; each round after adds the best
		// searched twice, or once more where the best did not change.
		joined := regexp.MustCompile(`(?m)^round \d+  (checkpoint-\d+@(ab2|mcts50)) joins: the best, searched`).FindAllStringSubmatch(out, -1)
		if len(joined) < 2 {
			t.Fatalf("%d searched agents joined:\n%s", len(joined), out)
		}
		var list []struct {
			Name string  `json:"agent"`
			Kind string  `json:"kind"`
			Elo  float64 `json:"elo"`
		}
		p.OKJSON(t, &list, "ratings", "--format", "json", "--all")
		kinds := map[string]string{}
		for _, a := range list {
			kinds[a.Name] = a.Kind
		}
		for _, j := range joined {
			if kinds[j[1]] != "searched" {
				t.Errorf("%s joined but is not rated as a searched agent: %v", j[1], kinds)
			}
		}
		ratings[i] = p.OK(t, "ratings", "--format", "csv", "--all")
		if i > 0 {
			continue // the commands read the league the same way
		}

		// Named by the commands: play, show, verify, compare, and
		// roundrobin, which stores a searched agent it has not got.
		play, _, code := p.RunInput(t, "4\nq\n", "play", "--checkpoint", "best@ab3")
		if code != 0 || !strings.Contains(play, "by alpha-beta, 3 plies in") {
			t.Errorf("play best@ab3: exit %d\n%s", code, play)
		}
		var shown struct{ Created *string }
		if p.OKJSON(t, &shown, "show", "best@mcts20", "--format", "json"); shown.Created != nil {
			t.Errorf("show best@mcts20, which the league has not stored, says it was created at %s", *shown.Created)
		}
		if show := p.OK(t, "show", "best@mcts20"); !strings.Contains(show, "searched by MCTS, 20 simulations a move") {
			t.Errorf("show best@mcts20:\n%s", show)
		}
		if v := p.OK(t, "verify", "best@ab2", "--against", "tactician"); !strings.Contains(v, "time a move, searched by alpha-beta, 2 plies deep: median") {
			t.Errorf("verify best@ab2:\n%s", v)
		}
		p.Write(t, "mine.txt", []byte("444444333333222222\n"))
		if v := p.OK(t, "verify", "best@mcts30", "--positions", "mine.txt"); !strings.Contains(v, "mine.txt: optimal moves") || !strings.Contains(v, "time a move, searched by MCTS") {
			t.Errorf("verify best@mcts30 --positions:\n%s", v)
		}
		p.OK(t, "compare", "best@ab2", "best")
		// The deepest searches, each move bounded by --move-time.
		p.OK(t, "compare", "best@ab42", "best", "--move-time", "1ms")
		if v := p.OK(t, "verify", "best@ab42", "--positions", "mine.txt", "--move-time", "1ms"); !strings.Contains(v, "mine.txt: optimal moves") {
			t.Errorf("verify best@ab42 --positions --move-time 1ms:\n%s", v)
		}
		p.OK(t, "show", "best@mcts1000000", "--move-time", "1ms")
		p.Usage(t, "--move-time must not be negative (got -1s)", "compare", "best", "latest", "--move-time", "-1s")
		rr := p.OK(t, "roundrobin", "best", "best@ab1", "best@mcts5", "tactician")
		if !strings.Contains(rr, "@ab1") || !strings.Contains(rr, "@mcts5") {
			t.Errorf("roundrobin:\n%s", rr)
		}
		var again []json.RawMessage
		p.OKJSON(t, &again, "ratings", "--format", "json", "--all")
		if len(again) != len(list)+2 {
			t.Errorf("roundrobin stored %d agents, want the two searched ones", len(again)-len(list))
		}

		p.Usage(t, "a search goes around a learned model, and tactician is a built-in player", "play", "--checkpoint", "tactician@ab2")
		p.Usage(t, `unknown search "ab0"`, "show", "best@ab0")
		p.Usage(t, "the search is no part of its file", "export", "--checkpoint", "best@mcts50")
		p.Refused(t, "no such agent", "show", "nobody@ab2")
	}
	for i := 1; i < len(ratings); i++ {
		if ratings[i] != ratings[0] {
			t.Errorf("%s workers and %s rate differently:\n%s\n%s", workerCounts[0], workerCounts[i], ratings[0], ratings[i])
		}
	}
}
