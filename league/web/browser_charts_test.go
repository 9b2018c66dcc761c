package web_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The leaderboard's chart in the browser: its legend, the range a user
// drags, the rounds that come while it is open, and the address that
// keeps its view.

// legendLabels is an expression: the labels of the chart's legend.
const legendLabels = `[...document.querySelectorAll("#chart .u-legend .u-series th, #chart-shares .u-legend .u-series th")].map(e => e.textContent)`

// chartRange is an expression: the rounds the leaderboard's chart shows.
const chartRange = `[tttChart.scales.x.min, tttChart.scales.x.max]`

// dragChart drags the mouse across the middle of the leaderboard's
// chart, as a user who zooms in does, and returns the rounds it shows.
func dragChart(t *testing.T, ctx context.Context) []float64 {
	t.Helper()
	r := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("#chart .u-over").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	y := r[1] + r[3]/2
	do(t, ctx, chromedp.DragAndDropXY(r[0]+0.3*r[2], y, r[0]+0.7*r[2], y, 8),
		// The mouse leaves the chart: the legend shows the newest round.
		chromedp.MouseEvent(chromedp.MouseMoved, 1, 1))
	xs := eval[[]float64](t, ctx, `tttChart.data[0]`)
	// The page rounds the range to whole rounds, as the address keeps it.
	waitFor(t, ctx, `Number.isInteger(tttChart.scales.x.min) && Number.isInteger(tttChart.scales.x.max)`)
	got := eval[[]float64](t, ctx, chartRange)
	if got[0] <= xs[0] || got[1] >= xs[len(xs)-1] {
		t.Fatalf("after a drag across its middle the chart shows rounds %v of %v..%v", got, xs[0], xs[len(xs)-1])
	}
	return got
}

// liveChart checks the leaderboard's chart after rounds that came while
// it was open: the range the user chose is kept, the legend's values are
// those of the chart's data, the chart follows the best of the newest
// round in place of the best it followed, and its y axis fits the
// ratings rather than the widest interval.
func liveChart(t *testing.T, ctx context.Context, url string, zoom []float64, formerBest, bestStroke string) {
	t.Helper()
	if got := eval[[]float64](t, ctx, chartRange); !slices.Equal(got, zoom) {
		t.Errorf("after three rounds the chart shows rounds %v; the user chose %v", got, zoom)
	}
	// The league's best, which the tile, the ★ and the chart all name.
	var health struct {
		Best struct {
			ID   int64
			Name string
		}
	}
	getJSON(t, url+"api/health", &health)
	best := health.Best
	waitFor(t, ctx, fmt.Sprintf(`%s.includes(%q) && document.querySelector('#leaderboard tbody tr[data-id="%d"] input.follow').checked`, legendLabels, best.Name, best.ID))
	// The tile and the ★ name it, as the Best agent link does.
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector("#t-best a").textContent === %q && document.querySelector('#leaderboard tbody tr.best').dataset.id === "%d"`, best.Name, best.ID))
	if best.Name != formerBest && slices.Contains(eval[[]string](t, ctx, legendLabels), formerBest) {
		t.Errorf("the chart still follows %s, the best when the page opened; the best is %s", formerBest, best.Name)
	}
	if got := eval[string](t, ctx, fmt.Sprintf(`tttChart.series.find(s => s.label === %q).stroke()`, best.Name)); got != bestStroke {
		t.Errorf("the best's line was %s while it followed %s, and is %s for %s", bestStroke, formerBest, got, best.Name)
	}
	// Each round after the first load asked only for the points since.
	if asked := eval[[]string](t, ctx, `performance.getEntriesByType("resource").map(e => new URL(e.name)).filter(u => u.pathname === "/api/progress").map(u => u.search)`); len(asked) < 4 || asked[0] != "" || slices.ContainsFunc(asked[1:], func(q string) bool { return !strings.HasPrefix(q, "?after=") }) {
		t.Errorf("the page asked for the learning curve with %q; want the whole once, then ?after=ROUND", asked)
	}
	// The legend at the newest round (no cursor on the chart) against
	// the API's newest point of the learning curve.
	legend := eval[string](t, ctx, `document.querySelectorAll("#chart .u-legend .u-series")[1].querySelector(".u-value").textContent`)
	want, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("/api/progress").then(r => r.json()).then(p => {
		const q = p.points[p.points.length - 1];
		return q.elo.toFixed(0) + " [" + Math.round(q.lo) + ", " + Math.round(q.hi) + "]";
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if legend != want {
		t.Errorf("the legend says %q of the learning curve's newest round; its data %q (%s)", legend, want,
			eval[string](t, ctx, `JSON.stringify([tttChart.data[0].slice(-3), tttChart.data[1].slice(-3), tttChart.data[2].slice(-3), tttChart.cursor.idx, tttChart.legend.idx])`))
	}
	// The y axis spans the ratings in view with a margin, not intervals.
	fit := eval[[]float64](t, ctx, `(() => {
		const u = tttChart, xs = u.data[0];
		let lo = Infinity, hi = -Infinity, wlo = Infinity, whi = -Infinity;
		u.data.forEach((ys, si) => ys.forEach((y, k) => {
			if (si === 0 || y == null || xs[k] < u.scales.x.min || xs[k] > u.scales.x.max) return;
			if (si === 2 || si === 3) { wlo = Math.min(wlo, y); whi = Math.max(whi, y); return; }
			lo = Math.min(lo, y); hi = Math.max(hi, y);
		}));
		return [u.scales.y.min, u.scales.y.max, lo, hi, wlo, whi];
	})()`)
	span := fit[3] - fit[2]
	if margin := max(20, 0.2*span); fit[0] > fit[2] || fit[1] < fit[3] || fit[0] < fit[2]-margin || fit[1] > fit[3]+margin {
		t.Errorf("the y axis spans %.0f..%.0f; the ratings in view %.0f..%.0f (intervals %.0f..%.0f)", fit[0], fit[1], fit[2], fit[3], fit[4], fit[5])
	}
}

// sharedView checks that the chart's range and the agents ticked are in
// the address, that the address opens the same view, and the range
// buttons.
func sharedView(t *testing.T, ctx context.Context, zoom []float64) {
	t.Helper()
	followed := eval[string](t, ctx, `document.querySelector("#chart").dataset.followed`)
	search := eval[string](t, ctx, `location.search`)
	want := fmt.Sprintf("rounds=%.0f-%.0f", zoom[0], zoom[1])
	if !strings.Contains(search, want) || !strings.Contains(search, "follow=") {
		t.Errorf("the address keeps %q; want %s and the agents ticked", search, want)
	}
	do(t, ctx, chromedp.Reload())
	waitFor(t, ctx, fmt.Sprintf(`window.tttChart && document.querySelector("#chart").dataset.followed === %q`, followed))
	if got := eval[[]float64](t, ctx, chartRange); !slices.Equal(got, zoom) {
		t.Errorf("the address %q opens rounds %v; want %v", search, got, zoom)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#range [data-range=all]`)))
	waitFor(t, ctx, `tttChart.scales.x.min === tttChart.data[0][0] && tttChart.scales.x.max === tttChart.data[0].at(-1) && !location.search.includes("rounds=")`)
	do(t, ctx, chromedp.Click(chromedp.CSS("#log")))
	waitFor(t, ctx, `tttChart.scales.x.distr === 3 && location.search.includes("log=1") && document.getElementById("log").getAttribute("aria-pressed") === "true"`)
	do(t, ctx, chromedp.Click(chromedp.CSS("#log")))
	waitFor(t, ctx, `tttChart.scales.x.distr === 1 && !location.search.includes("log=1")`)
}
