package main_test

import (
	"encoding/json"
	"math"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"ttt/agents"
	"ttt/league/commands/clitest"
)

// A rating that is not a finite number, crafted into the standings or the
// history (no fit writes one). ttt serve answers 500 with a JSON error
// that says so, and logs it, rather than an empty 200. ttt check names
// the agent, and finds what no longer agrees, rather than calling the
// file healthy. Both run in-process.
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
// refit, and it says so with the largest difference and the median. A
// result changed after it was rated (round 2's snapshot, agent 7, now
// lost every game to random) leaves ratings behind a refit: check
// --ratings names them with how far they lag, says what settles them and
// exits 0, a lag being no damage. ttt ratings refit settles it, and ttt
// check, which replays
// the matches, finds the changed one. A rated agent in no stored match
// is damage: exit 1.
func TestCheckRatings(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "6")...)
	agrees := regexp.MustCompile(`agrees with the \d+ ratings within 0\.1 Elo: `)
	out := p.OK(t, "check", "--ratings")
	if !agrees.MatchString(out) || !strings.Contains(out, " median\n") {
		t.Errorf("check --ratings on a league as it ran:\n%s", out)
	}

	db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	if _, err := db.Exec("UPDATE matches SET wins = 0, draws = 0, losses = wins + draws + losses WHERE a = 7 AND b = 1"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out = p.OK(t, "check", "--ratings")
	lag := regexp.MustCompile(`ratings lag a refit of \d+ stored matches by more than 0\.1 Elo, [0-9.]+ at most \(agent 7, checkpoint-7\), [0-9.]+ median: .* ttt ratings refit sets every rating to the refit\n`)
	if !strings.Contains(out, "agent 7 (checkpoint-7): rated ") || !lag.MatchString(out) {
		t.Errorf("check --ratings after a changed result, want agent 7 named as lagging and what settles it:\n%s", out)
	}
	if out := p.OK(t, "ratings", "refit"); !strings.Contains(out, "league.db: every rating set to a refit of ") {
		t.Errorf("ratings refit:\n%s", out)
	}
	if out := p.OK(t, "check", "--ratings"); !agrees.MatchString(out) {
		t.Errorf("check --ratings after ratings refit:\n%s", out)
	}
	if out, _, code := p.Run(t, "check", "--sample", "1"); code != 1 || !strings.Contains(out, "7") {
		t.Errorf("check --sample 1 after a changed result: exit %d, want 1 naming the match\n%s", code, out)
	}

	db = clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	if _, err := db.Exec("DELETE FROM sides WHERE a = 7 OR b = 7; DELETE FROM matches WHERE a = 7 OR b = 7"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, code := p.Run(t, "check", "--ratings")
	if code != 1 || !strings.Contains(out, "agent 7 (checkpoint-7): rated ") || !strings.Contains(out, "rated agents are in no stored match\n") {
		t.Errorf("check --ratings with agent 7's matches gone: exit %d, want 1 naming agent 7\n%s", code, out)
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
	if out := p.OK(t, "check", "--ratings"); !strings.Contains(out, "ratings lag a refit") {
		t.Fatalf("check --ratings on standings 0.3 Elo off, want them said to lag:\n%s", out)
	}
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	if out := p.OK(t, "check", "--ratings"); !regexp.MustCompile(`agrees with the \d+ ratings within 0\.1 Elo`).MatchString(out) {
		t.Errorf("check --ratings a round later:\n%s", out)
	}
}

// One scale per game: a checkpoint exported from one league
// and imported into another of its game, where it plays its pool (the
// ladder's rungs around it among them) in a round, rates there within
// oneScaleTolerance of its rating at home; and every built-in player is
// rated its value on the scale in both leagues, to the bit. When random
// alone was anchored, the ladder's ratings floated with each league's
// seed, and so did every other.
func TestOneScale(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	league := func(db, seed string) {
		p.OK(t, "league", "run", "--db", db, "--seed", seed, "--games-per-round", "2000", "--rounds", "20", "--quiet")
	}
	rated := func(db, agent string) (float64, bool) {
		var a struct{ Elo *float64 }
		if err := json.Unmarshal([]byte(p.OK(t, "show", "--db", db, agent, "--format", "json")), &a); err != nil {
			t.Fatal(err)
		}
		if a.Elo == nil {
			return 0, false
		}
		return *a.Elo, true
	}
	rating := func(db, agent string) float64 {
		elo, ok := rated(db, agent)
		if !ok {
			t.Fatalf("%s: %s is not rated", db, agent)
		}
		return elo
	}
	league("home.db", "100")
	p.OK(t, "export", "--db", "home.db", "--checkpoint", "best", "-o", "best.bin")
	home := rating("home.db", "best")
	league("away.db", "1")
	p.OK(t, "import", "--db", "away.db", "best.bin", "--name", "visitor")
	p.OK(t, "league", "run", "--db", "away.db", "--rounds", "1", "--quiet")
	if away := rating("away.db", "visitor"); math.Abs(away-home) > oneScaleTolerance {
		t.Errorf("the best of home.db rates %.1f there and %.1f in away.db, want them within %g Elo", home, away, oneScaleTolerance)
	}
	// The built-in players that played, random and perfect in every
	// round among them.
	for _, b := range agents.TicTacToe.Builtins {
		for _, db := range []string{"home.db", "away.db"} {
			if got, ok := rated(db, b.Name); (ok || b.Fixed) && got != b.Elo {
				t.Errorf("%s: %s rated %v (%v), want its value on the scale, %v", db, b.Name, got, ok, b.Elo)
			}
		}
	}
}

// oneScaleTolerance is how far apart a checkpoint's ratings in two
// tic-tac-toe leagues may be: two and a half times the spread measured
// (BENCHMARKS.md, "One scale per game"): the best of a league of 20
// rounds of 2,000 games (seed 100) imported into ten others (seeds 1 to
// 10) and rated by one round there differed from its rating at home by
// 14.2 Elo (standard deviation), 24.7 at most, -2.0 on average; with
// random alone anchored, by 13.8, 33.6 at most, -11.2 on average. The
// spread is the checkpoint's own: each league's checkpoints, which it
// meets, are beaten by its moves in their own ways.
const oneScaleTolerance = 35.0
