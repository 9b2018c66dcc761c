package web_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ttt/agents"
	"ttt/league/commands/clitest"
)

// A league file replaced under a running server: a Connect Four league
// renamed over the tic-tac-toe league it serves, while readers ask every
// endpoint. Each answer is wholly of one file (the game it names and
// the weights it reads agree), none fails with 500, no answer of the old
// file comes after one of the new, and the event stream names the new
// league. Then the file is removed: the answers say so (503), until a
// league is back at its name.
func TestReplacedLeague(t *testing.T) {
	_, path := newLeague(t, 2)
	other := otherLeague(t)
	srv := httptest.NewServer(newServer(t, path))
	defer srv.Close()

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	events := bufio.NewReader(res.Body)
	first := nextLeague(t, events)
	if !strings.HasPrefix(first, "tictactoe@") {
		t.Fatalf("the stream names the league %q", first)
	}

	// Readers of the answers that name the game (/api/game, which the
	// pages draw it from, by its name), or read a network of it.
	readers := []string{"/api/game", "/api/leaderboard?limit=1", "/api/agents/best", "/api/compare/best/random?positions=0", "/api/agents/best/weights"}
	var mu sync.Mutex
	var seen []string // each answer's game, in order, per reader
	var failed []string
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, p := range readers {
		wg.Go(func() {
			last := ""
			for {
				select {
				case <-done:
					return
				default:
				}
				r, err := http.Get(srv.URL + p)
				if err != nil {
					t.Error(err)
					return
				}
				var body struct{ Game, Name, Message string }
				var data []byte
				if strings.HasSuffix(p, "weights") {
					data, _ = io.ReadAll(r.Body)
				} else {
					json.NewDecoder(r.Body).Decode(&body)
				}
				r.Body.Close()
				game := cmp.Or(body.Game, body.Name)
				switch {
				case r.StatusCode == http.StatusServiceUnavailable:
					continue // replaced while read: asked again
				case r.StatusCode != http.StatusOK:
					mu.Lock()
					failed = append(failed, p+": "+r.Status+" "+body.Message)
					mu.Unlock()
					continue
				case strings.HasSuffix(p, "weights"):
					// The file of a model of one game or the other, whole:
					// never a mix.
					if read, err := agents.ReadFile(nil, data, nil); err == nil {
						game = read.Model.Plays().Name()
					} else {
						game = fmt.Sprintf("%d bytes that read as no model: %v", len(data), err)
					}
				}
				mu.Lock()
				if game != last {
					seen = append(seen, p+" "+game)
					last = game
				}
				mu.Unlock()
			}
		})
	}
	// Each reader has had an answer of the old league.
	for deadline := time.Now().Add(clitest.Patience(t)); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(seen)
		mu.Unlock()
		if n == len(readers) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the readers' first answers: %q", seen)
		}
	}
	// The name's own -wal and -shm are the old league's.
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if got := nextLeague(t, events); !strings.HasPrefix(got, "connect4@") {
		t.Errorf("after the replacement the stream names the league %q", got)
	}
	// And each one of the new.
	for deadline := time.Now().Add(clitest.Patience(t)); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(seen)
		mu.Unlock()
		if n >= 2*len(readers) || time.Now().After(deadline) {
			break
		}
	}
	close(done)
	wg.Wait()
	want := map[string]bool{}
	for _, p := range readers {
		want[p+" tictactoe"], want[p+" connect4"] = true, true
	}
	order := map[string]int{}
	for _, s := range seen {
		p, game, _ := strings.Cut(s, " ")
		if !want[s] || game == "tictactoe" && order[p] > 0 {
			t.Errorf("%s answered %s after %q", p, game, seen)
		}
		order[p]++
	}
	if len(failed) > 0 || len(seen) != 2*len(readers) {
		t.Errorf("answers failed: %q; the games seen: %q", failed, seen)
	}

	// The file removed: the answers say so, and the league back at its
	// name is served.
	moved := filepath.Join(t.TempDir(), "away.db")
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	status, body, _ := get(t, srv.URL+"/api/leaderboard")
	if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "is gone since ttt serve opened it") {
		t.Errorf("with the file gone: %d %s", status, body)
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(clitest.Patience(t)); status != http.StatusOK && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		status, body, _ = get(t, srv.URL+"/api/leaderboard")
	}
	if status != http.StatusOK || !strings.Contains(string(body), `"game":"connect4"`) {
		t.Errorf("with the file back: %d %s", status, body)
	}
}

// nextLeague returns the league that the next event of r names.
func nextLeague(t testing.TB, r *bufio.Reader) string {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the event stream: %v", err)
		}
		if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			var d struct{ League string }
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatalf("event data %q: %v", data, err)
			}
			if d.League != "" {
				return d.League
			}
		}
	}
}
