package main_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"ttt/league/commands/clitest"
)

// A rating that is not a finite number, crafted into the standings or the
// history (no fit writes one): ttt serve answers 500 with a JSON error
// that says so, and logs it, rather than an empty 200; ttt check names
// the agent, and finds what no longer agrees (issue 26: serve answered
// 200 with an empty body and logged nothing, and check called the file
// healthy). Both run in-process.
func TestCraftedRatings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, craft string
		check       []string // lines ttt check must print
		paths       []string // answered 500
	}{
		{"StandingInf", "UPDATE standings SET elo = 9e999 WHERE agent_id = 7",
			[]string{"agent 7 (checkpoint-7): its standing's rating is not a finite number", "agent 7 (checkpoint-7): its standing is not within a history step of its last history row"},
			[]string{"/api/agents/7", "/api/leaderboard"}},
		{"HistoryNaN", "UPDATE history SET lo = 'NaN' WHERE agent_id = 6",
			[]string{"agent 6 (checkpoint-6): a rating in its history is not a finite number"},
			[]string{"/api/agents/6/history"}},
		{"RoundInf", "UPDATE rounds SET hi = -9e999 WHERE id = 2",
			[]string{"round 2: the rating of its snapshot is not a finite number"},
			[]string{"/api/progress"}},
		{"Unrated", "DELETE FROM standings WHERE agent_id = 6",
			[]string{"agent 6 (checkpoint-6): it has a rating history but no standing", "agent 6 (checkpoint-6): it has played but is not rated"},
			nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := clitest.New(t)
			p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
			db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
			if _, err := db.Exec(c.craft); err != nil {
				t.Fatal(err)
			}
			db.Close()

			out, _, code := p.Run(t, "check")
			if code != 1 {
				t.Errorf("check: exit %d, want 1\n%s", code, out)
			}
			for _, line := range c.check {
				if !strings.Contains(out, line+"\n") {
					t.Errorf("check does not say %q:\n%s", line, out)
				}
			}

			serve := p.Start(t, "serve", "--addr", "127.0.0.1:0")
			serve.WaitOutput(t, "(Ctrl-C stops)")
			url := strings.TrimSuffix(regexp.MustCompile(`http://[^/]+/`).FindString(serve.Stdout()), "/")
			for _, path := range c.paths {
				resp, err := http.Get(url + path)
				if err != nil {
					t.Fatal(err)
				}
				var e struct{ Message string }
				err = json.NewDecoder(resp.Body).Decode(&e)
				resp.Body.Close()
				if resp.StatusCode != http.StatusInternalServerError || err != nil || !strings.Contains(e.Message, "not a finite number") {
					t.Errorf("GET %s: %s, message %q (%v); want 500 and a message that says what is wrong", path, resp.Status, e.Message, err)
				}
			}
			_, stderr, _ := serve.Stop(t, syscall.SIGINT)
			for _, path := range c.paths {
				if !strings.Contains(stderr, "GET "+path+": ") || !strings.Contains(stderr, "not a finite number") {
					t.Errorf("serve logged %q, want the error of GET %s", stderr, path)
				}
			}
		})
	}
}

// ttt check --ratings refits every stored result from scratch: on a
// league as it ran, every rating is within league.RefitBound of the
// refit, and it says so with the largest difference and the median; a
// tampered result (round 2's snapshot, agent 7, now lost every game to
// random) moves the refit, and it names the agents it moved and exits 1.
func TestCheckRatings(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "6")...)
	out := p.OK(t, "check", "--ratings")
	if !regexp.MustCompile(`agrees with the \d+ ratings within 0\.1 Elo: `).MatchString(out) || !strings.Contains(out, " median\n") {
		t.Errorf("check --ratings on a league as it ran:\n%s", out)
	}

	db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	if _, err := db.Exec("UPDATE matches SET wins = 0, draws = 0, losses = wins + draws + losses WHERE a = 7 AND b = 1"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, code := p.Run(t, "check", "--ratings")
	if code != 1 || !strings.Contains(out, "agent 7 (checkpoint-7): rated ") || !strings.Contains(out, "ratings more than 0.1 Elo from a refit of the stored results\n") {
		t.Errorf("check --ratings after a tampered result: exit %d, want 1 naming agent 7\n%s", code, out)
	}
}

// A league file from before the standings followed the fit showed each
// agent's last history row, up to half an Elo behind the fit: its next
// round brings every standing to the fit's rating, which check --ratings
// then finds within its bound.
func TestStandingsCatchUpWithTheFit(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "6")...)
	db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	if _, err := db.Exec("UPDATE standings SET elo = elo + 0.3"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if out, _, code := p.Run(t, "check", "--ratings"); code != 1 {
		t.Fatalf("check --ratings on standings 0.3 Elo off: exit %d, want 1\n%s", code, out)
	}
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	if out := p.OK(t, "check", "--ratings"); !regexp.MustCompile(`agrees with the \d+ ratings within 0\.1 Elo`).MatchString(out) {
		t.Errorf("check --ratings a round later:\n%s", out)
	}
}
