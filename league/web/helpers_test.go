package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"ttt/league/commands/clitest"
	"ttt/league/web"
	"ttt/store"
)

// The tests run ttt as a user would: a real league made by ttt league
// run, served by ttt serve (commands.Run, in-process, so that the race
// detector sees the server), in a directory of the test's own.

// leagueFlags make rounds of a few milliseconds with real training,
// evaluation, rating and commits.
var leagueFlags = []string{"--games-per-round", "2000", "--hidden", "16", "--seed", "5"}

// newLeague runs `ttt league run` for rounds rounds in a new directory,
// with flags (leagueFlags when none), and returns the directory's ttt and
// the database's absolute path.
func newLeague(t testing.TB, rounds int, flags ...string) (clitest.TTT, string) {
	t.Helper()
	if len(flags) == 0 {
		flags = leagueFlags
	}
	p := clitest.New(t)
	p.OK(t, append([]string{"league", "run", "--db", "league.db", "--rounds", strconv.Itoa(rounds)}, flags...)...)
	return p, filepath.Join(p.Dir, "league.db")
}

// otherLeague returns the path of a Connect Four league of one round, in
// a new directory, with no journal beside it: the league that
// TestReplacedLeague and TestBrowser put in the place of the tic-tac-toe
// league being served. Its round is long under the race detector, so it
// is played once, evaluated from the empty board alone, and its file
// copied for each test.
func otherLeague(t testing.TB) string {
	t.Helper()
	otherFile.mu.Lock()
	defer otherFile.mu.Unlock()
	if otherFile.data == nil {
		_, path := newLeague(t, 1, "--game", "connect4", "--games-per-round", "200", "--tuples", "6", "--tuple-length", "5", "--opponents", "4", "--openings", "0", "--ladder-interval", "200", "--seed", "3")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		otherFile.data = data
	}
	path := filepath.Join(t.TempDir(), "league.db")
	if err := os.WriteFile(path, otherFile.data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// otherFile is otherLeague's file, once played.
var otherFile struct {
	mu   sync.Mutex
	data []byte
}

// newServer returns ttt serve's handler of the league at path, which it
// opens as ttt serve does (store.OpenRead); the test closes it at its
// end.
func newServer(t testing.TB, path string) *web.Server {
	t.Helper()
	h, err := web.New(path, func() (*store.DB, error) { return store.OpenRead(context.Background(), path) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// servingLine is ttt serve's first line.
var servingLine = regexp.MustCompile(`serving .* on (http://\S+/) \(Ctrl-C stops\)`)

// serve runs `ttt serve` on the database at path, on a free loopback
// port, and returns it and the URL it serves on (ending in /).
func serve(t testing.TB, path string) (*clitest.Background, string) {
	t.Helper()
	return serveOn(t, path, "127.0.0.1:0")
}

// serveOn runs `ttt serve` on the database at path, listening on addr.
func serveOn(t testing.TB, path, addr string) (*clitest.Background, string) {
	t.Helper()
	r := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "serve", "--db", path, "--addr", addr)
	r.WaitOutput(t, "(Ctrl-C stops)\n")
	m := servingLine.FindStringSubmatch(r.Stdout())
	if m == nil {
		t.Fatalf("ttt serve said %q", r.Stdout())
	}
	return r, m[1]
}

// get fetches url and returns the status, the body and the headers.
func get(t testing.TB, url string) (int, []byte, http.Header) {
	t.Helper()
	return send(t, http.MethodGet, url, nil)
}

// send sends a request with body (nil for none).
func send(t testing.TB, method, url string, body io.Reader) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, data, res.Header
}

// getJSON fetches url, checks that it answers 200 with JSON, and decodes
// the answer into v.
func getJSON(t testing.TB, url string, v any) {
	t.Helper()
	status, body, h := get(t, url)
	if status != http.StatusOK || h.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: %d %s\n%s", url, status, h.Get("Content-Type"), body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v\n%s", url, err, body)
	}
}

// bestAfterPage is what the checks read of /api/leaderboard: the best,
// the page's rows, and the best's row after them where the page leaves
// it out.
type bestAfterPage struct {
	Best    struct{ Name string }
	Agents  []struct{ Name, Kind string }
	BestRow *struct {
		Name string
		Rank int
	} `json:"best_row"`
}
