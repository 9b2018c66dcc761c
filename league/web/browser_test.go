package web_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"ttt/agents/toy"
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

// The viewport of the test and of the screenshots.
const viewWidth, viewHeight = 1280, 800

// liveLimit is how soon after its commit a round must show on an open
// leaderboard.
const liveLimit = 2 * time.Second

func TestBrowser(t *testing.T) {
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

	// A new round shows on the open page within liveLimit of its commit:
	// three league runs of a round each, so that each round's time is
	// its own however fast the machine plays. The round's line is printed
	// right after its commit.
	for range 3 {
		rounds++
		league := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "league", "run", "--db", path, "--rounds", "1")
		league.WaitOutput(t, fmt.Sprintf("round %d ", rounds))
		committed := time.Now()
		snapshot := regexp.MustCompile(fmt.Sprintf(`round %d  (\S+)`, rounds)).FindStringSubmatch(league.Stdout())[1]
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById("round").dataset.round === "%d" && document.getElementById("t-rounds").textContent === "%d"
			&& document.querySelector("#chart").dataset.points === "%d" && document.querySelector("#t-latest a")?.textContent === %q`, rounds, rounds, rounds, snapshot))
		latency := time.Since(committed)
		t.Logf("round %d on the page %v after its commit", rounds, latency.Round(time.Millisecond))
		if latency > liveLimit {
			t.Errorf("round %d showed on the page %v after its commit; want within %v", rounds, latency, liveLimit)
		}
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
	toyGame(t, ctx)
	tablePages(t, ctx)
	learners(t, ctx, shots)
	morning(t, ctx, url)
	watcher(t, ctx, problems)
}

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

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// connectFour checks the pages of a Connect Four league: the leaderboard
// charts the share of optimal moves beside Elo, the agent page shows the
// position set's figures and the record against the ladder, and whole
// games are played on the page, at a desk and on a phone.
func connectFour(t *testing.T, ctx context.Context, shots string) {
	t.Helper()
	_, path := newLeague(t, 4, "--game", "connect4", "--games-per-round", "300", "--tuples", "8", "--tuple-length", "6", "--opponents", "4", "--openings", "1", "--seed", "3")
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

// dropBoard is a board of a game whose stones drop, as the play page
// shows it: cols columns of rows cells, inRow stones in a row winning;
// human is the built-in player whose moves the test plays.
type dropBoard struct {
	cols, rows, inRow int
	human             string
}

// connectFourBoard is Connect Four's, the tactician playing the human.
var connectFourBoard = dropBoard{cols: 7, rows: 6, inRow: 4, human: "tactician"}

// playColumns plays the game on the page, one whose stones drop on b,
// to its end, the human playing b.human's moves (from the API), and
// checks what the page shows on the way: b's columns of cells, each
// stone where it fell, the agent's thoughts of each column, and the end.
func playColumns(t *testing.T, ctx context.Context, url, name string, b dropBoard) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`document.querySelectorAll("#board .column").length === %d && document.querySelectorAll("#board .disc").length === %d && document.getElementById("opponent").textContent !== "…"`, b.cols, b.cols*b.rows))
	for turn := 0; ; turn++ {
		if turn > b.cols*b.rows {
			t.Fatalf("the game did not end within %d moves", b.cols*b.rows)
		}
		state := poll[string](t, ctx, `document.getElementById("board").dataset.over === "true" ? "over"
			: document.querySelector("#board .column:not([disabled])") ? "move" : ""`)
		if state == "over" {
			break
		}
		moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
		// The stones on the page are those of the moves, each at the
		// bottom of its column.
		heights := make([]int, b.cols)
		want := map[string]string{}
		if moves != "" {
			for i, m := range strings.Split(moves, ",") {
				col, _ := strconv.Atoi(m)
				want[fmt.Sprintf("%d,%d", col, heights[col-1])] = "XO"[i%2 : i%2+1]
				heights[col-1]++
			}
		}
		got := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#board .disc.X, #board .disc.O")].map(d =>
			[d.closest(".column").dataset.col + "," + d.dataset.row, d.classList.contains("X") ? "X" : "O"]))`)
		if !maps.Equal(got, want) {
			t.Fatalf("after moves %s the board shows %v; want %v", moves, got, want)
		}
		if moves != "" {
			thoughts := eval[[]string](t, ctx, `[...document.querySelectorAll("#thoughts .thought")].map(e => e.textContent)`)
			chosen := eval[int](t, ctx, `document.querySelectorAll("#thoughts .thought.chosen").length`)
			if len(thoughts) != b.cols || chosen != 1 || !slices.ContainsFunc(thoughts, func(s string) bool { return strings.HasSuffix(s, "%") }) {
				t.Errorf("after its move the page shows %q with %d chosen; want %d columns, one chosen, probabilities", thoughts, chosen, b.cols)
			}
		}
		var human struct{ Move string }
		getJSON(t, url+"api/agents/"+b.human+"/move?moves="+moves, &human)
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .column[data-col="%s"]:not([disabled])`, human.Move))))
	}
	status := eval[string](t, ctx, `document.getElementById("status").textContent`)
	result := eval[string](t, ctx, `document.getElementById("status").dataset.result`)
	want := map[string]string{"win": "You win!", "tie": "A tie.", "loss": name + " wins."}[result]
	if want == "" || status != want {
		t.Errorf("at the end the page says %q (result %q)", status, result)
	}
	if told := eval[string](t, ctx, `(() => { const s = document.getElementById("status"); return getComputedStyle(s).color + " " + getComputedStyle(s, "::before").content; })()`); told != endings[result] {
		t.Errorf("a %s is shown as %q, want %q", result, told, endings[result])
	}
	if result != "tie" && eval[int](t, ctx, `document.querySelectorAll("#board .disc.won").length`) < b.inRow {
		t.Errorf("a %s with no %d in a row shown", result, b.inRow)
	}
	if free := eval[int](t, ctx, `document.querySelectorAll("#board .column:not([disabled])").length`); free != 0 {
		t.Errorf("after the end %d columns can be played", free)
	}
	t.Logf("a game of %d columns against %s: moves %s, %s", b.cols, name, eval[string](t, ctx, `document.getElementById("board").dataset.moves`), status)
}

// toyGame plays a game of Connect Three (package toy), which no page
// knows by name, on five columns of four cells, and checks that the
// leaderboard shows its checkpoints' shares of the position sets, as it
// does Connect Four's.
func toyGame(t *testing.T, ctx context.Context) {
	t.Helper()
	_, path := newLeague(t, 2, "--game", toy.Game.Name(), "--games-per-round", "300", "--opponents", "4")
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before this server stops
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `document.querySelectorAll("#leaderboard tbody tr").length > 0 && document.querySelector("#chart").dataset.points === "2"`)
	if th := eval[string](t, ctx, `[...document.querySelectorAll("#leaderboard thead th")].map(th => th.textContent).join(" ")`); !strings.Contains(th, "Optimal") {
		t.Errorf("the leaderboard of a game measured by its position sets has the columns %q", th)
	}
	var best struct{ Name string }
	getJSON(t, url+"api/agents/best", &best)
	do(t, ctx, chromedp.Navigate(url+"play/best"))
	playColumns(t, ctx, url, best.Name, dropBoard{cols: toy.Cols, rows: toy.Rows, inRow: 3, human: "mcts-10"})
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

// The phone of the test: its viewport in CSS pixels (device scale 3).
const phoneWidth, phoneHeight = 390, 844

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

// failedMove checks the play page when the agent's move fails: the page
// says so and offers to ask again, and the board waits; asked again, the
// agent moves.
func failedMove(t *testing.T, ctx context.Context, problems *pageProblems, url, name string) {
	// The next move request gets the answer of a busy database.
	problems.expect("the server responded with a status of 503")
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/move?*"}}}); err != nil {
		t.Fatal(err)
	}
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	do(t, ctx, chromedp.Navigate(url+"play/best?as=X"))
	waitFor(t, ctx, `document.querySelectorAll("#board .cell:not([disabled])").length === 9`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#board .cell[data-sq="4"]`)))
	var req fetch.EventRequestPaused
	for ev, err := range paused {
		if err != nil {
			t.Fatal(err)
		}
		req = ev
		break
	}
	busy := `{"status":503,"message":"the database is busy: another ttt held its lock for too long"}`
	if _, err := chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: req.RequestID, ResponseCode: 503,
		ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(busy)}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	want := name + " could not move: the database is busy: another ttt held its lock for too long"
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById("status").textContent.startsWith(%q) && document.getElementById("retry") !== null`, want))
	if free := eval[int](t, ctx, `document.querySelectorAll("#board .cell:not([disabled])").length`); free != 0 {
		t.Errorf("after the failed move %d cells can be played; want none: it is the agent's move", free)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#retry")))
	waitFor(t, ctx, `document.getElementById("status").textContent === "`+name+` played square " + document.getElementById("board").dataset.moves.split(",")[1] + ". Your move." && document.getElementById("board").dataset.moves.split(",").length === 2`)
}

// backAndForth goes from page to page in one tab, as a user does, by
// links, by the address and by the browser's back and forward, and checks
// that each page comes within viewLimit and follows the league. A page
// left stays alive in the browser's back/forward cache, and must let go
// of the event stream and take it again when it comes back. Chromium
// keeps a page in that cache only while another page keeps their shared
// stream's worker (events.js) alive, as a watcher's other tabs do: one
// is open meanwhile, and follows the league throughout.
func backAndForth(t *testing.T, ctx context.Context, problems *pageProblems, url string, round int) {
	const viewLimit = 5 * time.Second
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
		if took > viewLimit {
			t.Errorf("page view %d (%s) took %v; want within %v", step+1, v.how, took, viewLimit)
		}
	}
	if restored == 0 {
		t.Error("no page came back from the back/forward cache: the test did not try it")
	}
}

// arrived waits until expr is true on the page, across a navigation under
// way: an evaluation that the navigation cuts short is tried again.
func arrived(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	deadline := time.Now().Add(pageWait)
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

// playGame plays the page's game to its end, the human playing perfect's
// moves (from the API), and checks what the page shows on the way: after
// each of the agent's moves, thoughts of which one at least is like
// thought.
func playGame(t *testing.T, ctx context.Context, url, name string, thought *regexp.Regexp) {
	t.Helper()
	waitFor(t, ctx, `document.querySelectorAll("#board .cell").length === 9 && document.getElementById("opponent").textContent !== "…"`)
	for turn := 0; ; turn++ {
		if turn > 9 {
			t.Fatal("the game did not end within 9 moves")
		}
		state := poll[string](t, ctx, `document.getElementById("board").dataset.over === "true" ? "over"
			: document.querySelector("#board .cell:not([disabled])") ? "move" : ""`)
		if state == "over" {
			break
		}
		// Every row of the board as high as the others, whatever marks
		// they hold.
		if rows := eval[[]float64](t, ctx, `[...document.querySelectorAll("#board .cell")].map(c => c.getBoundingClientRect().height)`); slices.Min(rows) != slices.Max(rows) {
			t.Errorf("the board's squares are %v px high: its rows change as marks appear", rows)
		}
		moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
		if moves != "" {
			// It is the human's turn: the agent made the last move, and
			// the page shows what it thought of each square.
			thoughts := eval[[]string](t, ctx, `[...document.querySelectorAll("#thoughts .thought")].map(e => e.textContent)`)
			chosen := eval[int](t, ctx, `document.querySelectorAll("#thoughts .thought.chosen").length`)
			if len(thoughts) != 9 || chosen != 1 || !slices.ContainsFunc(thoughts, thought.MatchString) {
				t.Errorf("after its move the page shows %q with %d chosen; want 9 cells, one chosen, thoughts like %s", thoughts, chosen, thought)
			}
		}
		var perfect struct{ Move string }
		getJSON(t, url+"api/agents/perfect/move?moves="+moves, &perfect)
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .cell[data-sq="%s"]:not([disabled])`, perfect.Move))))
	}
	status := eval[string](t, ctx, `document.getElementById("status").textContent`)
	result := eval[string](t, ctx, `document.getElementById("status").dataset.result`)
	want := map[string]string{"win": "You win!", "tie": "A tie.", "loss": name + " wins."}[result]
	if want == "" || status != want {
		t.Errorf("at the end the page says %q (result %q)", status, result)
	}
	// The end told by more than words: a colour and a mark of its own.
	if told := eval[string](t, ctx, `(() => { const s = document.getElementById("status"); return getComputedStyle(s).color + " " + getComputedStyle(s, "::before").content; })()`); told != endings[result] {
		t.Errorf("a %s is shown as %q, want %q", result, told, endings[result])
	}
	moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
	t.Logf("a game against %s: moves %s, %s", name, moves, status)
}

// probability and tableValue are how the play page shows a network's
// thought of a square (97.1%) and a table's (-3.54).
var probability, tableValue = regexp.MustCompile(`%$`), regexp.MustCompile(`^-?\d+\.\d\d$`)

// tablePages checks the pages of a table of values in a league: its facts
// say what it is, it downloads its table file and no file for a side,
// and a whole game is played against it, which shows its values.
func tablePages(t *testing.T, ctx context.Context) {
	t.Helper()
	p, path := newLeague(t, 2, tableFlags...)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before this server stops

	var a struct {
		Name  string
		Table int
	}
	getJSON(t, url+"api/agents/6", &a)
	do(t, ctx, chromedp.Navigate(url+"agents/6"))
	waitFor(t, ctx, `document.querySelectorAll("#facts dt").length > 0 && document.querySelectorAll("#verify tbody tr").length === 2`)
	facts := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#facts dt")].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))`)
	if facts["method"] != "table" || strings.ReplaceAll(facts["table"], ",", "") != fmt.Sprintf("%d values", a.Table) || facts["network"] != "" {
		t.Errorf("the table's facts: %q; want method table and %d values, no network", facts, a.Table)
	}
	if eval[bool](t, ctx, `document.getElementById("weights-x") !== null`) {
		t.Error("the table's page offers a file for X: a table has no side to fold")
	}
	got := download(t, ctx, "#weights", a.Name+"-table.bin")
	p.OK(t, "export", "--db", "league.db", "--checkpoint", "6", "-o", "table.bin")
	if !bytes.Equal(got, p.File(t, "table.bin")) {
		t.Errorf("the downloaded table (%d bytes) is not ttt export's (%d bytes)", len(got), len(p.File(t, "table.bin")))
	}
	follow(t, ctx, "#play-x")
	playGame(t, ctx, url, a.Name, tableValue)
}

// endings are how the play page shows the end of a game: the status
// line's colour and the mark before it.
var endings = map[string]string{
	"win":  `rgb(11, 122, 85) "✓"`,
	"tie":  `rgb(138, 147, 163) "="`,
	"loss": `rgb(194, 65, 45) "✗"`,
}

// pageProblems are what the pages threw or logged as errors: each fails
// the test at its end, but those the test expects.
type pageProblems struct {
	mu       sync.Mutex
	list     []string
	expected []string
}

func (p *pageProblems) add(problem string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, problem)
}

// expect says that problems that contain s are the test's own doing.
func (p *pageProblems) expect(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expected = append(p.expected, s)
}

// newBrowser starts headless Chromium for the test, in a profile of its
// own, and fails the test at its end if a page threw or logged an error.
func newBrowser(t testing.TB) (context.Context, *pageProblems) {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		// As root, Chromium runs only without its sandbox.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(viewWidth, viewHeight),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	// Every wait has a bound of its own (pageWait); the browser lives as
	// long as the test may (go test -timeout), a night for TestNight.
	timeout := 5 * time.Minute
	if tt, ok := t.(*testing.T); ok {
		if end, ok := tt.Deadline(); ok {
			timeout = time.Until(end)
		}
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})

	problems := &pageProblems{}
	problems.watch(t, ctx)
	t.Cleanup(func() {
		problems.mu.Lock()
		defer problems.mu.Unlock()
		for _, p := range problems.list {
			if !slices.ContainsFunc(problems.expected, func(s string) bool { return strings.Contains(p, s) }) {
				t.Errorf("a page: %s", p)
			}
		}
	})
	return ctx, problems
}

// watch adds to p what the page of the tab ctx throws or logs as an
// error.
func (p *pageProblems) watch(t testing.TB, ctx context.Context) {
	t.Helper()
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	console := chromedp.Events(ctx, runtime.ConsoleAPICalled)
	// The browser's own errors: a resource that failed to load, a
	// violation of the pages' Content-Security-Policy.
	logged := chromedp.Events(ctx, cdplog.EntryAdded)
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			p.add(fmt.Sprintf("%s (%s:%d)", exceptionText(ev.ExceptionDetails), ev.ExceptionDetails.URL, ev.ExceptionDetails.LineNumber+1))
		}
	}()
	go func() {
		for ev, err := range console {
			if err != nil {
				return
			}
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				p.add("console.error: " + strings.Join(args, " "))
			}
		}
	}()
	go func() {
		for ev, err := range logged {
			if err != nil {
				return
			}
			if e := ev.Entry; e.Level == cdplog.EntryLevelError || e.Level == cdplog.EntryLevelWarning {
				p.add(fmt.Sprintf("%s %s: %s (%s)", e.Source, e.Level, e.Text, e.URL))
			}
		}
	}()
}

// newTab opens another tab of the browser of ctx, whose page's problems
// go to p, until the test ends.
func newTab(t testing.TB, ctx context.Context, p *pageProblems) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	p.watch(t, tab)
	return tab
}

// exceptionText is what a page's exception says.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return d.Text
}

// chromium is the Chromium to run, or the test skips (fails in CI).
func chromium(t testing.TB) string {
	t.Helper()
	if exe := os.Getenv("TTT_CHROMIUM"); exe != "" {
		return exe
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if exe, err := exec.LookPath(name); err == nil {
			return exe
		}
	}
	msg := "no Chromium to drive: apt-get install chromium, or name one with TTT_CHROMIUM"
	if os.Getenv("CI") == "true" || os.Getenv("TTT_BROWSER_TEST") == "required" {
		t.Fatal(msg + " (CI runs this test: it may not skip)")
	}
	t.Skip(msg)
	return ""
}

// do runs actions on the page, failing the test on an error.
func do(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// follow clicks the link or button sel, which leads to another page, and
// waits for that page's answer.
func follow(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	res, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	if res.Status != 200 {
		t.Fatalf("%s led to %s: %d", sel, res.URL, res.Status)
	}
}

// eval evaluates a JavaScript expression on the page.
func eval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// pageWait bounds every wait for the page; the slowest, a page under the
// race detector on a loaded machine, takes a fraction of it.
const pageWait = 20 * time.Second

// poll waits until a JavaScript expression is truthy, and returns it.
func poll[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Poll[T](expr, chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(pageWait)))
	if err != nil {
		// What the page shows, in words and as a picture (kept with go
		// test -artifacts).
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 1000)`))
		if shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
			path := filepath.Join(t.ArtifactDir(), "page.png")
			if os.WriteFile(path, shot, 0o644) == nil {
				t.Logf("the page as it was: %s", path)
			}
		}
		t.Fatalf("waiting for %s: %v\nthe page says:\n%s", expr, err, state)
	}
	return v
}

// waitFor waits until a JavaScript expression is truthy.
func waitFor(t testing.TB, ctx context.Context, expr string) {
	t.Helper()
	poll[chromedp.Void](t, ctx, expr)
}

// clickIn is an expression that clicks the first element sel finds and
// is true, or false while there is none.
func clickIn(sel string) string {
	return fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; e.click(); return true; })()`, sel)
}

// painted is an expression: how many pixels of the canvas sel are not
// transparent.
func painted(sel string) string {
	return fmt.Sprintf(`(() => {
		const c = document.querySelector(%q);
		const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let n = 0;
		for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
		return n;
	})()`, sel)
}

// screenshot captures the viewport as a PNG and checks its size. With
// dir, it writes the file there; otherwise into the test's directory.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	// The top of the page, once the last refresh has painted and the
	// last stone has fallen.
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); Promise.all(document.getAnimations().map(a => a.finished)).then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))`, chromedp.EvalAwaitPromise))
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// The window's size in device pixels: 1280x800 at a desk, 1170x2532
	// on the phone.
	size := eval[[]int](t, ctx, `[Math.round(innerWidth * devicePixelRatio), Math.round(innerHeight * devicePixelRatio)]`)
	if b := img.Bounds(); b.Dx() != size[0] || b.Dy() != size[1] {
		t.Errorf("%s is %dx%d, want %dx%d", name, b.Dx(), b.Dy(), size[0], size[1])
	}
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// download clicks the link sel, waits for the file it downloads, checks
// the name the server suggested, and returns the file's bytes.
func download(t *testing.T, ctx context.Context, sel, name string) []byte {
	t.Helper()
	dir := t.TempDir()
	_, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: new(true)})
	if err != nil {
		t.Fatal(err)
	}
	begin := chromedp.BrowserEvents(ctx, browser.DownloadWillBegin)
	progress := chromedp.BrowserEvents(ctx, browser.DownloadProgress)
	do(t, ctx, chromedp.Click(chromedp.CSS(sel)))
	for ev, err := range begin {
		if err != nil {
			t.Fatal(err)
		}
		if ev.SuggestedFilename != name {
			t.Errorf("the download is named %q, want %q", ev.SuggestedFilename, name)
		}
		break
	}
	for ev, err := range progress {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.State {
		case browser.DownloadProgressStateCompleted:
			data, err := os.ReadFile(filepath.Join(dir, ev.GUID))
			if err != nil {
				t.Fatal(err)
			}
			return data
		case browser.DownloadProgressStateCanceled:
			t.Fatal("the download was cancelled")
		}
	}
	t.Fatal("no download")
	return nil
}
