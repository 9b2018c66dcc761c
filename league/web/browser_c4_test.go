package web_test

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"

	"ttt/league/commands/clitest"
)

// A Connect Four league in the browser: the shares of optimal moves, the
// agent page's position sets and ladder, the health of a league.

// connectFour checks the pages of a Connect Four league: the leaderboard
// charts the share of optimal moves beside Elo, the agent page shows the
// position set's figures and the record against the ladder, and whole
// games are played on the page, at a desk and on a phone.
func connectFour(t *testing.T, ctx context.Context, shots string) {
	t.Helper()
	_, path := newLeague(t, 4, "--game", "connect4", "--games-per-round", "300", "--tuples", "8", "--tuple-length", "6", "--opponents", "4", "--openings", "1", "--ladder-interval", "200", "--seed", "3")
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before this server stops

	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelectorAll("#leaderboard tbody tr").length > 0 && document.querySelector("#chart").dataset.points === "4"`)
	// The shares of both position sets, the random-ply set's first, each
	// with the tactician's and random's (the floor) flat.
	var progress struct {
		Points []struct {
			Share       *float64
			RandomShare *float64 `json:"random_share"`
		}
		References []struct {
			Name        string
			Share       *float64
			RandomShare *float64 `json:"random_share"`
		}
		Floor       *float64
		FloorRandom *float64 `json:"floor_random"`
	}
	getJSON(t, url+"api/progress", &progress)
	var tactical, random []float64
	for _, p := range progress.Points {
		if p.Share == nil || p.RandomShare == nil {
			t.Fatalf("a point of the learning curve lacks a share: %+v", progress.Points)
		}
		tactical, random = append(tactical, *p.Share), append(random, *p.RandomShare)
	}
	if progress.Floor == nil || progress.FloorRandom == nil {
		t.Fatalf("the learning curve has floors %v and %v", progress.Floor, progress.FloorRandom)
	}
	flat := map[string]float64{"random on the random-ply set": *progress.FloorRandom, "random on the tactical set": *progress.Floor}
	for _, r := range progress.References {
		if r.Share != nil && r.RandomShare != nil {
			flat[r.Name+" on the random-ply set"], flat[r.Name+" on the tactical set"] = *r.RandomShare, *r.Share
		}
	}
	labels := eval[[]string](t, ctx, legendLabels)
	for _, l := range []string{"learning curve", "random-ply set", "tactical set", "tactician on the random-ply set", "tactician on the tactical set"} {
		if !slices.Contains(labels, l) {
			t.Errorf("the chart's legend has %q; want %q among them", labels, l)
		}
	}
	if slices.Index(labels, "random-ply set") > slices.Index(labels, "tactical set") {
		t.Errorf("the chart's legend has %q: the tactical set before the random-ply set", labels)
	}
	series := func(label string) []*float64 {
		return eval[[]*float64](t, ctx, fmt.Sprintf(`tttShares.data[tttShares.series.findIndex(s => s.label === %q)] ?? null`, label))
	}
	for label, want := range map[string][]float64{"random-ply set": random, "tactical set": tactical} {
		var got []float64
		for _, v := range series(label) {
			// A round the chart leaves empty reads -1, which no share is.
			got = append(got, *cmp.Or(v, new(float64(-1))))
		}
		if !slices.Equal(got, want) {
			t.Errorf("the chart draws %v on the %s; the API's %v", got, label, want)
		}
	}
	for label, want := range flat {
		got := series(label)
		if len(got) != len(progress.Points) || slices.ContainsFunc(got, func(v *float64) bool { return v == nil || *v != want }) {
			t.Errorf("the chart's %q is %v; want %v at every round", label, got, want)
		}
	}
	// The badges lead with the random-ply set, and name both sets.
	var board struct {
		Agents []struct {
			Name   string
			Shares *struct{ Random, All *struct{ Pct float64 } }
		}
	}
	getJSON(t, url+"api/leaderboard", &board)
	badges := eval[map[string][]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#leaderboard tbody tr")].map(tr => {
		const b = tr.querySelector(".badge");
		return [tr.querySelector("td.agent a").textContent, [b.textContent, b.title]];
	}))`)
	measured := 0
	for _, a := range board.Agents {
		if a.Shares == nil || a.Shares.Random == nil {
			continue
		}
		measured++
		text, title := fmt.Sprintf("%.1f%% opt", a.Shares.Random.Pct), fmt.Sprintf("optimal moves: %.1f%% of the random-ply set, %.1f%% of the tactical set", a.Shares.Random.Pct, a.Shares.All.Pct)
		if b := badges[a.Name]; len(b) != 2 || b[0] != text || !strings.HasPrefix(b[1], title) {
			t.Errorf("%s's badge is %q; want %q titled %q", a.Name, b, text, title)
		}
	}
	if measured == 0 {
		t.Errorf("no agent of the leaderboard has a share of the random-ply set: %+v", board.Agents)
	}
	if got := eval[[]string](t, ctx, `[...document.querySelectorAll("#leaderboard th.check")].map(e => e.textContent)`); !slices.Equal(got, []string{"Optimal", "Early", "Middle", "Late"}) {
		t.Errorf("the leaderboard's check columns are %q", got)
	}
	// The shares on a chart of their own, on an axis within 0-100%, and
	// the ratings' axis spans the ratings alone.
	axes := eval[[]float64](t, ctx, `[tttShares.scales.y.min, tttShares.scales.y.max, tttChart.scales.y.min, tttChart.scales.y.max, Object.keys(tttChart.scales).length]`)
	if axes[0] < 0 || axes[1] > 100 || axes[1] <= axes[0] || axes[4] != 2 {
		t.Errorf("the shares' axis spans %.1f..%.1f%%, the ratings' %.0f..%.0f, with %.0f scales: want the shares within 0-100%% on a chart of their own", axes[0], axes[1], axes[2], axes[3], axes[4])
	}
	screenshot(t, ctx, shots, "serve-c4-leaderboard.png")

	// The best agent's page: its shares as the API has them, the
	// random-ply set's first, in its tile and above the tactical set's
	// rows.
	var best struct {
		Name   string
		Shares struct {
			Random                   *struct{ Pct float64 }
			All, Early, Middle, Late struct{ Pct float64 }
		}
		Floor struct{ Random, All, Early, Middle, Late float64 }
	}
	getJSON(t, url+"api/agents/best", &best)
	if best.Shares.Random == nil {
		t.Fatalf("the best, %s, has no share of the random-ply set", best.Name)
	}
	do(t, ctx, chromedp.Navigate(url+"agents/best"))
	waitFor(t, ctx, `document.querySelectorAll("#shares tbody tr").length === 5 && document.querySelectorAll("#ladder tbody tr[data-id]").length > 0 && document.querySelector("#chart canvas")`)
	shown := eval[[]string](t, ctx, `[...document.querySelectorAll("#shares tbody tr")].map(tr => tr.cells[0].textContent + " " + tr.querySelector("td.share").textContent + " " + tr.cells[3].textContent)`)
	var wantShown []string
	for _, r := range []struct {
		label       string
		share, from float64
	}{
		{"random-ply set", best.Shares.Random.Pct, best.Floor.Random}, {"tactical set", best.Shares.All.Pct, best.Floor.All},
		{"early (up to 14 stones)", best.Shares.Early.Pct, best.Floor.Early}, {"middle (15 to 22)", best.Shares.Middle.Pct, best.Floor.Middle},
		{"late (23 and more)", best.Shares.Late.Pct, best.Floor.Late},
	} {
		wantShown = append(wantShown, fmt.Sprintf("%s %.1f%% %.1f%%", r.label, r.share, r.from))
	}
	if !slices.Equal(shown, wantShown) || !eval[bool](t, ctx, `document.getElementById("verify-card").hidden`) {
		t.Errorf("the agent page shows shares %q, want %q, in place of the exhaustive check", shown, wantShown)
	}
	tile := eval[[]string](t, ctx, `["t-x", "t-x-sub", "class"].map(id => document.getElementById(id).textContent)`)
	if want := fmt.Sprintf("%.1f%%", best.Shares.Random.Pct); tile[0] != want || !strings.Contains(tile[1], fmt.Sprintf("(random %.1f%%)", best.Floor.Random)) ||
		!strings.HasPrefix(tile[2], want+" opt") {
		t.Errorf("the agent page's optimal moves %q, badge %q; want %s, beside random's %.1f%%", tile[:2], tile[2], want, best.Floor.Random)
	}
	ladder := eval[[]string](t, ctx, `[...document.querySelectorAll("#ladder td.agent a")].map(e => e.textContent)`)
	if !slices.Contains(ladder, "random") || !slices.Contains(ladder, "tactician") {
		t.Errorf("the record against the ladder names %q; want random and the tactician", ladder)
	}
	// By side, as the API gives them: W/D/L as X and as O.
	var page struct {
		Rows []struct {
			Name  string
			Sides *struct {
				X, O struct{ Wins, Draws, Losses int }
			}
		}
	}
	getJSON(t, url+"api/agents/best/opponents", &page)
	var wantSides []string
	for _, o := range page.Rows {
		if slices.Contains(ladder, o.Name) && o.Sides != nil {
			x, o := o.Sides.X, o.Sides.O
			wantSides = append(wantSides, fmt.Sprintf("%d/%d/%d %d/%d/%d", x.Wins, x.Draws, x.Losses, o.Wins, o.Draws, o.Losses))
		}
	}
	bySide := eval[[]string](t, ctx, `[...document.querySelectorAll("#ladder tbody tr")].map(r => r.querySelector(".side-x").textContent + " " + r.querySelector(".side-o").textContent)`)
	if len(wantSides) != len(ladder) || !slices.Equal(bySide, wantSides) {
		t.Errorf("the record against the ladder by side shows %q; the API has %q", bySide, wantSides)
	}

	// Whole games: at a desk as X and as O, on a phone as X.
	for _, g := range []struct {
		phone bool
		side  string
	}{{false, "X"}, {false, "O"}, {true, "X"}} {
		if g.phone {
			do(t, ctx, chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateScale(3), chromedp.EmulateMobile))
		} else {
			do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight))
		}
		do(t, ctx, chromedp.Navigate(url+"play/best?as="+g.side))
		// 10. Which colour is which side.
		waitFor(t, ctx, `document.getElementById("colours").textContent === "Xyellow, moves first; Ored"`)
		playColumns(t, ctx, url, best.Name, connectFourBoard)
		if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
			t.Errorf("the Connect Four play page is %d px wide in a window %d px wide", w[0], w[1])
		}
		if g.side == "X" {
			name := "serve-c4-play.png"
			if g.phone {
				name = "serve-c4-play-phone.png"
			}
			screenshot(t, ctx, shots, name)
		}
	}
	// The other pages of a Connect Four league fit a phone too; the
	// compare page draws its positions as seven columns.
	for _, p := range []struct{ path, drawn string }{
		{"", `document.querySelectorAll("#leaderboard tbody tr").length > 0 && document.querySelector("#chart canvas")`},
		{"agents/best", `document.querySelectorAll("#shares tbody tr").length === 5 && document.querySelector("#chart canvas")`},
		{"compare/best/tactician", `document.querySelectorAll("#positions .position .mini.drop").length > 0 && document.querySelector("#chart canvas")`},
	} {
		do(t, ctx, chromedp.Navigate(url+p.path))
		waitFor(t, ctx, p.drawn)
		if w := eval[[]int](t, ctx, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
			t.Errorf("%s%s is %d px wide on a phone %d px wide", url, p.path, w[0], w[1])
		}
	}
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight))
	leagueHealth(t, ctx, url, path)
}

// leagueHealth checks what the leaderboard says of the league while a
// league run works on it and once it stops: the live dot, whether it
// runs, its pace.
func leagueHealth(t *testing.T, ctx context.Context, url, path string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `document.getElementById("live").dataset.running === "false" && document.querySelector("#h-running b")?.textContent === "stopped"
		&& document.getElementById("live").classList.contains("stopped")`)
	run := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "league", "run", "--db", path)
	run.WaitOutput(t, "round ")
	waitFor(t, ctx, `document.getElementById("live").dataset.running === "true" && document.querySelector("#h-running b")?.textContent === "running"
		&& !document.getElementById("live").classList.contains("stopped") && document.getElementById("h-pace") !== null`)
	var health struct {
		Running bool
		PerHour float64 `json:"rounds_per_hour"`
	}
	getJSON(t, url+"api/health", &health)
	if !health.Running || health.PerHour <= 0 {
		t.Errorf("with a league run at work the API says %+v", health)
	}
	if _, stderr, code := run.Stop(t, syscall.SIGINT); code != 130 {
		t.Fatalf("league run: exit %d after Ctrl-C\n%s", code, stderr)
	}
	waitFor(t, ctx, `document.getElementById("live").dataset.running === "false" && document.querySelector("#h-running b")?.textContent === "stopped"`)
}
