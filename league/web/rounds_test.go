package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"ttt/league/commands/clitest"
)

// TestRounds: /api/rounds lists the newest rounds, newest first, with
// their games and durations, and the changes of the league's best read
// back from the rating history: every round whose snapshot became the
// best, as ttt league run --quiet printed them, is among them, and the
// newest change names the best the leaderboard names. A searched league's
// best closes a page that leaves it out, and searched=0 leaves the
// searched agents out; a move says how long it took, and what its search
// did.
func TestRounds(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	out := p.OK(t, append([]string{"league", "run", "--db", "league.db", "--rounds", "12", "--quiet", "--search", "ab2"}, leagueFlags...)...)
	_, url := serve(t, filepath.Join(p.Dir, "league.db"))

	var rounds struct {
		NewestRound int64 `json:"newest_round"`
		Rounds      []struct {
			Round      int64
			Seconds    *float64
			TrainGames int `json:"train_games"`
			Snapshot   *struct{ Name string }
			Best       *struct{ Name string }
		}
		BestChanges []struct {
			Round int64
			Agent struct{ Name string }
		} `json:"best_changes"`
		Changes  int
		Settings map[string]string
	}
	getJSON(t, url+"api/rounds?limit=5", &rounds)
	if rounds.NewestRound != 12 || len(rounds.Rounds) != 5 || rounds.Rounds[0].Round != 12 || rounds.Rounds[4].Round != 8 {
		t.Fatalf("/api/rounds?limit=5: newest %d, rounds %+v", rounds.NewestRound, rounds.Rounds)
	}
	for _, r := range rounds.Rounds {
		if r.Seconds == nil || *r.Seconds < 0 || r.TrainGames != 2000 || r.Snapshot == nil {
			t.Errorf("round %d: %+v", r.Round, r)
		}
	}
	if rounds.Settings["games_per_round"] != "2000" {
		t.Errorf("the settings %v; want games_per_round 2000 among them", rounds.Settings)
	}
	changed := map[string]bool{}
	for _, c := range rounds.BestChanges {
		changed[strconv.FormatInt(c.Round, 10)+" "+c.Agent.Name] = true
	}
	became := regexp.MustCompile(`(?m)^round (\d+)  (checkpoint-\d+) `).FindAllStringSubmatch(out, -1)
	if len(became) == 0 || rounds.Changes < len(became) || len(rounds.BestChanges) != rounds.Changes {
		t.Fatalf("%d changes of the best, %d listed; the run printed %d new bests:\n%s", rounds.Changes, len(rounds.BestChanges), len(became), out)
	}
	for _, b := range became {
		if !changed[b[1]+" "+b[2]] {
			t.Errorf("round %s made %s the best; the changes are %+v", b[1], b[2], rounds.BestChanges)
		}
	}
	if !slices.IsSortedFunc(rounds.BestChanges, func(a, b struct {
		Round int64
		Agent struct{ Name string }
	}) int {
		return int(b.Round - a.Round)
	}) {
		t.Errorf("the changes are not newest first: %+v", rounds.BestChanges)
	}
	var board bestAfterPage
	getJSON(t, url+"api/leaderboard?limit=1", &board)
	if rounds.BestChanges[0].Agent.Name != board.Best.Name {
		t.Errorf("the newest change names %s, the leaderboard's best is %s", rounds.BestChanges[0].Agent.Name, board.Best.Name)
	}
	if board.BestRow == nil || board.BestRow.Name != board.Best.Name || board.BestRow.Rank < 2 {
		t.Errorf("the top 1 %+v, and after it %+v; want the best, %s, at its rank", board.Agents, board.BestRow, board.Best.Name)
	}
	getJSON(t, url+"api/leaderboard?limit=1000&searched=0", &board)
	for _, a := range board.Agents {
		if a.Kind == "searched" {
			t.Errorf("searched=0 lists %s", a.Name)
		}
	}
	for _, bad := range []string{"api/rounds?limit=0", "api/leaderboard?searched=2"} {
		if status, body, _ := get(t, url+bad); status != http.StatusBadRequest {
			t.Errorf("GET /%s: %d %s; want 400", bad, status, body)
		}
	}

	var move struct {
		Seconds float64
		Search  *struct {
			Kind         string
			Plies, Nodes int
		}
	}
	getJSON(t, url+"api/agents/best@ab2/move?moves=4", &move)
	if move.Seconds <= 0 || move.Search == nil || move.Search.Kind != "alpha-beta" || move.Search.Plies != 2 || move.Search.Nodes == 0 {
		t.Errorf("best@ab2's move: %+v %+v", move, move.Search)
	}
	move.Search = nil
	getJSON(t, url+"api/agents/best/move?moves=4", &move)
	if move.Search != nil {
		t.Errorf("the best alone says its move was searched: %+v", move.Search)
	}
}

// /api/rounds answers the league's last run with the settings: when it
// started, the planned end of a run of --duration (its start and the
// duration), its --rounds and workers, and when it ended; and null in a
// league that no run of this ttt has played.
func TestRoundsRun(t *testing.T) {
	t.Parallel()
	before := time.Now()
	p, path := newLeague(t, 2, append([]string{"--duration", "8h", "--workers", "2"}, leagueFlags...)...)
	after := time.Now()
	type answer struct {
		Run *struct {
			Started, Ended *time.Time
			Deadline       *time.Time
			Rounds         *int
			Workers        int
		}
	}
	var got answer
	_, url := serve(t, path)
	getJSON(t, url+"api/rounds", &got)
	r := got.Run
	switch {
	case r == nil:
		t.Fatal("/api/rounds: no run")
	case r.Started == nil || r.Started.Before(before) || r.Ended == nil || r.Ended.Before(*r.Started) || r.Ended.After(after):
		t.Errorf("the run from %v to %v, not within the command's %v to %v", r.Started, r.Ended, before, after)
	case r.Deadline == nil || !r.Deadline.Equal(r.Started.Add(8*time.Hour)) || r.Rounds == nil || *r.Rounds != 2 || r.Workers != 2:
		t.Errorf("the run of --rounds 2 --duration 8h --workers 2: deadline %v, rounds %v, workers %d", r.Deadline, r.Rounds, r.Workers)
	}

	// A league of the schema before runs were kept.
	old, err := os.ReadFile(filepath.Join("..", "commands", "testdata", "schemas", "schema15.db"))
	if err != nil {
		t.Fatal(err)
	}
	p.Write(t, "old.db", old)
	p.OK(t, "upgrade", "--db", "old.db")
	_, url = serve(t, filepath.Join(p.Dir, "old.db"))
	got = answer{}
	getJSON(t, url+"api/rounds", &got)
	if got.Run != nil {
		t.Errorf("/api/rounds of a league no run of this ttt played: run %+v, want null", got.Run)
	}
}
