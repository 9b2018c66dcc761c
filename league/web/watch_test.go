package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ttt/league/commands/clitest"
)

// watcher checks the pages as a watcher keeps them: many tabs open all
// night on a league that commits rounds meanwhile, pruned before. Its
// server restarts, and its file is replaced at the end. Each point is
// named where it is checked.
func watcher(t *testing.T, ctx context.Context, problems *pageProblems) {
	t.Helper()
	p, path := newLeague(t, 6)
	p.OK(t, "prune", "--db", "league.db", "--best", "1", "--every", "0")
	server, url := serve(t, path)
	run := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "league", "run", "--db", path, "--games-per-round", "20000")
	run.WaitOutput(t, "round 7 ")
	newest := func() int {
		var h struct {
			NewestRound int `json:"newest_round"`
		}
		getJSON(t, url+"api/health", &h)
		return h.NewestRound
	}
	var board struct {
		Agents []struct {
			ID     int64
			Name   string
			Pruned bool
		}
	}
	getJSON(t, url+"api/leaderboard?sort=id&order=asc&limit=100", &board)
	var pruned int64
	for _, a := range board.Agents {
		if a.Pruned {
			pruned = a.ID
			break
		}
	}
	if pruned == 0 {
		t.Fatalf("prune --best 1 pruned none of %+v", board.Agents)
	}

	// 1. Eight tabs, and a ninth: each loads, and each shows the rounds
	// that come, in its content and not only in its top bar (the event
	// stream is one for the browser: with one a tab, six took every
	// connection the browser allows a server).
	paths := []string{"", "agents/best", "agents/latest", "agents/perfect", "agents/random", fmt.Sprintf("agents/%d", pruned), "play/best", "compare/best/random", "?sort=name&order=asc"}
	tabs := make([]context.Context, len(paths))
	for i, path := range paths {
		tab := newTab(t, ctx, problems)
		tabs[i] = tab
		start := time.Now()
		do(t, tab, chromedp.Navigate(url+path))
		waitFor(t, tab, `document.documentElement.dataset.shown > 0 || document.querySelectorAll("#board .cell:not([disabled])").length === 9`)
		t.Logf("tab %d, /%s, shown %v after its navigation", i+1, path, time.Since(start).Round(time.Millisecond))
	}
	defer func() {
		for _, tab := range tabs {
			chromedp.Run(tab, chromedp.Navigate("about:blank"))
		}
	}()
	r := newest() + 2
	for newest() < r {
		time.Sleep(50 * time.Millisecond)
	}
	for i, tab := range tabs {
		waitFor(t, tab, fmt.Sprintf(`Number(document.getElementById("round").dataset.round) >= %d && (document.documentElement.dataset.shown === undefined || Number(document.documentElement.dataset.shown) >= %d)`, r, r))
		if i == 0 {
			waitFor(t, tab, fmt.Sprintf(`Number(document.getElementById("t-rounds").textContent.replaceAll(",", "")) >= %d`, r))
		}
	}
	lb := tabs[0]

	// 2. The ranges that follow: "last 100" at fewer rounds shows them
	// all and stays pressed and in the address as new rounds come; the
	// address's last5 stays last5 and its range moves on.
	do(t, lb, chromedp.Click(chromedp.CSS(`#range [data-range=last100]`)))
	following := func(n int) string {
		return fmt.Sprintf(`location.search.includes("rounds=last%d") && tttChart.scales.x.max === tttChart.data[0].at(-1) && tttChart.scales.x.min === Math.max(tttChart.data[0][0], tttChart.data[0].at(-1) - %d + 1)`, n, n)
	}
	waitFor(t, lb, following(100)+` && document.querySelector("#range [data-range=last100]").getAttribute("aria-pressed") === "true"`)
	was := eval[float64](t, lb, `tttChart.scales.x.max`)
	waitFor(t, lb, fmt.Sprintf(`tttChart.data[0].at(-1) > %v && %s && document.querySelector("#range [data-range=last100]").getAttribute("aria-pressed") === "true"`, was, following(100)))
	do(t, lb, chromedp.Navigate(url+"?rounds=last5"))
	waitFor(t, lb, `window.tttChart && `+following(5))
	was = eval[float64](t, lb, `tttChart.scales.x.max`)
	waitFor(t, lb, fmt.Sprintf(`tttChart.data[0].at(-1) > %v + 1 && %s`, was, following(5)))

	// 5. The log scale fits the rounds: from the first to the newest,
	// not whole powers of ten, and the address gains no range.
	do(t, lb, chromedp.Click(chromedp.CSS(`#range [data-range=all]`)), chromedp.Click(chromedp.CSS(`#log`)))
	waitFor(t, lb, `tttChart.scales.x.distr === 3 && tttChart.scales.x.min === tttChart.data[0][0] && tttChart.scales.x.max === tttChart.data[0].at(-1)`)
	was = eval[float64](t, lb, `tttChart.scales.x.max`)
	waitFor(t, lb, fmt.Sprintf(`tttChart.data[0].at(-1) > %v && tttChart.scales.x.max === tttChart.data[0].at(-1) && location.search === "?log=1"`, was))

	// 9. The range typed, from the keyboard: the chart's zoom without a
	// mouse.
	do(t, lb, chromedp.Click(chromedp.CSS(`#log`)))
	do(t, lb, chromedp.Evaluate[chromedp.Void](`document.getElementById("from").focus()`))
	do(t, lb, chromedp.KeyEvent(kb.End), chromedp.KeyEvent("\b\b\b\b\b"), chromedp.KeyEvent("3"), chromedp.KeyEvent("\t"), chromedp.KeyEvent("\b\b\b\b\b"), chromedp.KeyEvent("6"), chromedp.KeyEvent(kb.Enter))
	waitFor(t, lb, `tttChart.scales.x.min === 3 && tttChart.scales.x.max === 6 && location.search.includes("rounds=3-6")`)

	// 9. Sorting from the keyboard: a column's head is a button.
	do(t, lb, chromedp.Evaluate[chromedp.Void](`document.querySelector("#leaderboard th[data-sort=games] button").focus()`), chromedp.KeyEvent(kb.Enter))
	waitFor(t, lb, `location.search.includes("sort=games") && document.querySelector("#leaderboard th[data-sort=games]").getAttribute("aria-sort") === "descending"`)

	// 10. Names sort as people count them: checkpoint-9 before
	// checkpoint-10 (the ninth tab).
	names := eval[[]string](t, tabs[8], `[...document.querySelectorAll("#leaderboard tbody td.agent a")].map(a => a.textContent)`)
	var numbers []int
	for _, n := range names {
		if k, ok := strings.CutPrefix(n, "checkpoint-"); ok {
			v, _ := strconv.Atoi(k)
			numbers = append(numbers, v)
		}
	}
	if len(numbers) < 5 || !slices.IsSorted(numbers) || numbers[0] >= 10 || numbers[len(numbers)-1] < 10 {
		t.Errorf("by name the leaderboard lists %q", names)
	}

	// 4. A pruned checkpoint: its row offers no play, its page shows its
	// record and says its weights were dropped, offering no play and no
	// weights; its play page says it cannot play; its comparison gives the
	// figures and says why its moves are not compared. No request of
	// these pages answers 410.
	do(t, lb, chromedp.Navigate(url+"?limit=100"))
	waitFor(t, lb, fmt.Sprintf(`document.querySelector('#leaderboard tr[data-id="%d"]') !== null`, pruned))
	if got := eval[string](t, lb, fmt.Sprintf(`document.querySelector('#leaderboard tr[data-id="%d"] td:last-child').textContent`, pruned)); got != "pruned" {
		t.Errorf("a pruned checkpoint's row offers %q", got)
	}
	pr := tabs[5]
	waitFor(t, pr, `!document.getElementById("pruned").hidden && document.querySelector("#chart canvas") && document.querySelectorAll("#opponents tbody tr[data-id]").length > 0 && document.querySelectorAll("#verify tbody tr").length === 2`)
	if offered := eval[[]string](t, pr, `[...document.querySelectorAll("#actions .button")].map(b => b.id)`); slices.ContainsFunc(offered, func(id string) bool { return strings.HasPrefix(id, "play") || strings.HasPrefix(id, "weights") }) {
		t.Errorf("a pruned checkpoint's page offers %q", offered)
	}
	if facts := eval[string](t, pr, `document.getElementById("facts").textContent`); !strings.Contains(facts, "dropped by ttt prune") {
		t.Errorf("a pruned checkpoint's facts: %q", facts)
	}
	do(t, pr, chromedp.Navigate(fmt.Sprintf("%splay/%d", url, pruned)))
	waitFor(t, pr, `document.getElementById("status").dataset.pruned !== undefined && document.querySelectorAll("#board .cell:not([disabled])").length === 0 && document.getElementById("pick").options.length > 0`)
	do(t, pr, chromedp.Navigate(fmt.Sprintf("%scompare/%d/best", url, pruned)))
	waitFor(t, pr, `document.getElementById("t-diff").textContent !== "–" && document.getElementById("t-differ-sub").textContent.includes("ttt prune") && document.querySelector("#chart canvas")`)

	// 9. What a screen reader reads: every control of every page has a
	// name, and no square is read as a bare number.
	for i, tab := range tabs {
		if bad := unnamed(t, tab); len(bad) > 0 {
			t.Errorf("tab %d (%s): controls without a name, or named by a number: %q", i+1, eval[string](t, tab, `location.pathname`), bad)
		}
	}
	// The play page: the keyboard plays a square, and after the agent's
	// move the focus is on the board, not the page's top.
	pl := tabs[6]
	do(t, pl, chromedp.Evaluate[chromedp.Void](`document.querySelector('#board .cell[data-sq="4"]').focus()`), chromedp.KeyEvent(kb.Enter))
	waitFor(t, pl, `document.getElementById("board").dataset.moves.split(",").length === 2 && document.activeElement.closest("#board") !== null && !document.activeElement.disabled`)
	if label := eval[string](t, pl, `document.querySelector('#board .cell[data-sq="4"]').getAttribute("aria-label")`); label != "square 4, middle centre: X" {
		t.Errorf("the square played is read as %q", label)
	}

	// 10. The About panel's figure is the perfect player's of this league.
	var perfect struct{ Standing struct{ Elo float64 } }
	getJSON(t, url+"api/agents/perfect", &perfect)
	do(t, lb, chromedp.Navigate(url))
	waitFor(t, lb, `document.getElementById("about-perfect").textContent.startsWith("Perfect at ")`)
	// (The league plays on: a round may move it a little between the
	// two reads.)
	got := eval[string](t, lb, `document.getElementById("about-perfect").textContent`)
	var elo float64
	if _, err := fmt.Sscanf(got, "Perfect at %f", &elo); err != nil || elo < perfect.Standing.Elo-20 || elo > perfect.Standing.Elo+20 {
		t.Errorf("the About panel says %q; perfect is at %.1f", got, perfect.Standing.Elo)
	}

	// 10. A page whose script did not load (the server restarting as it
	// loaded) loads itself again once the server answers.
	problems.expect("common.js")
	if _, err := chromedp.Call(lb, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/static/common.js*"}}}); err != nil {
		t.Fatal(err)
	}
	paused := chromedp.Events(lb, fetch.RequestPaused)
	// Not Navigate, which would wait for the page's load, and so for the
	// script held here.
	do(t, lb, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.href = %q`, url+"agents/perfect")))
	for ev, err := range paused {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(lb, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionRefused}); err != nil {
			t.Fatal(err)
		}
		break
	}
	if _, err := chromedp.Call(lb, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	arrived(t, lb, `document.querySelector("#chart canvas") !== null && document.documentElement.dataset.shown > 0 && !document.getElementById("reloading")`)

	// 10. The server stopped: the leaderboard no longer says the league
	// runs (it cannot know), and says so again once the server is back.
	do(t, lb, chromedp.Navigate(url))
	waitFor(t, lb, `document.querySelector("#h-running b")?.textContent === "running"`)
	problems.expect("ERR_CONNECTION_REFUSED")
	problems.expect("net::ERR_")
	if _, stderr, code := server.Stop(t, syscall.SIGINT); code != 130 {
		t.Fatalf("ttt serve: exit %d\n%s", code, stderr)
	}
	waitFor(t, lb, `document.querySelector("#h-running b")?.textContent === "not known" && !document.getElementById("live").classList.contains("on")`)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	_, again := serveOn(t, path, addr)
	if again != url {
		t.Fatalf("ttt serve came back on %s, not %s", again, url)
	}
	waitFor(t, lb, `document.querySelector("#h-running b")?.textContent === "running" && document.getElementById("live").classList.contains("on")`)
	for _, tab := range tabs[1:] {
		waitFor(t, tab, `document.getElementById("live").classList.contains("on")`)
	}

	// 3. The league's file replaced by another league's. Beside its name
	// is still the old league's journal, which no reader may empty and
	// through which the new file would read as a mix of both: the pages
	// say so, and keep what they show. Once it is removed, every page
	// loads itself again, and shows the new league alone.
	if _, stderr, code := run.Stop(t, syscall.SIGINT); code != 130 {
		t.Fatalf("league run: exit %d after Ctrl-C\n%s", code, stderr)
	}
	// perfect is no agent of the new league: its tab loads the page that
	// says so.
	problems.expect(fmt.Sprintf("404 (Not Found) (%sagents/perfect)", url))
	if err := os.Rename(otherLeague(t), path); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path + "-wal"); err == nil && info.Size() > 32 {
		waitFor(t, lb, `document.getElementById("error")?.textContent.includes("is still the old league's") && document.getElementById("t-rounds").textContent !== "1"`)
		for _, ext := range []string{"-wal", "-shm"} {
			os.Remove(path + ext)
		}
		t.Log("the replaced league's journal held pages: the pages said so until it was removed")
	} else {
		t.Logf("the replaced league's journal was empty: %v", err)
	}
	// (Each page loads itself again: arrived waits across that.) The
	// new league's checkpoint has five rows of shares: the random-ply
	// set's, then the tactical set's overall and by phase.
	arrived(t, lb, `document.querySelectorAll("#leaderboard th.check")[0]?.textContent === "Optimal" && document.getElementById("t-rounds").textContent === "1" && document.querySelector("#chart").dataset.points === "1"`)
	arrived(t, tabs[1], `document.getElementById("set-card").hidden === false && document.querySelectorAll("#shares tbody tr").length === 5`)
}

// unnamed returns the controls of the page in ctx that a screen reader
// would read without a name, or by a number alone, by the browser's own
// accessibility tree.
func unnamed(t *testing.T, ctx context.Context) []string {
	t.Helper()
	tree, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	controls := []string{"button", "link", "checkbox", "textbox", "searchbox", "spinbutton", "combobox", "radio", "slider"}
	var bad []string
	for _, n := range tree.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		var role, name string
		json.Unmarshal(n.Role.Value, &role)
		if n.Name != nil {
			json.Unmarshal(n.Name.Value, &name)
		}
		if slices.Contains(controls, role) && (strings.TrimSpace(name) == "" || regexp.MustCompile(`^\d+$`).MatchString(strings.TrimSpace(name))) {
			bad = append(bad, fmt.Sprintf("%s %q", role, name))
		}
	}
	return bad
}
