package web_test

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ttt/agents/testkit"
	"ttt/league/commands/clitest"
)

// The browser test drives headless Chromium through the pages as a user
// would. It needs Chromium: Debian's package (apt-get install chromium),
// or the program TTT_CHROMIUM names. Without one it skips, except in CI
// (CI=true) or when TTT_BROWSER_TEST=required (.ci/run sets it), where it
// fails: CI must run it.
//
// TTT_SCREENSHOTS=DIR writes the README's screenshots to DIR, from a
// larger league that makes fuller pictures:
//
//	TTT_SCREENSHOTS=$PWD/docs go test ./league/web -run TestBrowser

// TestBrowserLeaderboard is the browser test's quick sibling: the
// leaderboard of a league of 3 rounds, in Chromium, draws its chart, one
// point a round, and lists the agents the API lists, in its order; the
// page throws and logs no error (newBrowser).
func TestBrowserLeaderboard(t *testing.T) {
	ctx, _ := newBrowser(t)
	const rounds = 3
	_, path := newLeague(t, rounds)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before the server stops
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url))
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector("#chart").dataset.points === "%d" && document.querySelector("#chart canvas") !== null
		&& document.querySelectorAll("#leaderboard tbody tr").length > 0`, rounds))
	if painted := eval[int](t, ctx, painted("#chart canvas")); painted < 1000 {
		t.Errorf("the chart's canvas has %d painted pixels: nothing drawn", painted)
	}
	board := eval[[]string](t, ctx, `[...document.querySelectorAll("#leaderboard tbody tr td.agent a")].map(a => a.textContent)`)
	var want struct{ Agents []struct{ Name string } }
	getJSON(t, url+"api/leaderboard", &want)
	var names []string
	for _, a := range want.Agents {
		names = append(names, a.Name)
	}
	if !slices.Equal(board, names) || len(names) < rounds {
		t.Errorf("the leaderboard shows %q, the API %q", board, names)
	}
}

// The viewport of the test and of the screenshots.
const viewWidth, viewHeight = 1280, 800

// TestBrowser belongs to the long tier, as do the other tests that drive
// Chromium (TestBrowserRunAndGames, TestBrowserToy): every page, both
// games, a phone's width, several leagues. TestBrowserLeaderboard is
// their quick sibling, one page.
func TestBrowser(t *testing.T) {
	testkit.Long(t, "every page of both games in Chromium; TestBrowserLeaderboard opens one")
	shots := os.Getenv("TTT_SCREENSHOTS")
	ctx, problems := newBrowser(t)

	rounds := 8
	var flags []string
	if shots != "" {
		// Fuller pictures: the league's default rounds.
		rounds, flags = 30, []string{"--seed", "2"}
	}
	p, path := newLeague(t, rounds, flags...)
	_, url := serve(t, path)
	// Leave the pages before the server stops (cleanups run last first):
	// a page's event stream would otherwise try again, and its refused
	// connection is a logged error.
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) })

	// The leaderboard, its chart one point per round. The page opens while
	// another network is the best (the API's best is swapped for it on
	// the first load): the rounds that come must make the chart follow
	// the best of the newest round.
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight))
	formerBest := openWithBest(t, ctx, url)
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector("#chart").dataset.points === "%d" && document.querySelector("#chart canvas") !== null
		&& document.querySelectorAll("#leaderboard tbody tr").length > 0 && %s.includes(%q)`, rounds, legendLabels, formerBest))
	// The best's line: its colour stays the best's when the best changes
	// (liveChart).
	bestStroke := eval[string](t, ctx, fmt.Sprintf(`tttChart.series.find(s => s.label === %q).stroke()`, formerBest))
	// A range of rounds dragged on the chart, which the rounds to come
	// must leave as it is.
	zoom := dragChart(t, ctx)
	if painted := eval[int](t, ctx, painted("#chart canvas")); painted < 1000 {
		t.Errorf("the chart's canvas has %d painted pixels: nothing drawn", painted)
	}
	// Each agent's name, and beside it the round that made it (none for a
	// built-in player): the two numbers a user meets; then its method (a
	// dash for a built-in player).
	board := eval[[]string](t, ctx, `[...document.querySelectorAll("#leaderboard tbody tr")].map(tr => {
		const td = tr.querySelector("td.agent");
		return td.querySelector("a").textContent + (td.querySelector(".made") ? td.querySelector(".made").textContent : "") + " " + tr.querySelector("td.method").textContent;
	})`)
	var want struct {
		Agents []struct {
			Name       string
			Generation int
			Method     *string
		}
		Best struct {
			ID   int64
			Name string
		}
	}
	getJSON(t, url+"api/leaderboard", &want)
	var names []string
	for _, a := range want.Agents {
		if a.Generation > 0 {
			a.Name += fmt.Sprintf(" r%d", a.Generation)
		}
		names = append(names, a.Name+" "+cmp.Or(deref(a.Method), "–"))
	}
	if !slices.Equal(board, names) || !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, " r") }) ||
		!slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, " policy") }) {
		t.Errorf("the leaderboard shows %q, the API %q", board, names)
	}

	// A new round shows on the open page, without a reload: three league
	// runs of a round each. The round's line is printed right after its
	// commit; the log says how soon the page followed (BenchmarkLive
	// times the event stream that brings it).
	for range 3 {
		rounds++
		league := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "league", "run", "--db", path, "--rounds", "1")
		league.WaitOutput(t, fmt.Sprintf("round %d ", rounds))
		committed := time.Now()
		snapshot := regexp.MustCompile(fmt.Sprintf(`round %d  (\S+)`, rounds)).FindStringSubmatch(league.Stdout())[1]
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById("round").dataset.round === "%d" && document.getElementById("t-rounds").textContent === "%d"
			&& document.querySelector("#chart").dataset.points === "%d" && document.querySelector("#t-latest a")?.textContent === %q`, rounds, rounds, rounds, snapshot))
		t.Logf("round %d on the page %v after its commit", rounds, time.Since(committed).Round(time.Millisecond))
		if _, stderr, code := league.Wait(t); code != 0 {
			t.Fatalf("league run: exit %d\n%s", code, stderr)
		}
	}

	liveChart(t, ctx, url, zoom, formerBest, bestStroke)

	// Follow two more agents on the chart. The table is redrawn as the
	// page refreshes, so the box is found and clicked in one turn of the
	// page's event loop: a node found by one call and clicked by the
	// next may be gone in between.
	unfollowed := clickIn(`#leaderboard tbody tr:not([data-kind=perfect]) input.follow:not(:checked)`)
	waitFor(t, ctx, unfollowed)
	waitFor(t, ctx, `document.querySelector("#chart").dataset.followed === "2"`)
	waitFor(t, ctx, unfollowed)
	waitFor(t, ctx, `document.querySelector("#chart").dataset.followed === "3" && document.querySelectorAll("#chart .u-legend .u-series").length >= 7`)
	screenshot(t, ctx, shots, "serve-leaderboard.png")
	if got := download(t, ctx, "#curve-csv", "learning-curve.csv"); !bytes.HasPrefix(got, []byte("round,agent,method,elo,lo,hi\n")) || bytes.Count(got, []byte("\n")) != rounds+1 {
		t.Errorf("the learning curve downloads as %q; want a header and %d rounds", got, rounds)
	}
	sharedView(t, ctx, zoom)
	leaderboardTable(t, ctx, url)

	// The best agent's page.
	getJSON(t, url+"api/leaderboard", &want)
	follow(t, ctx, `#leaderboard tbody tr.best td.agent a`)
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById("name").textContent === %q && document.querySelector("#chart canvas") !== null
		&& document.querySelectorAll("#verify tbody tr").length === 2`, want.Best.Name))
	if painted := eval[int](t, ctx, painted("#chart canvas")); painted < 500 {
		t.Errorf("the agent's chart has %d painted pixels: nothing drawn", painted)
	}
	screenshot(t, ctx, shots, "serve-agent.png")

	// Its weight file, downloaded, is what ttt export writes.
	got := download(t, ctx, "#weights", want.Best.Name+"-19in.bin")
	p.OK(t, "export", "--db", "league.db", "--checkpoint", strconv.FormatInt(want.Best.ID, 10), "-o", "best.bin")
	if !bytes.Equal(got, p.File(t, "best.bin")) {
		t.Errorf("the downloaded weight file (%d bytes) is not ttt export's (%d bytes)", len(got), len(p.File(t, "best.bin")))
	}

	// Its opponents and its games, whole, as the API sends them.
	for _, d := range []struct{ sel, name, path string }{
		{"#opponents-csv", want.Best.Name + "-opponents.csv", fmt.Sprintf("api/agents/%d/opponents.csv", want.Best.ID)},
		{"#games-pgn", want.Best.Name + ".pgn", fmt.Sprintf("api/agents/%d/games.pgn", want.Best.ID)},
	} {
		got := download(t, ctx, d.sel, d.name)
		if _, body, _ := get(t, url+d.path); !bytes.Equal(got, body) || len(got) == 0 {
			t.Errorf("%s downloads %d bytes; /%s answers %d", d.sel, len(got), d.path, len(body))
		}
	}

	// A whole game against it as X, then one as O.
	follow(t, ctx, "#play-x")
	playGame(t, ctx, url, want.Best.Name, probability)
	if shots != "" {
		screenshot(t, ctx, shots, "serve-play.png")
	}
	follow(t, ctx, "#side-o")
	playGame(t, ctx, url, want.Best.Name, probability)
	if shots == "" {
		screenshot(t, ctx, shots, "serve-play.png")
	}

	comparePage(t, ctx, url, shots)
	failedMove(t, ctx, problems, url, want.Best.Name)
	backAndForth(t, ctx, problems, url, rounds)
	notFoundPages(t, ctx, problems, url)

	// A phone: every page fits its width, the board keeps its shape.
	do(t, ctx, chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateScale(3), chromedp.EmulateMobile))
	fits(t, ctx, url)
	do(t, ctx, chromedp.Navigate(url+"?rounds=3-9"))
	waitFor(t, ctx, `window.tttChart && tttChart.scales.x.min === 3 && document.querySelectorAll("#leaderboard tbody tr").length > 0`)
	screenshot(t, ctx, shots, "serve-leaderboard-phone.png")
	do(t, ctx, chromedp.Navigate(url+"play/best?as=O"))
	playGame(t, ctx, url, want.Best.Name, probability)
	screenshot(t, ctx, shots, "serve-play-phone.png")
	notFoundPages(t, ctx, problems, url)
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight))
	darkMode(t, ctx, url, shots)
	connectFour(t, ctx, shots)
	tablePages(t, ctx)
	learners(t, ctx, shots)
	morning(t, ctx, url)
	watcher(t, ctx, problems)
}
