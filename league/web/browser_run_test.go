package web_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"ttt/agents/testkit"
)

// The dashboard's run and the chart by the league's games: the settings
// say when the last run started, when its --duration was to end and when
// it ended; the chart puts each round at the games the league had trained
// by then, on a log scale too with its labels, and in Connect Four the
// shares of optimal moves with it, a league of one round as well.
func TestBrowserRunAndGames(t *testing.T) {
	testkit.Long(t, "in Chromium, a run's settings and the charts by games of both games; TestBrowserLeaderboard opens one page")
	ctx, _ := newBrowser(t)
	_, path := newLeague(t, 3, append([]string{"--duration", "8h"}, leagueFlags...)...)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) })
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url))

	// The settings' run.
	waitFor(t, ctx, `document.querySelector("#run [data-fact='ended']") !== null && window.tttChart`)
	do(t, ctx, chromedp.Click(chromedp.CSS("#settings-card summary")))
	run := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#run dd")].map((d) => [d.dataset.fact, d.textContent]))`)
	title := eval[string](t, ctx, `document.querySelector("#run-title").textContent`)
	if title != "The last run" || !strings.Contains(run["planned end"], "(--duration 8h:") || !strings.Contains(run["rounds"], "3 at most") ||
		!clockText.MatchString(run["started"]) || !clockText.MatchString(run["ended"]) || !clockText.MatchString(run["planned end"]) {
		t.Errorf("the settings' run, titled %q: %q", title, run)
	}

	// By games, and by games on a log scale.
	do(t, ctx, chromedp.Click(chromedp.CSS("#games")))
	waitFor(t, ctx, `location.search.includes("x=games") && tttChart.series[0].label === "games"`)
	got := eval[[]float64](t, ctx, `tttChart.data[0]`)
	want := progressGames(t, ctx)
	if !slices.Equal(got, want) {
		t.Errorf("by games, the rounds are at %v; the league had trained %v", got, want)
	}
	labels := eval[[]string](t, ctx, `tttChart.axes[0]._values.filter((v) => v)`)
	if len(labels) < 2 || eval[string](t, ctx, `tttChart.axes[0].label`) != "training games of the league" {
		t.Errorf("by games, the x axis has labels %q", labels)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#log")))
	waitFor(t, ctx, `location.search.includes("x=games") && location.search.includes("log=1") && tttChart.scales.x.distr === 3`)
	if labels := eval[[]string](t, ctx, `tttChart.axes[0]._values.filter((v) => v)`); len(labels) < 3 {
		t.Errorf("by games on a log scale, the x axis has labels %q; want three at least", labels)
	}

	// Connect Four, one round: the shares by games too, half a tenth of
	// its games either side of it.
	c4 := morningGames[1]
	_, path = newLeague(t, 1, c4.flags...)
	_, url = serve(t, path)
	do(t, ctx, chromedp.Navigate(url+"?x=games"))
	waitFor(t, ctx, `window.tttShares && tttShares.series[0].label === "games" && document.querySelector("#chart").dataset.points === "1"`)
	games := progressGames(t, ctx)
	for _, chart := range []string{"tttChart", "tttShares"} {
		xs := eval[[]float64](t, ctx, chart+`.data[0]`)
		g := games[0]
		if len(games) != 1 || !slices.Equal(xs, []float64{g - g/10, g, g + g/10}) {
			t.Errorf("%s: a round of %v games is at %v", chart, games, xs)
		}
	}
	shares := eval[[]*float64](t, ctx, `tttShares.data.slice(1, 3).map((d) => d[1])`)
	if len(shares) != 2 || slices.Contains(shares, nil) {
		t.Errorf("the shares of the one round, by games: %v", shares)
	}
}

// progressGames are the games the league had trained at each point of
// /api/progress, a league of one learner: each snapshot's learner's.
func progressGames(t *testing.T, ctx context.Context) []float64 {
	t.Helper()
	games, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`fetch("/api/progress").then((r) => r.json()).then((p) => p.points.map((q) => q.train_games))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// clockText is a time as the dashboard writes it, local: 11-28 21:23:56.
var clockText = regexp.MustCompile(`^\d\d-\d\d \d\d:\d\d:\d\d`)
