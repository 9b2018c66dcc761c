package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// What a person sees first in the morning, in both games: the chart of
// a league of one round, the searched agents in their place, the pages'
// contrast in both themes and the table's width, the play page's reply
// time, the weights of every kind of model, the dashboard's rounds and
// changes of the best after a restart.

// morningGames are the games the morning checks, with the flags of
// their small leagues.
var morningGames = []struct {
	name  string
	flags []string
}{
	{"tic-tac-toe", []string{"--games-per-round", "2000", "--seed", "5"}},
	{"Connect Four", []string{"--game", "connect4", "--games-per-round", "300", "--tuples", "8", "--tuple-length", "6", "--opponents", "4", "--openings", "1", "--ladder-interval", "200", "--seed", "3"}},
}

// morning runs the morning's checks on leagues of each game, and on the
// main league, whose server is at url (a league of some rounds).
func morning(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	chartOptions(t, ctx, url)
	for _, g := range morningGames {
		oneRound(t, ctx, g.name, g.flags)
		searchedLeague(t, ctx, g.name, g.flags)
	}
}

// chartOptions checks the chart's options on a league of some rounds: a
// log scale of rounds has labels on a range of the newest rounds, where
// no power of ten falls; the rounds by the clock, the range the user
// chose kept; the chart as a PNG image.
func chartOptions(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(url+"?log=1&rounds=6-11"))
	waitFor(t, ctx, `window.tttChart && tttChart.scales.x.distr === 3 && tttChart.scales.x.min === 6`)
	labels := eval[[]string](t, ctx, `tttChart.axes[0]._values.filter((v) => v)`)
	if len(labels) < 3 {
		t.Errorf("the log scale of rounds 6-11 has labels %q; want three at least", labels)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#clock")))
	waitFor(t, ctx, `location.search.includes("x=time") && !location.search.includes("log=1") && tttChart.data[0][0] > 1e9 && tttChart.series[0].label === "time"`)
	clock, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`fetch("/api/progress").then((r) => r.json()).then((p) => [tttChart.scales.x.min, tttChart.scales.x.max, p.points.find((q) => q.round === 6).finished, p.points.find((q) => q.round === 11).finished])`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if clock[0] != clock[2] || clock[1] != clock[3] {
		t.Errorf("by the clock, rounds 6-11 span %v of the chart; their ends are %v", clock[:2], clock[2:])
	}
	shot := download(t, ctx, "#curve-png", "learning-curve-round-11.png")
	if img, err := png.Decode(bytes.NewReader(shot)); err != nil || img.Bounds().Dx() < 600 {
		t.Errorf("the chart downloads as %d bytes of PNG (%v)", len(shot), err)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#clock")))
	waitFor(t, ctx, `!location.search.includes("x=time") && tttChart.data[0][0] === 1`)
}

// oneRound checks a league of one round of the game: its chart spans half
// a round either side of it, with every anchored built-in player drawn
// across it and inside the Elo axis, and (Connect Four) the shares on a
// chart of their own within 0-100%; the agent page offers its model's
// file, byte for byte ttt export's; the play page says how long the
// reply took; the pages keep a contrast of 4.5:1 in both themes, and the
// leaderboard fits its card; the dashboard's rounds and changes of the
// best are the same after a restart.
func oneRound(t *testing.T, ctx context.Context, name string, flags []string) {
	t.Helper()
	p, path := newLeague(t, 1, flags...)
	server, url := serve(t, path)
	defer chromedp.Run(ctx, chromedp.Navigate("about:blank")) // before the server stops
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelector("#chart").dataset.points === "1" && document.querySelectorAll("#rounds tbody tr").length === 1`)
	if said := eval[[]string](t, ctx, `[document.getElementById("t-rounds-sub").textContent, document.getElementById("best-count").textContent]`); said[0] != "1 snapshot on the chart" || !strings.HasPrefix(said[1], "1 change, ") {
		t.Errorf("%s: of one round the rounds' tile says %q, the changes of the best %q", name, said[0], said[1])
	}
	axes := eval[struct {
		X, Y    []float64
		Anchors [][]*float64
		Elo     []*float64
		Shares  []float64
	}](t, ctx, `({
		x: [tttChart.scales.x.min, tttChart.scales.x.max], y: [tttChart.scales.y.min, tttChart.scales.y.max],
		anchors: tttChart.series.map((s, i) => s.label.endsWith("(anchored)") ? tttChart.data[i] : null).filter((d) => d),
		elo: tttChart.data[1],
		shares: window.tttShares ? [tttShares.scales.y.min, tttShares.scales.y.max] : null,
	})`)
	if !slices.Equal(axes.X, []float64{0.5, 1.5}) {
		t.Errorf("%s: the chart of one round spans rounds %v; want 0.5-1.5", name, axes.X)
	}
	if len(axes.Anchors) < 2 {
		t.Errorf("%s: the chart has %d anchored players; want random and the others", name, len(axes.Anchors))
	}
	for _, a := range axes.Anchors {
		if len(a) != 3 || slices.Contains(a, nil) || *a[0] < axes.Y[0] || *a[0] > axes.Y[1] {
			t.Errorf("%s: an anchored player is drawn at %v on an Elo axis of %v; want across the chart, within it", name, a, axes.Y)
		}
	}
	if name == "Connect Four" && (len(axes.Shares) != 2 || axes.Shares[0] < 0 || axes.Shares[1] > 100) {
		t.Errorf("%s: the shares' axis spans %v; want within 0-100%%", name, axes.Shares)
	}
	fitsCard(t, ctx, name)
	readable(t, ctx, name+" leaderboard")

	// The best's model, whatever its kind (an n-tuple network in Connect
	// Four), downloads as ttt export writes it.
	var best struct {
		ID   int64
		Name string
		File *string
	}
	getJSON(t, url+"api/agents/best", &best)
	if best.File == nil {
		t.Fatalf("%s: the API names no file of the best, %s", name, best.Name)
	}
	do(t, ctx, chromedp.Navigate(url+"agents/best"))
	waitFor(t, ctx, `document.getElementById("weights") !== null && window.tttChart?.data[0].length > 0`)
	if x := eval[[]float64](t, ctx, `[tttChart.scales.x.min, tttChart.scales.x.max]`); !slices.Equal(x, []float64{0.5, 1.5}) {
		t.Errorf("%s: the best's rating history of one round spans rounds %v; want 0.5-1.5", name, x)
	}
	got := download(t, ctx, "#weights", *best.File)
	p.OK(t, "export", "--db", "league.db", "--checkpoint", strconv.FormatInt(best.ID, 10), "-o", "best.bin")
	if !bytes.Equal(got, p.File(t, "best.bin")) {
		t.Errorf("%s: the weights button downloads %d bytes, ttt export writes %d", name, len(got), len(p.File(t, "best.bin")))
	}
	readable(t, ctx, name+" agent page")
	// The best of one round is the newest too: nothing to compare it
	// with, and no link to a comparison of it with itself.
	if eval[bool](t, ctx, `document.getElementById("compare") !== null`) {
		t.Errorf("%s: the page of the best, the newest, links to a comparison with the newest", name)
	}

	// The play page, the agent first: how long its reply took, and a
	// searched agent's depth.
	for _, ref := range []string{"best", "best@ab2"} {
		do(t, ctx, chromedp.Navigate(url+"play/"+ref+"?as=O"))
		waitFor(t, ctx, `document.getElementById("reply").textContent !== "" && Number(document.getElementById("reply").dataset.seconds) > 0`)
		reply := eval[string](t, ctx, `document.getElementById("reply").textContent`)
		want := regexp.MustCompile(`^replied in [\d.]+ (ms|s)$`)
		if ref != "best" {
			want = regexp.MustCompile(`^replied in [\d.]+ (ms|s), alpha-beta 2 plies deep, [\d,]+ positions judged$`)
		}
		if !want.MatchString(reply) {
			t.Errorf("%s: the play page of %s says %q; want %s", name, ref, reply, want)
		} else if took, _ := strconv.ParseFloat(strings.Fields(reply)[2], 64); took <= 0 {
			t.Errorf("%s: the play page of %s says %q: no reply takes no time", name, ref, reply)
		}
	}
	// The thoughts read out with their moves, and the keyboard: the skip
	// link to the board, and the arrows along it.
	labels := eval[[]string](t, ctx, `[...document.querySelectorAll("#thoughts [data-move]")].map((e) => e.getAttribute("aria-label"))`)
	if len(labels) == 0 || !strings.HasPrefix(labels[0], "square ") && !strings.HasPrefix(labels[0], "column ") {
		t.Errorf("%s: the thoughts are read out as %q; want each named by its move", name, labels)
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("skip").click()`))
	first := eval[string](t, ctx, `document.activeElement.dataset.sq ?? document.activeElement.dataset.col ?? ""`)
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	next := eval[string](t, ctx, `document.activeElement.dataset.sq ?? document.activeElement.dataset.col ?? ""`)
	if first == "" || next == "" || next == first {
		t.Errorf("%s: the skip link focuses %q, the right arrow then %q; want the board's first free move, then the next", name, first, next)
	}
	readable(t, ctx, name+" play page")

	// The dashboard after a restart: the same rounds and changes of the
	// best, read back from the league.
	var before, after json.RawMessage
	getJSON(t, url+"api/rounds", &before)
	do(t, ctx, chromedp.Navigate("about:blank")) // before the server stops
	server.Stop(t, syscall.SIGINT)
	_, url = serve(t, path)
	getJSON(t, url+"api/rounds", &after)
	if !bytes.Equal(before, after) {
		t.Errorf("%s: the rounds and changes of the best before a restart:\n%s\nafter:\n%s", name, before, after)
	}
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `document.querySelectorAll("#rounds tbody tr").length === 1 && document.querySelectorAll("#best-changes tbody tr").length === 1`)
	shown := eval[[]string](t, ctx, `[document.querySelector("#rounds tbody tr td:last-child").textContent, document.querySelector("#best-changes tbody tr td:last-child").textContent]`)
	if shown[0] != "★ "+best.Name || shown[1] != best.Name {
		t.Errorf("%s: after a restart the dashboard marks %q in round 1 and lists %q as the best; want %s", name, shown[0], shown[1], best.Name)
	}
}

// searchedLeague checks a league run with --search, whose searched
// agents fill the top of the table: ttt ratings and the leaderboard show
// the best after the top 2, and both can leave the searched agents out.
func searchedLeague(t *testing.T, ctx context.Context, name string, flags []string) {
	t.Helper()
	p, path := newLeague(t, 3, append(slices.Clone(flags), "--search", "ab2,mcts20")...)
	_, url := serve(t, path)
	defer chromedp.Run(ctx, chromedp.Navigate("about:blank"))
	var board bestAfterPage
	getJSON(t, url+"api/leaderboard?limit=2", &board)
	if board.BestRow == nil || board.BestRow.Name != board.Best.Name || board.BestRow.Rank < 3 {
		t.Fatalf("%s: the top 2 %+v, and after them %+v; want the best, %s, at its rank", name, board.Agents, board.BestRow, board.Best.Name)
	}
	out := p.OK(t, "ratings", "--db", "league.db", "--limit", "2")
	if !regexp.MustCompile(fmt.Sprintf(`(?m)^%d\s+%s \*`, board.BestRow.Rank, regexp.QuoteMeta(board.Best.Name))).MatchString(out) {
		t.Errorf("%s: ttt ratings --limit 2 leaves out the best, %s at rank %d:\n%s", name, board.Best.Name, board.BestRow.Rank, out)
	}
	var listed []struct{ Kind string }
	p.OKJSON(t, &listed, "ratings", "--db", "league.db", "--all", "--searched=false", "--format", "json")
	if slices.ContainsFunc(listed, func(a struct{ Kind string }) bool { return a.Kind == "searched" }) || len(listed) == 0 {
		t.Errorf("%s: ttt ratings --searched=false lists %v", name, listed)
	}

	// The page: the best after the top 2, then the toggle.
	do(t, ctx, chromedp.Navigate(url+"?limit=2"))
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector("#leaderboard tbody tr.best td.agent a")?.textContent === %q
		&& document.querySelector("#leaderboard tbody tr.best td.num").textContent === "%d"`, board.Best.Name, board.BestRow.Rank))
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `!document.getElementById("searched-filter").hidden && document.querySelector("#leaderboard tbody tr[data-kind=searched]") !== null`)
	do(t, ctx, chromedp.Click(chromedp.CSS("#searched")))
	waitFor(t, ctx, `location.search.includes("searched=0") && document.querySelectorAll("#leaderboard tbody tr").length > 0
		&& document.querySelector("#leaderboard tbody tr[data-kind=searched]") === null && document.querySelector("#leaderboard tbody tr.best") !== null`)
	// Each search a line of its own, with a value at the newest round.
	lines := eval[[]string](t, ctx, `tttChart.series.map((s, i) => s.label.startsWith("the best @") ? s.label + " " + JSON.stringify(s.dash) + " " + tttChart.data[i].at(-1) : null).filter((s) => s)`)
	if len(lines) != 2 || strings.Contains(lines[0], "null") || strings.Contains(lines[1], "null") || strings.Split(lines[0], " ")[3] == strings.Split(lines[1], " ")[3] {
		t.Errorf("%s: the searched lines are %q; want two, of dashes of their own, each with a rating at the newest round", name, lines)
	}
}

// fitsCard checks that the leaderboard and the table of rounds are no
// wider than their cards at the desk's width.
func fitsCard(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	for _, id := range []string{"leaderboard", "rounds"} {
		widths := eval[[]float64](t, ctx, fmt.Sprintf(`[document.getElementById(%q).scrollWidth, document.getElementById(%[1]q).parentElement.clientWidth, innerWidth]`, id))
		if widths[0] > widths[1] {
			t.Errorf("%s: at %.0f px the table #%s is %.0f px wide, its card %.0f", name, widths[2], id, widths[0], widths[1])
		}
	}
}

// readable checks the contrast of every text of the page against what is
// behind it, in the light theme and in the dark: 4.5:1 at least (WCAG
// AA), 3:1 for large text; disabled controls are exempt.
func readable(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		params := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, params); err != nil {
			t.Fatal(err)
		}
		if low := eval[[]string](t, ctx, lowContrast); len(low) > 0 {
			t.Errorf("%s, %s theme: text below its contrast: %q", page, scheme, low)
		}
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		t.Fatal(err)
	}
}

// lowContrast is an expression: the texts of the page whose colour has
// less contrast with the colours behind them (their own background and
// their ancestors', blended) than WCAG AA asks.
const lowContrast = `(() => {
	const rgba = (s) => {
		const m = s.match(/[\d.]+/g).map(Number);
		return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
	};
	const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
	const lum = ([r, g, b]) => {
		const f = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
	};
	const behind = (e) => {
		const layers = [];
		for (let x = e; x; x = x.parentElement) {
			const c = rgba(getComputedStyle(x).backgroundColor);
			if (c[3] > 0) layers.push(c);
			if (c[3] >= 1) break;
		}
		return layers.reverse().reduce((c, l) => over(l, c), [255, 255, 255, 1]);
	};
	const low = [];
	for (const e of document.querySelectorAll("body *")) {
		if (!e.getClientRects().length || e.closest(":disabled, [aria-hidden=true]")) continue;
		const text = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join("");
		if (!text) continue;
		const style = getComputedStyle(e);
		const back = behind(e);
		const [a, b] = [lum(over(rgba(style.color), back)), lum(back)].sort((p, q) => q - p);
		const ratio = (a + 0.05) / (b + 0.05);
		const size = parseFloat(style.fontSize);
		const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
		if (ratio < (large ? 3 : 4.5)) low.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " + JSON.stringify(text.slice(0, 24)) + " " + ratio.toFixed(2) + ":1");
	}
	return low;
})()`
