package web_test

import (
	"net/http"
	"strings"
	"testing"
)

// The pages and the API name a model with a search after it, stored or
// not: a searched agent that ttt league run --search stored, and one made
// for the request, which has played nobody.
func TestSearchedAgents(t *testing.T) {
	_, path := newLeague(t, 3, append(c4Flags, "--search", "ab2")...)
	_, url := serve(t, path)

	var progress struct {
		Searched []struct {
			Name, Search string
			ID           int64
		}
	}
	getJSON(t, url+"/api/progress", &progress)
	if len(progress.Searched) == 0 || progress.Searched[0].Search != "ab2" || progress.Searched[0].ID == 0 {
		t.Fatalf("the stored searched agents on the chart: %+v", progress.Searched)
	}
	stored := progress.Searched[0].Name

	for _, ref := range []string{stored, "best@ab3", "best@mcts20"} {
		var move struct {
			Agent    struct{ Name, Kind string }
			Move     string
			Expected []float32
		}
		getJSON(t, url+"/api/agents/"+ref+"/move?moves=4,4", &move)
		if move.Agent.Kind != "searched" || !strings.HasSuffix(move.Agent.Name, ref[strings.IndexByte(ref, '@'):]) || move.Move == "" || len(move.Expected) != 7 {
			t.Errorf("%s's move: %+v", ref, move)
		}
		var agent struct {
			Model     string
			Created   *string
			Opponents struct{ Rows []any }
		}
		getJSON(t, url+"/api/agents/"+ref, &agent)
		if !strings.Contains(agent.Model, "searched by") {
			t.Errorf("%s: model %q", ref, agent.Model)
		}
		// Only a stored agent was made at some time.
		if (agent.Created != nil) != (ref == stored) {
			t.Errorf("%s: created %v", ref, deref(agent.Created))
		}
		var history struct{ Rows []any }
		getJSON(t, url+"/api/agents/"+ref+"/history", &history)
		var cmp struct{ Compared int }
		getJSON(t, url+"/api/compare/"+ref+"/best", &cmp)
		if cmp.Compared == 0 {
			t.Errorf("%s against best compared no positions", ref)
		}
		for _, page := range []string{"/play/", "/agents/", "/compare/best/"} {
			if status, _, _ := get(t, url+page+ref); status != http.StatusOK {
				t.Errorf("GET %s%s: %d", page, ref, status)
			}
		}
	}
	for ref, want := range map[string]int{"best@ab0": http.StatusBadRequest, "random@ab2": http.StatusBadRequest, "nobody@ab2": http.StatusNotFound} {
		if status, body, _ := get(t, url+"/api/agents/"+ref+"/move?moves=4"); status != want {
			t.Errorf("%s: %d, want %d: %s", ref, status, want, body)
		}
	}
	if status, _, _ := get(t, url+"/play/best@zz"); status != http.StatusNotFound {
		t.Errorf("/play/best@zz: %d, want the page that says there is no such agent", status)
	}
}
