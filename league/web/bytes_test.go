package web_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ttt/league/commands/clitest"
)

// BenchmarkRoundBytes measures what a round costs each page open on it:
// the bytes the page's requests of the API moved (headers and bodies, as
// the browser's resource timings count them: transferSize) while one
// league run committed rounds of one to two seconds each, divided by the
// rounds. The event stream is left out: one per browser, some 60 bytes a
// round. Each page is a tab of its own in one browser, as a watcher has
// them:
//
//	go test ./league/web -run '^$' -bench RoundBytes -benchtime 1x
func BenchmarkRoundBytes(b *testing.B) {
	// Rounds of one to two seconds each on this machine (two cores shared):
	// longer than a page's reload, so that each round is shown.
	const rounds, gamesPerRound = 8, 100000
	browser, _ := newBrowser(b)
	_, path := newLeague(b, 12)
	_, url := serve(b, path)
	b.Cleanup(func() { chromedp.Run(browser, chromedp.Navigate("about:blank")) })
	do(b, browser, chromedp.Navigate("about:blank"))

	pages := []struct{ name, path, drawn string }{
		{"leaderboard", "", `window.tttChart && document.querySelectorAll("#leaderboard tbody tr").length > 0`},
		{"agent-best", "agents/best", `document.querySelector("#chart canvas") && document.querySelectorAll("#opponents tbody tr").length > 0`},
		{"agent-perfect", "agents/perfect", `document.querySelector("#chart canvas") && document.querySelectorAll("#opponents tbody tr").length > 0`},
		{"compare", "compare/best/latest", `document.querySelector("#chart canvas") && document.getElementById("t-record").textContent !== "–"`},
		{"play", "play/best", `document.querySelectorAll("#board .cell:not([disabled])").length === 9`},
	}
	tabs := make([]context.Context, len(pages))
	for i, p := range pages {
		tab, cancel := chromedp.NewContext(browser)
		b.Cleanup(cancel)
		tabs[i] = tab
		do(b, tab, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url+p.path))
		waitFor(b, tab, p.drawn)
	}
	// shown waits until each page shows round r in its top bar, and then
	// until its requests are over: none ends for 300 ms.
	shown := func(r int) {
		for i := range pages {
			waitFor(b, tabs[i], fmt.Sprintf(`document.getElementById("round").dataset.round === "%d"`, r))
			for was := -1; ; {
				n := eval[int](b, tabs[i], `performance.getEntriesByType("resource").length`)
				if n == was {
					break
				}
				was = n
				time.Sleep(300 * time.Millisecond)
			}
		}
	}
	newest := 12
	shown(newest)
	for _, tab := range tabs {
		do(b, tab, chromedp.Evaluate[chromedp.Void](`performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings()`))
	}
	dir := filepath.Dir(path)
	for b.Loop() {
		clitest.TTT{Dir: dir}.OK(b, "league", "run", "--db", path, "--rounds", strconv.Itoa(rounds), "--games-per-round", strconv.Itoa(gamesPerRound))
		newest += rounds
		shown(newest)
	}
	// asked is what the page at tab asked the API for since the timings
	// were cleared: the bytes, those of the bodies, and the requests.
	asked := func(tab context.Context) (bytes, body, n float64) {
		list := eval[[][2]float64](b, tab, `performance.getEntriesByType("resource").filter(e => e.name.includes("/api/") && !e.name.includes("/api/events")).map(e => [e.transferSize, e.encodedBodySize])`)
		for _, a := range list {
			bytes, body = bytes+a[0], body+a[1]
		}
		return bytes, body, float64(len(list))
	}
	for i, p := range pages {
		bytes, body, n := asked(tabs[i])
		perRound := float64(b.N * rounds)
		b.ReportMetric(bytes/perRound, p.name+"-B/round")
		b.ReportMetric(n/perRound, p.name+"-requests/round")
		b.Logf("%-14s %6.0f bytes a round (%5.0f of bodies) in %.1f requests", p.name, bytes/perRound, body/perRound, n/perRound)
	}

	// A fast league: rounds of a few hundred games, as fast as they
	// commit. Each page reloads at most every half second (coalesced),
	// each time to the newest round, and shows the last.
	for _, tab := range tabs {
		do(b, tab, chromedp.Evaluate[chromedp.Void](`performance.clearResourceTimings()`))
	}
	start := time.Now()
	clitest.TTT{Dir: dir}.OK(b, "league", "run", "--db", path, "--rounds", strconv.Itoa(fastRounds), "--games-per-round", "200")
	took := time.Since(start)
	newest += fastRounds
	shown(newest)
	b.Logf("a fast league: %d rounds in %v, %.1f a second", fastRounds, took.Round(time.Millisecond), fastRounds/took.Seconds())
	for i, p := range pages {
		bytes, _, n := asked(tabs[i])
		b.ReportMetric(bytes/took.Seconds(), p.name+"-fast-B/s")
		b.Logf("%-14s %6.0f bytes a second, %.1f requests a second, %5.0f bytes a round", p.name, bytes/took.Seconds(), n/took.Seconds(), bytes/fastRounds)
	}
}

// fastRounds is how many rounds the fast league of BenchmarkRoundBytes
// plays.
const fastRounds = 200
