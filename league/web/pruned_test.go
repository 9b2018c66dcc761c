package web_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A pruned checkpoint is all that remains of it: its facts, record,
// history, opponents, games and a comparison answer 200 and say that its
// weights were dropped; only what needs the weights (the weight file, a
// move) answers 410. The leaderboard says which of its rows are pruned.
func TestPrunedAgent(t *testing.T) {
	p, path := newLeague(t, 4)
	p.OK(t, "prune", "--db", "league.db", "--best", "1", "--every", "0")
	srv := httptest.NewServer(newServer(t, path))
	defer srv.Close()

	var board struct {
		Agents []struct {
			ID     int64
			Kind   string
			Best   bool
			Pruned bool
		}
	}
	getJSON(t, srv.URL+"/api/leaderboard", &board)
	var pruned int64
	for _, a := range board.Agents {
		if a.Pruned && (a.Kind != "checkpoint" || a.Best) {
			t.Errorf("the leaderboard calls %+v pruned", a)
		}
		if a.Pruned && pruned == 0 {
			pruned = a.ID
		}
	}
	if pruned == 0 {
		t.Fatalf("no row of the leaderboard is pruned: %+v", board.Agents)
	}
	var facts struct {
		Pruned   bool
		Hidden   *int
		Standing *struct{ Elo float64 }
		Verify   *struct{ X struct{ Lines int } }
	}
	getJSON(t, fmt.Sprintf("%s/api/agents/%d", srv.URL, pruned), &facts)
	if !facts.Pruned || facts.Hidden == nil || *facts.Hidden != 16 || facts.Standing == nil || facts.Verify == nil || facts.Verify.X.Lines == 0 {
		t.Errorf("the pruned checkpoint's facts: %+v", facts)
	}
	var cmp struct {
		A        struct{ Pruned bool }
		Diff     *struct{ Elo float64 }
		Compared *int
	}
	getJSON(t, fmt.Sprintf("%s/api/compare/%d/best", srv.URL, pruned), &cmp)
	if !cmp.A.Pruned || cmp.Diff == nil || cmp.Compared == nil || *cmp.Compared != 0 {
		t.Errorf("comparing the pruned checkpoint with the best: %+v", cmp)
	}
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/history", 200}, {"/opponents", 200}, {"/opponents.csv", 200}, {"/games.pgn", 200},
		{"/weights", 410}, {"/move?moves=4", 410},
	} {
		if status, body, _ := get(t, fmt.Sprintf("%s/api/agents/%d%s", srv.URL, pruned, c.path)); status != c.status {
			t.Errorf("%s of a pruned checkpoint: %d %s; want %d", c.path, status, body, c.status)
		}
	}
}

// An answer that has not changed since the copy the browser holds is 304
// with no body; a large one goes gzipped to a client that takes it; a
// history asked with after=ROUND has the rows since.
func TestAnswersCostWhatChanged(t *testing.T) {
	_, path := newLeague(t, 4)
	srv := httptest.NewServer(newServer(t, path))
	defer srv.Close()

	res, err := http.Get(srv.URL + "/api/agents/perfect")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	etag := res.Header.Get("ETag")
	if etag == "" || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("an answer's headers: %v", res.Header)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/agents/perfect", nil)
	req.Header.Set("If-None-Match", etag)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusNotModified {
		t.Errorf("asked again with its ETag: %v %v, want 304", res.Status, err)
	}

	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/api/leaderboard", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err = http.DefaultTransport.RoundTrip(req) // the transport itself: no transparent gunzip
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	zipped, _ := io.ReadAll(res.Body)
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if res.Header.Get("Content-Encoding") != "gzip" || err != nil {
		t.Fatalf("the leaderboard with gzip: %v %v", res.Header, err)
	}
	plain, _ := io.ReadAll(zr)
	_, want, _ := get(t, srv.URL+"/api/leaderboard")
	if string(plain) != string(want) || len(zipped) > len(plain)/2 {
		t.Errorf("gzipped, the leaderboard is %d bytes of %d, and reads %q", len(zipped), len(plain), plain)
	}

	var all, since struct {
		NewestRound int64 `json:"newest_round"`
		Rows        []struct{ Round int64 }
	}
	getJSON(t, srv.URL+"/api/agents/perfect/history", &all)
	getJSON(t, srv.URL+"/api/agents/perfect/history?after=2", &since)
	n := 0
	for _, r := range all.Rows {
		if r.Round > 2 {
			if n >= len(since.Rows) || since.Rows[n].Round != r.Round {
				t.Errorf("the history after round 2 is %+v; the whole %+v", since.Rows, all.Rows)
				break
			}
			n++
		}
	}
	if n != len(since.Rows) || since.NewestRound != 4 {
		t.Errorf("the history after round 2 is %+v (newest %d); the whole %+v", since.Rows, since.NewestRound, all.Rows)
	}
	if status, body, _ := get(t, srv.URL+"/api/agents/perfect/history?per=round&after=2"); status != 400 {
		t.Errorf("per=round&after=2: %d %s", status, body)
	}
}
