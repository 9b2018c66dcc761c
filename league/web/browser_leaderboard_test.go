package web_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// The leaderboard in the browser: its chart, the agents it follows, its
// table, the address that keeps its view, and its dark mode.

// learners checks the pages of a league of two learners, the odd rounds
// the policy net's and the even the table's: the leaderboard names each
// agent's method as the API does, the chart draws a learning curve for
// each method from its own rounds, and the agent page says the method.
func learners(t *testing.T, ctx context.Context, shots string) {
	t.Helper()
	_, path := newLeague(t, 4, "--learners", "policy,table", "--games-per-round", "2000", "--hidden", "16", "--opponents", "8", "--openings", "1")
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before this server stops

	do(t, ctx, chromedp.Navigate(url+"?limit=100"))
	waitFor(t, ctx, `window.tttChart && document.querySelectorAll("#leaderboard tbody tr").length > 0 && document.querySelector("#chart").dataset.points === "4"`)
	var board struct {
		Agents []struct {
			Name   string
			Method *string
		}
	}
	getJSON(t, url+"api/leaderboard?limit=100", &board)
	var want []string
	for _, a := range board.Agents {
		want = append(want, a.Name+" "+cmp.Or(deref(a.Method), "–"))
	}
	shown := eval[[]string](t, ctx, `[...document.querySelectorAll("#leaderboard tbody tr")].map(tr => tr.querySelector("td.agent a").textContent + " " + tr.querySelector("td.method").textContent)`)
	if !slices.Equal(shown, want) || !slices.Contains(want, "checkpoint-6 policy") || !slices.Contains(want, "checkpoint-7 table") || !slices.Contains(want, "random –") {
		t.Errorf("the leaderboard shows %q; the API %q", shown, want)
	}

	// A curve for each method, named by it, with the ratings of its own
	// rounds and none at the other's.
	var progress struct {
		Points []struct {
			Round  int64
			Method string
			Elo    float64
		}
	}
	getJSON(t, url+"api/progress", &progress)
	labels := eval[[]string](t, ctx, legendLabels)
	if !slices.Contains(labels, "policy") || !slices.Contains(labels, "table") || slices.Contains(labels, "learning curve") {
		t.Errorf("the chart's legend has %q; want a curve for policy and one for table", labels)
	}
	for _, m := range []string{"policy", "table"} {
		got := eval[[]*float64](t, ctx, fmt.Sprintf(`tttChart.data[tttChart.series.findIndex(s => s.label === %q)]`, m))
		var wantElo, gotElo []string
		for i, p := range progress.Points {
			if want := map[bool]string{true: "policy", false: "table"}[p.Round%2 == 1]; p.Method != want {
				t.Errorf("round %d's point is %s's; want %s's", p.Round, p.Method, want)
			}
			w := "none"
			if p.Method == m {
				w = fmt.Sprint(p.Elo)
			}
			wantElo = append(wantElo, w)
			if i < len(got) && got[i] != nil {
				gotElo = append(gotElo, fmt.Sprint(*got[i]))
			} else {
				gotElo = append(gotElo, "none")
			}
		}
		if len(got) != len(progress.Points) || !slices.Equal(gotElo, wantElo) {
			t.Errorf("the chart's %s curve is %q; the API's points %q", m, gotElo, wantElo)
		}
	}
	screenshot(t, ctx, shots, "serve-learners.png")

	// The agent page says the method: a checkpoint's, and none for a
	// built-in player.
	for ref, want := range map[string]string{"checkpoint-6": "policy", "perfect": "none (a built-in player)"} {
		do(t, ctx, chromedp.Navigate(url+"agents/"+ref))
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById("name").textContent === %q && document.querySelectorAll("#facts dt").length > 0`, ref))
		facts := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#facts dt")].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))`)
		if facts["method"] != want {
			t.Errorf("%s's page says method %q; want %q", ref, facts["method"], want)
		}
	}
}

// leaderboardTable checks the leaderboard's table against the API as the
// user sorts it by a column, both ways, searches it by name, filters it
// by class and games, and pages through it, each view kept in the
// address.
func leaderboardTable(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	names := `[...document.querySelectorAll("#leaderboard tbody tr td.agent a")].map(a => a.textContent)`
	// shows waits until the table shows what the API answers to query,
	// and the address keeps query (the top 20 may leave it out).
	shows := func(query string) {
		t.Helper()
		var want struct {
			Agents  []struct{ Name string }
			BestRow *struct{ Name string } `json:"best_row"`
		}
		getJSON(t, url+"api/leaderboard?"+query, &want)
		list := []string{}
		for _, a := range want.Agents {
			list = append(list, a.Name)
		}
		// The best closes a page that leaves it out.
		if want.BestRow != nil {
			list = append(list, want.BestRow.Name)
		}
		js, _ := json.Marshal(list)
		kept, _ := json.Marshal(strings.Split(strings.TrimPrefix(query, "limit=20"), "&"))
		waitFor(t, ctx, fmt.Sprintf(`JSON.stringify(%s) === %q && %s.every(kv => location.search.includes(kv))`, names, js, kept))
	}
	do(t, ctx, chromedp.Navigate(url+"?limit=5"))
	shows("limit=5")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#next`)))
	shows("limit=5&offset=5")
	if first := eval[string](t, ctx, `document.querySelector("#leaderboard tbody td.num").textContent`); first != "6" {
		t.Errorf("the second page of 5 starts at #%s", first)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#leaderboard th[data-sort=games]`)))
	shows("limit=5&sort=games")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#leaderboard th[data-sort=games]`)))
	shows("limit=5&sort=games&order=asc")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#leaderboard th[data-sort=name]`)))
	shows("limit=5&sort=name&order=asc")
	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`#search`), "point-1"))
	shows("limit=5&sort=name&order=asc&q=point-1")
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#class-filter`), "beatable"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("class-filter").dispatchEvent(new Event("change"))`))
	shows("limit=5&sort=name&order=asc&q=point-1&class=beatable")
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#min-games`), "200"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("min-games").dispatchEvent(new Event("change"))`))
	shows("limit=5&sort=name&order=asc&q=point-1&class=beatable&min_games=200")
	// The address opens the same view.
	do(t, ctx, chromedp.Reload())
	shows("limit=5&sort=name&order=asc&q=point-1&class=beatable&min_games=200")
	if v := eval[[]string](t, ctx, `[document.getElementById("search").value, document.getElementById("class-filter").value, document.getElementById("min-games").value]`); !slices.Equal(v, []string{"point-1", "beatable", "200"}) {
		t.Errorf("the address opens the filters as %q", v)
	}
	do(t, ctx, chromedp.Navigate(url))
	shows("limit=20")
}

// darkMode checks that the pages follow the system's dark mode: a dark
// page, light text, and a learning curve drawn light.
func darkMode(t *testing.T, ctx context.Context, url, shots string) {
	t.Helper()
	dark := func(on bool) {
		params := emulation.SetEmulatedMediaParams{}
		if on {
			params.Features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, params); err != nil {
			t.Fatal(err)
		}
	}
	dark(true)
	defer dark(false)
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelectorAll("#leaderboard tbody tr").length > 0`)
	colors := eval[[]string](t, ctx, `[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).color, getComputedStyle(document.querySelector(".card")).backgroundColor, tttChart.series[1].stroke()]`)
	want := []string{"rgb(15, 19, 26)", "rgb(227, 231, 238)", "rgb(23, 28, 37)", "#e6e6e6"}
	if !slices.Equal(colors, want) {
		t.Errorf("in dark mode the page, its text, a card and the learning curve are %q; want %q", colors, want)
	}
	// 8. The pressed range button stands out from its card: WCAG's 3:1
	// for the parts of a control.
	if c := eval[float64](t, ctx, contrast(`document.querySelector("#range [aria-pressed=true]")`, `document.querySelector(".card")`)); c < 3 {
		t.Errorf("in dark mode the pressed range button's contrast with its card is %.2f:1; want 3:1 at least", c)
	}
	screenshot(t, ctx, shots, "serve-leaderboard-dark.png")
	dark(false)
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelector("#range [aria-pressed=true]")`)
	if c := eval[float64](t, ctx, contrast(`document.querySelector("#range [aria-pressed=true]")`, `document.querySelector(".card")`)); c < 3 {
		t.Errorf("the pressed range button's contrast with its card is %.2f:1; want 3:1 at least", c)
	}
}

// contrast is an expression: the contrast ratio of the background
// colours of the elements that a and b (expressions) are, as WCAG
// reckons it from their relative luminance.
func contrast(a, b string) string {
	return fmt.Sprintf(`(() => {
		const lum = (e) => {
			const [r, g, b] = getComputedStyle(e).backgroundColor.match(/\d+/g).slice(0, 3).map(Number).map((c) => {
				c /= 255;
				return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
			});
			return 0.2126 * r + 0.7152 * g + 0.0722 * b;
		};
		const [x, y] = [lum(%s), lum(%s)].sort((p, q) => q - p);
		return (x + 0.05) / (y + 0.05);
	})()`, a, b)
}

// legendLabels is an expression: the labels of the chart's legend.
const legendLabels = `[...document.querySelectorAll("#chart .u-legend .u-series th, #chart-shares .u-legend .u-series th")].map(e => e.textContent)`

// openWithBest opens the leaderboard as if the best it follows were
// another network, the best of the leaderboard's networks that is not
// the best: the page's first answer of the league's health names that
// network as the best. It returns that network's name.
func openWithBest(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	var board struct {
		Agents []struct {
			ID   int64
			Name string
			Kind string
			Best bool
		}
	}
	getJSON(t, url+"api/leaderboard", &board)
	var other map[string]any
	for _, a := range board.Agents {
		if a.Kind == "checkpoint" && !a.Best {
			getJSON(t, fmt.Sprintf("%sapi/agents/%d", url, a.ID), &other)
			break
		}
	}
	if other == nil {
		t.Fatal("the league has a single network")
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/health*", RequestStage: fetch.RequestStageResponse}}}); err != nil {
		t.Fatal(err)
	}
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	do(t, ctx, chromedp.Navigate(url))
	for ev, err := range paused {
		if err != nil {
			t.Fatal(err)
		}
		res, err := chromedp.Call(ctx, fetch.GetResponseBody, fetch.GetResponseBodyParams{RequestID: ev.RequestID})
		if err != nil {
			t.Fatal(err)
		}
		var health map[string]any
		if err := json.Unmarshal(res.Body, &health); err != nil {
			t.Fatalf("the health %q: %v", res.Body, err)
		}
		health["best"] = map[string]any{"id": other["id"], "name": other["name"], "kind": other["kind"], "class": other["class"], "standing": other["standing"]}
		body, _ := json.Marshal(health)
		if _, err := chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: 200,
			ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}, Body: body}); err != nil {
			t.Fatal(err)
		}
		break
	}
	if _, err := chromedp.Call(ctx, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	return other["name"].(string)
}

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
	// The best the pages show: the league's best, or one it leads by
	// less than the noise (best.go).
	var health struct {
		Best struct {
			ID   int64
			Name string
		}
	}
	getJSON(t, url+"api/health", &health)
	best := health.Best
	waitFor(t, ctx, fmt.Sprintf(`%s.includes(%q) && document.querySelector('#leaderboard tbody tr[data-id="%d"] input.follow').checked`, legendLabels, best.Name, best.ID))
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
