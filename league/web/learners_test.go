package web_test

import (
	"net/http/httptest"
	"testing"

	"ttt/store"
)

// A league of two learners, taking turns: the odd rounds the policy
// net's, the even the table's. The leaderboard and an agent's facts say
// each agent's method (null for a built-in player), and the learning
// curve's points say theirs: the points of a method are its own curve, as
// whole or as the rounds since a round.
func TestLearners(t *testing.T) {
	t.Parallel()
	_, path := newLeague(t, 5, "--learners", "policy,table", "--games-per-round", "2000", "--hidden", "16", "--opponents", "8", "--openings", "1")
	h := newServer(t, path)
	srv := httptest.NewServer(h)
	defer srv.Close()
	url := srv.URL + "/"
	turn := func(round int64) string { return map[bool]string{true: "policy", false: "table"}[round%2 == 1] }

	var board struct {
		Agents []struct {
			Name       string
			Kind       store.Kind
			Generation int64
			Method     *string
		}
	}
	getJSON(t, url+"api/leaderboard?limit=100", &board)
	methods := map[string]int{}
	for _, a := range board.Agents {
		switch {
		case a.Kind.Learned() && (a.Method == nil || *a.Method != turn(a.Generation)):
			t.Errorf("%s, of round %d: method %v, want %s", a.Name, a.Generation, a.Method, turn(a.Generation))
		case !a.Kind.Learned() && a.Method != nil:
			t.Errorf("%s, a built-in player: method %q, want null", a.Name, *a.Method)
		case a.Method != nil:
			methods[*a.Method]++
		}
	}
	if methods["policy"] != 3 || methods["table"] != 2 {
		t.Errorf("the leaderboard's methods: %v; want 3 policy nets and 2 tables", methods)
	}
	for ref, want := range map[string]any{"checkpoint-6": "policy", "checkpoint-7": "table", "perfect": nil} {
		var a map[string]any
		getJSON(t, url+"api/agents/"+ref, &a)
		if a["method"] != want {
			t.Errorf("%s: method %v, want %v", ref, a["method"], want)
		}
	}

	type point struct {
		Round, Agent int64
		Method       string
	}
	var progress struct{ Points []point }
	getJSON(t, url+"api/progress", &progress)
	if len(progress.Points) != 5 {
		t.Fatalf("%d points, want one for each of the 5 rounds", len(progress.Points))
	}
	for _, p := range progress.Points {
		if p.Method != turn(p.Round) || p.Agent != p.Round+5 {
			t.Errorf("round %d's point: %+v, want checkpoint-%d, of %s", p.Round, p, p.Round+5, turn(p.Round))
		}
	}
	var since struct{ Points []point }
	getJSON(t, url+"api/progress?after=3", &since)
	if len(since.Points) != 2 || since.Points[0] != progress.Points[3] || since.Points[1] != progress.Points[4] {
		t.Errorf("the points after round 3: %+v; want those of rounds 4 and 5, %+v", since.Points, progress.Points[3:])
	}
}
