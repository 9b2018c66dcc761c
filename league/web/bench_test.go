package web_test

import (
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ttt/agents"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// BenchmarkServe times every endpoint and page of ttt serve over HTTP on
// leagues of 1,000 and 100,000 checkpoints and reports each one's median:
// the goal is 100 ms at most. With Chromium (see TestBrowser) it also
// times each page whole, in the browser. Building the larger league takes
// about a minute, so a built one is kept in $TTT_BENCH_DIR (default: the
// system's temporary directory) for the runs after:
//
//	TTT_BENCH_DIR=/var/tmp go test ./league/web -run '^$' -bench Serve -benchtime 20x
//
// A league is two real rounds of ttt league run (networks of the default
// 100 hidden units, with their weights, move tables and checks) grown to
// n rounds by SQL: each new round's snapshot a copy of the second's
// network, its learning-curve rating on a rising curve, seven history
// rows per agent over the rounds after it, and a standing. The best
// agent, of the middle round, has a history row every fifth round to the
// end: 10,000 rows at 100,000 rounds, where a real league of 1,000 rounds
// stores 23 rows per agent and 130 for its most-rated one (the endpoints
// read one agent's rows by key, so the others' count only in the file's
// size). Every snapshot has played random and perfect, and the best
// agent every other snapshot, so that each of the three has n opponents
// (in a league of a night perfect and the top checkpoints play every new
// snapshot); the other matches are left out, as no endpoint reads them.
func BenchmarkServe(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("checkpoints=%d", n), func(b *testing.B) { benchServe(b, n) })
	}
}

// benchServe times ttt serve on a league of n checkpoints.
func benchServe(b *testing.B, checkpoints int) {
	path := bigLeague(b, checkpoints)
	h := newServer(b, path)
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer h.Close() // the pages' event streams, before the server waits for them
	mid := strconv.Itoa(checkpoints / 3)
	// Opponents of the best agent from 500 below its id: the page goes
	// from its older opponents on to its newer ones.
	bestOpponents := strconv.Itoa(checkpoints/2 + 2 - 500)
	for _, e := range []struct{ name, path string }{
		{"leaderboard", "/api/leaderboard"},
		{"leaderboard-1000", "/api/leaderboard?limit=1000"},
		// The table's other views: a page deep in the Elo index, an
		// order of the standings' own, the names' index, a search.
		{"leaderboard-last-page", "/api/leaderboard?offset=" + strconv.Itoa(checkpoints-20)},
		{"leaderboard-by-games", "/api/leaderboard?sort=games"},
		{"leaderboard-by-name-mid", "/api/leaderboard?sort=name&order=asc&offset=" + strconv.Itoa(checkpoints/2)},
		{"leaderboard-search", "/api/leaderboard?q=9999"},
		{"health", "/api/health"},
		{"compare-best-latest", "/api/compare/best/latest"},
		{"compare-best-perfect", "/api/compare/best/perfect"},
		{"progress", "/api/progress"},
		// What the leaderboard asks at each new round since it asks for
		// the rounds since the one it shows.
		{"progress-after", "/api/progress?after=" + strconv.Itoa(checkpoints-1)},
		{"agent-best", "/api/agents/best"},
		{"agent-latest", "/api/agents/latest"},
		{"agent-id", "/api/agents/" + mid},
		{"agent-name", "/api/agents/checkpoint-" + mid},
		{"agent-perfect", "/api/agents/perfect"},
		{"opponents-perfect", "/api/agents/perfect/opponents?after=" + mid},
		{"opponents-perfect-1000", "/api/agents/perfect/opponents?limit=1000&after=" + mid},
		{"opponents-best-1000", "/api/agents/best/opponents?limit=1000&after=" + bestOpponents},
		{"history-best", "/api/agents/best/history"},
		{"history-best-per-round", "/api/agents/best/history?per=round"},
		{"history-id", "/api/agents/" + mid + "/history"},
		{"weights", "/api/agents/best/weights"},
		{"weights-side", "/api/agents/best/weights?side=O"},
		{"move-net", "/api/agents/best/move?board=X...O...."},
		{"move-perfect", "/api/agents/perfect/move?moves=4,0"},
		{"move-random", "/api/agents/random/move"},
		{"page-leaderboard", "/"},
		{"page-agent", "/agents/best"},
		{"page-play", "/play/best"},
		{"static-uplot", "/static/vendor/uplot/uPlot.iife.min.js"},
	} {
		b.Run(e.name, func(b *testing.B) {
			var size int64
			timed(b, func() {
				res, err := http.Get(srv.URL + e.path)
				if err != nil {
					b.Fatal(err)
				}
				size, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode != http.StatusOK {
					b.Fatalf("%s: %d %v", e.path, res.StatusCode, err)
				}
			})
			b.ReportMetric(float64(size), "bytes")
		})
	}

	// Whole pages in Chromium, from the navigation to the page drawn with
	// every answer it asked for.
	for _, page := range []struct{ name, path, drawn string }{
		{"browser-leaderboard", "/", fmt.Sprintf(`document.querySelector("#chart").dataset.points === "%d" && document.querySelectorAll("#leaderboard tbody tr").length === 20`,
			min(checkpoints, 2000))},
		{"browser-agent", "/agents/best", `document.querySelector("#chart canvas") && document.querySelectorAll("#verify tbody tr").length === 2`},
		{"browser-play", "/play/best?as=O", `document.querySelectorAll("#thoughts .thought").length === 9`},
	} {
		b.Run(page.name, func(b *testing.B) {
			ctx, _ := newBrowser(b)
			do(b, ctx, chromedp.EmulateViewport(viewWidth, viewHeight))
			timed(b, func() {
				do(b, ctx, chromedp.Navigate(srv.URL+page.path))
				waitFor(b, ctx, page.drawn)
			})
		})
	}
}

// timed runs f b.N times, and reports the median and the longest time.
func timed(b *testing.B, f func()) {
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		f()
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
}

// bigLeague returns the path of a league of n checkpoints (see
// BenchmarkServe), building it unless a run before did.
func bigLeague(b *testing.B, n int) string {
	b.Helper()
	dir := os.Getenv("TTT_BENCH_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("ttt-serve-%d.db", n))
	k := len(agents.TicTacToe.Builtins) // the agents before the first snapshot
	if db, err := store.OpenRead(b.Context(), path); err == nil {
		all, err := db.Count(b.Context())
		var played int
		if err == nil {
			err = db.View(b.Context(), func(v *store.View) (err error) {
				played, err = v.OpponentCount(2) // perfect's; a league built before there were matches has none
				return err
			})
		}
		db.Close()
		if err == nil && all-k >= n && played >= n { // the built-in players are not checkpoints
			return path
		}
	}
	b.Logf("building a league of %d checkpoints in %s", n, path)
	building := path + ".building"
	for _, f := range []string{building, building + "-wal", building + "-shm", path, path + "-wal", path + "-shm"} {
		os.Remove(f)
	}
	// Two real rounds: ids 1 to k are the built-in players (random and
	// perfect first), k+1 and k+2 the snapshots of rounds 1 and 2.
	clitest.TTT{Dir: dir}.OK(b, "league", "run", "--db", building, "--rounds", "2", "--games-per-round", "1000")
	os.Remove(building + ".lock")
	db, err := sql.Open("sqlite", building)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	best := n / 2
	for _, q := range []string{
		// Round r's snapshot is agent r+k, a copy of agent k+2; every
		// seventh is unbeatable.
		`WITH RECURSIVE k(r) AS (SELECT 3 UNION ALL SELECT r + 1 FROM k WHERE r < :n)
		INSERT INTO agents (id, kind, name, parent_id, generation, train_games, hidden, created_at, class,
			x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
			x_win, x_draw, x_loss, o_win, o_draw, o_loss, moves_crc, weights_crc, moves, weights, method)
		SELECT r + :k, 'checkpoint', 'checkpoint-' || (r + :k), r + :k - 1, r, r * 20000, t.hidden, t.created_at,
			CASE WHEN r = :best THEN 2 WHEN r % 7 = 0 THEN 1 ELSE 0 END,
			t.x_worst, t.x_lost, t.x_lines, t.x_optimal, t.x_positions, t.o_worst, t.o_lost, t.o_lines, t.o_optimal, t.o_positions,
			t.x_win, t.x_draw, t.x_loss, t.o_win, t.o_draw, t.o_loss, t.moves_crc, t.weights_crc, t.moves, t.weights, t.method
		FROM k, agents t WHERE t.id = :k + 2`,
		// The learning curve rises towards 400, with some noise.
		`WITH RECURSIVE k(r) AS (SELECT 3 UNION ALL SELECT r + 1 FROM k WHERE r < :n),
		c(r, elo) AS (SELECT r, 400.0 * r / (r + 3000) + ((r * 7919) % 101 - 50) / 5.0 FROM k)
		INSERT INTO rounds (id, kind, started_at, finished_at, snapshot_id, elo, lo, hi,
			train_games, train_seconds, eval_games, eval_seconds, fit_steps, fit_pending)
		SELECT c.r, 'league', t.started_at, t.finished_at, c.r + :k, c.elo, c.elo - 15, c.elo + 15,
			t.train_games, t.train_seconds, t.eval_games, t.eval_seconds, t.fit_steps, t.fit_pending
		FROM c, rounds t WHERE t.id = 2`,
		`WITH RECURSIVE k(r) AS (SELECT 3 UNION ALL SELECT r + 1 FROM k WHERE r < :n),
		d(d) AS (VALUES (0), (1), (3), (10), (30), (100), (300))
		INSERT INTO history (agent_id, round_id, elo, lo, hi, games)
		SELECT k.r + :k, k.r + d.d, 400.0 * k.r / (k.r + 3000) - d.d / 100.0, 400.0 * k.r / (k.r + 3000) - 15 + d.d / 50.0,
			400.0 * k.r / (k.r + 3000) + 15 - d.d / 50.0, 144 * (1 + d.d)
		FROM k, d WHERE k.r + d.d <= :n`,
		`WITH RECURSIVE k(r) AS (SELECT :best + 5 UNION ALL SELECT r + 5 FROM k WHERE r + 5 <= :n)
		INSERT INTO history (agent_id, round_id, elo, lo, hi, games)
		SELECT :best + :k, r, 450 + (r % 13) / 10.0, 440, 460, 144 * (r - :best) FROM k WHERE true
		ON CONFLICT DO UPDATE SET elo = excluded.elo, lo = excluded.lo, hi = excluded.hi`,
		`UPDATE history SET elo = 450, lo = 430, hi = 470 WHERE agent_id = :best + :k AND round_id < :best + 5`,
		// The matches: each snapshot against random and perfect, and the
		// best agent against every other snapshot, each row in the round
		// of its newer agent (agent r+k is round r's).
		`INSERT INTO matches (round_id, a, b, plies, seed, wins, draws, losses)
		SELECT a.id - :k, a.id, o.id, 1, 0, (a.id * 7) % 20, (a.id * 3) % 30, 10 FROM agents a, agents o
		WHERE a.id > :k + 2 AND o.id IN (1, 2)`,
		`INSERT INTO matches (round_id, a, b, plies, seed, wins, draws, losses)
		SELECT max(x.id, :best + :k) - :k, max(x.id, :best + :k), min(x.id, :best + :k), 1, 0, x.id % 20, x.id % 30, 10
		FROM agents x WHERE x.id > :k AND x.id <> :best + :k`,
		`INSERT INTO standings (agent_id, round_id, elo, lo, hi, wins, draws, losses, class)
		SELECT h.agent_id, h.round_id, h.elo, h.lo, h.hi, h.games / 2, h.games / 4, h.games - h.games / 2 - h.games / 4, a.class
		FROM history h JOIN agents a ON a.id = h.agent_id
		WHERE h.agent_id > :k + 2 AND h.round_id = (SELECT max(round_id) FROM history WHERE agent_id = h.agent_id)`,
	} {
		if _, err := db.ExecContext(b.Context(), q, sql.Named("n", n), sql.Named("best", best), sql.Named("k", k)); err != nil {
			b.Fatalf("%v\n%s", err, q)
		}
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(building, path); err != nil {
		b.Fatal(err)
	}
	return path
}
