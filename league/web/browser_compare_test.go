package web_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The compare page in the browser.

// comparePage checks the compare page of the best network and another
// against the API: the head-to-head record, the Elo difference, both
// rating histories on one chart, and every position where they move
// differently, page after page.
func comparePage(t *testing.T, ctx context.Context, url, shots string) {
	t.Helper()
	var board struct {
		Agents []struct {
			ID   int64
			Kind string
			Best bool
		}
	}
	getJSON(t, url+"api/leaderboard", &board)
	var other int64
	for _, a := range board.Agents {
		if a.Kind == "checkpoint" && !a.Best {
			other = a.ID
			break
		}
	}
	var want struct {
		A, B        struct{ Name string }
		Record      struct{ Wins, Draws, Losses int }
		Diff        struct{ Elo, Lo, Hi float64 }
		Compared    int
		Differences []struct{ A, B struct{ Move, Value string } }
	}
	getJSON(t, fmt.Sprintf("%sapi/compare/best/%d", url, other), &want)
	do(t, ctx, chromedp.Navigate(url+"agents/best"))
	waitFor(t, ctx, `document.getElementById("compare") !== null`)
	follow(t, ctx, "#compare")
	waitFor(t, ctx, `document.querySelectorAll("#positions .position").length > 0 && document.querySelector("#chart canvas") && document.getElementById("t-record").textContent !== "–"`)
	// The page compares the best with the newest network: the address
	// names the other one.
	do(t, ctx, chromedp.Navigate(fmt.Sprintf("%scompare/best/%d", url, other)))
	waitFor(t, ctx, `document.querySelectorAll("#positions .position").length > 0 && document.querySelector("#chart canvas") && document.getElementById("t-record").textContent !== "–"`)
	tiles := eval[[]string](t, ctx, `["record", "diff", "differ"].map(k => document.getElementById("t-" + k).textContent.replaceAll(",", ""))`)
	r := want.Record
	if w := []string{fmt.Sprintf("%d/%d/%d", r.Wins, r.Draws, r.Losses), fmt.Sprintf("%+.1f", want.Diff.Elo), strconv.Itoa(len(want.Differences))}; !slices.Equal(tiles, w) {
		t.Errorf("the compare page's tiles say %q; the API %q", tiles, w)
	}
	if labels := eval[[]string](t, ctx, legendLabels); !slices.Contains(labels, want.A.Name) || !slices.Contains(labels, want.B.Name) {
		t.Errorf("the compare chart's legend is %q; want %s and %s", labels, want.A.Name, want.B.Name)
	}
	if painted := eval[int](t, ctx, painted("#chart canvas")); painted < 500 {
		t.Errorf("the compare chart has %d painted pixels: nothing drawn", painted)
	}
	screenshot(t, ctx, shots, "serve-compare.png")
	// Every position, through "more".
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => { const m = document.getElementById("more"); while (!m.hidden) m.click(); })()`))
	shown := eval[[]string](t, ctx, `[...document.querySelectorAll("#positions .position")].map(p => p.dataset.a + " " + p.dataset.b)`)
	var moves []string
	for _, d := range want.Differences {
		moves = append(moves, d.A.Move+" "+d.B.Move)
	}
	if !slices.Equal(shown, moves) {
		t.Errorf("the compare page shows %d positions; the API lists %d where they differ, of %d", len(shown), len(moves), want.Compared)
	}
	// 10. Each position says its value, and marks each move below it as
	// a mistake (outside the agent's own play where it is); no caption
	// is cut off; the summary counts them.
	marks := eval[[]string](t, ctx, `[...document.querySelectorAll("#positions .position")].map(p => p.dataset.best + " " + [...p.querySelectorAll(".says")].map(s => s.querySelector(".value").textContent + (s.querySelector(".mark") ? "!" : "")).join(" "))`)
	for _, m := range marks {
		f := strings.Fields(m)
		for _, v := range f[1:] {
			if mistake := strings.HasSuffix(v, "!"); mistake == (strings.TrimSuffix(v, "!") == f[0]) {
				t.Errorf("a position of value %s shows a move %s", f[0], v)
			}
		}
	}
	if cut := eval[int](t, ctx, `[...document.querySelectorAll("#positions .says")].filter(e => e.scrollWidth > e.clientWidth).length`); cut > 0 {
		t.Errorf("%d captions of the positions are cut off", cut)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#positions-summary li").length`); n < 4 {
		t.Errorf("the summary of the positions has %d lines", n)
	}
	t.Logf("%s against %s: they move differently in %d of %d positions", want.A.Name, want.B.Name, len(want.Differences), want.Compared)
}
