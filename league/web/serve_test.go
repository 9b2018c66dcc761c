package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ttt/league/commands/clitest"
	"ttt/league/web"
)

// ttt serve: its line, its refusals, its answers only to loopback names,
// and its clean stop at Ctrl-C even with a page's event stream open.
func TestServe(t *testing.T) {
	p, path := newLeague(t, 2)
	p.Refused(t, "no league database at nothing.db", "serve", "--db", "nothing.db")
	p.Refused(t, "--addr 127.0.0.1:99999: listen tcp: address 99999: invalid port", "serve", "--db", "league.db", "--addr", "127.0.0.1:99999")
	p.Usage(t, `serve: takes no arguments, got "x"`, "serve", "--db", "league.db", "x")

	_, url := serve(t, path)
	// Headers beyond the server's limit, 16 KiB, by a little (which
	// net/http alone lets by) or by much; headers within it.
	for size, want := range map[int]int{64 << 10: http.StatusRequestHeaderFieldsTooLarge, 17 << 10: http.StatusRequestHeaderFieldsTooLarge, 15 << 10: http.StatusOK} {
		req, _ := http.NewRequest(http.MethodGet, url+"api/health", nil)
		req.Header.Set("X-Big", strings.Repeat("x", size))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%d bytes of headers: %v", size, err)
			continue
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%d bytes of headers: %s, want %d", size, res.Status, want)
		}
	}

	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	_, port, _ := strings.Cut(host, ":")
	for _, c := range []struct {
		host   string
		status int
	}{
		{host, 200}, {"localhost:" + port, 200}, {"[::1]:" + port, 200}, {"LOCALHOST", 200},
		{"evil.example:" + port, 403}, {"127.0.0.1.nip.io:" + port, 403},
	} {
		req, _ := http.NewRequest(http.MethodGet, url+"api/leaderboard?limit=1", nil)
		req.Host = c.host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Message string }
		json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if res.StatusCode != c.status || c.status == 403 && !strings.Contains(e.Message, "answers only on localhost") {
			t.Errorf("Host %q: %d %q, want %d", c.host, res.StatusCode, e.Message, c.status)
		}
	}

	// Ctrl-C with a page open: the stream ends, the command exits 130. (A
	// server of its own: net/http holds the connection of the 431 half a
	// second before it closes it, and Shutdown waits for that.)
	srv, url := serve(t, path)
	res, err := http.Get(url + "api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if round := nextEvent(t, bufio.NewReader(res.Body)); round != 2 {
		t.Errorf("the event stream says round %d, want 2", round)
	}
	stopped := time.Now()
	if _, stderr, code := srv.Stop(t, syscall.SIGINT); code != 130 {
		t.Errorf("ttt serve: exit %d after Ctrl-C\n%s", code, stderr)
	}
	t.Logf("ttt serve stopped %v after Ctrl-C, with an event stream open", time.Since(stopped).Round(time.Millisecond))
	if _, err := http.Get(url); err == nil {
		t.Error("ttt serve still answers after it stopped")
	}
}

// While ttt league run commits rounds, every answer of the API is whole
// and the event stream tells of each round (BenchmarkLive times how soon
// after its commit).
func TestServeWhileLeagueRuns(t *testing.T) {
	const more = 6
	_, path := newLeague(t, 1)
	_, url := serve(t, path)

	// The event stream: when each round's event came.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"api/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events := bufio.NewReader(res.Body)
	if round := nextEvent(t, events); round != 1 {
		t.Fatalf("the first event says round %d, want 1", round)
	}
	var mu sync.Mutex
	seen := map[int64]time.Time{} // round: when its event came
	go func() {
		for {
			line, err := events.ReadString('\n')
			if err != nil {
				return
			}
			var d struct{ Round int64 }
			if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok && json.Unmarshal([]byte(data), &d) == nil {
				mu.Lock()
				seen[d.Round] = time.Now()
				mu.Unlock()
			}
		}
	}()

	// Readers of every endpoint, as pages and scripts would be.
	var answers, failures int
	var failed []string
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, path := range []string{"api/leaderboard", "api/progress", "api/agents/latest", "api/agents/best/history?per=round",
		"api/agents/latest/move?moves=4", "api/agents/best/weights", ""} {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				res, err := http.Get(url + path)
				mu.Lock()
				answers++
				if err != nil || res.StatusCode != http.StatusOK {
					failures++
					if len(failed) < 5 {
						failed = append(failed, fmt.Sprintf("/%s: %v %v", path, err, res))
					}
				}
				mu.Unlock()
				if err == nil {
					res.Body.Close()
				}
				// A reader's pace, as a page's: the point is the answers
				// during the commits, not the most answers.
				time.Sleep(5 * time.Millisecond)
			}
		})
	}

	// The league: each round's line comes right after its commit.
	league := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, append([]string{"league", "run", "--db", path, "--rounds", fmt.Sprint(more)}, leagueFlags...)...)
	committed := map[int64]time.Time{}
	for round := int64(2); round <= 1+more; round++ {
		league.WaitOutput(t, fmt.Sprintf("round %d ", round))
		committed[round] = time.Now()
	}
	if _, stderr, code := league.Wait(t); code != 0 {
		t.Fatalf("league run: exit %d\n%s", code, stderr)
	}
	// The last round's event; the test's patience, if it never comes.
	for deadline := time.Now().Add(clitest.Patience(t)); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		_, last := seen[1+more]
		mu.Unlock()
		if last {
			break
		}
	}
	close(done)
	wg.Wait()

	mu.Lock()
	defer mu.Unlock()
	if failures > 0 || answers < 20 {
		t.Errorf("%d of %d answers failed while the league ran: %v", failures, answers, failed)
	}
	// Rounds may commit faster than the stream polls: a round's news is
	// the first event of that round or a later one.
	var latencies []time.Duration
	for round, at := range committed {
		var first time.Time
		for r, when := range seen {
			if r >= round && (first.IsZero() || when.Before(first)) {
				first = when
			}
		}
		if first.IsZero() {
			t.Errorf("no event told of round %d", round)
			continue
		}
		latencies = append(latencies, max(0, first.Sub(at)))
	}
	slices.Sort(latencies)
	if len(latencies) > 0 {
		t.Logf("%d answers while %d rounds committed; from a commit to its event: median %v, max %v",
			answers, more, latencies[len(latencies)/2].Round(time.Millisecond), latencies[len(latencies)-1].Round(time.Millisecond))
	}
}

// The event streams share one poller of the database: many pages open at
// once each get the round they open on and every round after; a stream
// opened after all had closed gets the round of then, not the one the
// last poller saw; and Close ends every stream at once.
func TestEventStreams(t *testing.T) {
	p, path := newLeague(t, 1)
	h := newServer(t, path)
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close()
	type stream struct {
		events *bufio.Reader
		close  func()
	}
	open := func() stream {
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/events", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return stream{bufio.NewReader(res.Body), func() { cancel(); res.Body.Close() }}
	}
	round := func() {
		t.Helper()
		p.OK(t, append([]string{"league", "run", "--db", "league.db", "--rounds", "1"}, leagueFlags...)...)
	}

	streams := make([]stream, 30)
	for i := range streams {
		streams[i] = open()
		if got := nextEvent(t, streams[i].events); got != 1 {
			t.Fatalf("stream %d opens on round %d, want 1", i, got)
		}
	}
	round()
	for i, s := range streams {
		// A stream may also hear that a league run started, still at round 1.
		if got := roundAfter(t, s.events, 1); got != 2 {
			t.Errorf("stream %d: round %d after the commit, want 2", i, got)
		}
	}
	for _, s := range streams {
		s.close()
	}
	// With no stream open the poller stops, and a round commits.
	for web.Polling(h) {
		time.Sleep(time.Millisecond)
	}
	round()
	s := open()
	if got := nextEvent(t, s.events); got != 3 {
		t.Errorf("a stream opened after round 3 first says round %d", got)
	}
	defer s.close()

	// A stream that Close left open would hang here, until go test's
	// -timeout.
	closed := time.Now()
	h.Close()
	if _, err := io.Copy(io.Discard, s.events); err != nil {
		t.Errorf("the stream after Close: %v", err)
	}
	t.Logf("the stream ended %v after Close", time.Since(closed).Round(time.Millisecond))
}
