package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ttt/league/commands/clitest"
)

// Every page in the browser: pages that are not there, a phone's width,
// and the back and forward of the history.

// The phone of the test: its viewport in CSS pixels (device scale 3).
const phoneWidth, phoneHeight = 390, 844

// notFoundPages checks that an agent that is not there, and a path that
// is no page, get a page that says so: status 404, a way back, and no
// script asking the server again.
func notFoundPages(t *testing.T, ctx context.Context, problems *pageProblems, url string) {
	t.Helper()
	for _, path := range []string{"agents/nonexistent", "agents/999999999", "play/nonexistent", "compare/best/nonexistent", "nope"} {
		problems.expect(fmt.Sprintf("status of 404 (Not Found) (%s%s)", url, path))
		res, err := chromedp.Run(ctx, chromedp.NavigateResponse(url+path))
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != 404 {
			t.Errorf("/%s answers %d, want 404", path, res.Status)
		}
		page := eval[[]int](t, ctx, `[document.querySelectorAll("#notfound").length, document.querySelectorAll("#notfound a[href='/']").length, document.scripts.length,
			performance.getEntriesByType("resource").filter(e => e.name.includes("/api/")).length]`)
		if page[0] != 1 || page[1] != 1 || page[2] != 0 || page[3] != 0 {
			t.Errorf("/%s: %d not-found notes, %d links back, %d scripts, %d requests of the API; want 1, 1, 0, 0", path, page[0], page[1], page[2], page[3])
		}
		if msg := eval[string](t, ctx, `document.getElementById("message").textContent`); !strings.Contains(msg, strings.TrimPrefix(path, "agents/")) && !strings.Contains(msg, "no ") {
			t.Errorf("/%s says %q", path, msg)
		}
	}
	fits(t, ctx, url+"nope")
}

// fits checks that each page is no wider than the window: nothing to
// scroll sideways. (With a phone's emulation innerWidth grows with the
// content: clientWidth does not.)
func fits(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	pages := []struct{ path, drawn string }{
		{"", `document.querySelectorAll("#leaderboard tbody tr").length > 0 && document.querySelector("#chart canvas")`},
		{"agents/best", `document.querySelectorAll("#opponents tbody tr").length > 0 && document.querySelector("#chart canvas")`},
		{"agents/random", `document.querySelectorAll("#opponents tbody tr").length > 0`},
		{"agents/perfect", `document.querySelectorAll("#opponents tbody tr").length > 0`},
		{"play/best", `document.querySelectorAll("#board .cell:not([disabled])").length === 9`},
		{"compare/best/perfect", `document.querySelectorAll("#positions .position").length > 0 && document.querySelector("#chart canvas")`},
	}
	if strings.HasSuffix(url, "nope") {
		pages = []struct{ path, drawn string }{{"", `document.getElementById("notfound")`}}
	}
	for _, p := range pages {
		do(t, ctx, chromedp.Navigate(url+p.path))
		waitFor(t, ctx, p.drawn)
		w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`)
		if w[0] > w[1] {
			t.Errorf("%s%s is %d px wide in a window %d px wide", url, p.path, w[0], w[1])
		}
	}
}

// backAndForth goes from page to page in one tab, as a user does, by
// links, by the address and by the browser's back and forward, and checks
// that each page comes and follows the league; it logs how long each
// took. A page left stays alive in the browser's back/forward cache, and
// must let go of the event stream and take it again when it comes back.
// Chromium keeps a page in that cache only while another page keeps their
// shared stream's worker (events.js) alive, as a watcher's other tabs do:
// one is open meanwhile, and follows the league throughout.
func backAndForth(t *testing.T, ctx context.Context, problems *pageProblems, url string, round int) {
	other := newTab(t, ctx, problems)
	do(t, other, chromedp.Navigate(url+"agents/perfect"))
	defer func() {
		waitFor(t, other, fmt.Sprintf(`document.getElementById("round").dataset.round === "%d" && document.getElementById("live").classList.contains("on")`, round))
		do(t, other, chromedp.Navigate("about:blank"))
	}()
	type page struct{ at, drawn string }
	var (
		leaderboard = page{`location.pathname === "/"`, `document.querySelectorAll("#leaderboard tbody tr").length > 0`}
		agent       = page{`location.pathname.startsWith("/agents/")`, `document.querySelectorAll("#verify tbody tr").length === 2 && document.querySelectorAll("#opponents tbody tr").length > 0`}
		play        = page{`location.pathname.startsWith("/play/")`, `document.querySelectorAll("#board .cell").length === 9 && document.getElementById("opponent").textContent !== "…"`}
	)
	// Links are clicked by script: chromedp's queries of the DOM lose
	// their way in a page that came back from the cache.
	click := func(sel string) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).click()`, sel))
	}
	back := chromedp.Evaluate[chromedp.Void](`history.back()`)
	restored := 0
	for step, v := range []struct {
		how  string
		page page
		move chromedp.Action[chromedp.Void]
	}{
		{"the address", leaderboard, chromedp.Navigate(url)},
		{"a link", agent, click(`#leaderboard tbody tr.best td.agent a`)},
		{"a link", play, click(`#play-x`)},
		{"history.back()", agent, back},
		{"history.back()", leaderboard, back},
		{"history.forward()", agent, chromedp.Evaluate[chromedp.Void](`history.forward()`)},
		{"a link", agent, click(`#opponents tbody tr:last-child td.agent a`)},
		{"a link", play, click(`#play-o`)},
		{"the address", agent, chromedp.Navigate(url + "agents/perfect")},
		{"history.back()", play, back},
		{"history.back()", agent, back},
		{"a link", leaderboard, click(`.top .brand`)},
		{"the address", play, chromedp.Navigate(url + "play/latest")},
		{"history.back()", leaderboard, back},
	} {
		// A mark on the page left: the page that comes has none, or an
		// older one if it came back from the cache.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.mark = %d`, step)))
		start := time.Now()
		do(t, ctx, v.move)
		arrived(t, ctx, fmt.Sprintf(`window.mark !== %d && %s && %s && document.getElementById("live").classList.contains("on")
			&& document.getElementById("round").dataset.round === "%d"`, step, v.page.at, v.page.drawn, round))
		took := time.Since(start)
		if eval[bool](t, ctx, `window.mark !== undefined`) {
			restored++
		}
		t.Logf("%-18s to %-22s %v", v.how, eval[string](t, ctx, `location.pathname + location.search`), took.Round(time.Millisecond))
	}
	if restored == 0 {
		t.Error("no page came back from the back/forward cache: the test did not try it")
	}
}

// arrived waits until expr is true on the page, across a navigation under
// way: an evaluation that the navigation cuts short is tried again.
func arrived(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	deadline := time.Now().Add(clitest.Patience(t))
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			waitFor(t, ctx, expr) // fails, saying what the page shows
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// endings are how the play page shows the end of a game: the status
// line's colour and the mark before it.
var endings = map[string]string{
	"win":  `rgb(11, 122, 85) "✓"`,
	"tie":  `rgb(138, 147, 163) "="`,
	"loss": `rgb(194, 65, 45) "✗"`,
}
