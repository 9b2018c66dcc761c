package web_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ttt/agents/testkit"
	"ttt/league/commands/clitest"
)

// What a watcher meets in the browser, driven as a person drives it:
// keys pressed through Chromium's input events (not click() from a
// script, which skips the browser's own handling of a key), the window
// at a desk's width, the chart's PNG decoded and its pixels read.

// focused is an expression: what has the keyboard's focus, by its id or
// as the board's square or column.
const focused = `(() => {
	const e = document.activeElement;
	if (!e) return "";
	if (e.dataset.sq !== undefined) return "square " + e.dataset.sq;
	if (e.dataset.col !== undefined) return "column " + e.dataset.col;
	return e.id || e.tagName.toLowerCase();
})()`

// TestBrowserPlayByKeyboard plays tic-tac-toe with the keyboard alone:
// Tab to the skip link and Enter lands on the board without playing a
// move; Enter plays the focused square to the game's end; Enter on "New
// game" starts one whose arrows work at once. It reads the square
// numbers' contrast, and what a search's reply says of itself.
func TestBrowserPlayByKeyboard(t *testing.T) {
	ctx, _ := newBrowser(t)
	_, path := newLeague(t, 2)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before the server stops
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url+"play/best?as=X"))
	waitFor(t, ctx, `document.querySelector("#board .cell:not([disabled])") !== null && document.getElementById("opponent").textContent !== "…"`)

	// The free squares' numbers are text a sighted player reads.
	if low := eval[[]string](t, ctx, squareNumbersContrast); len(low) > 0 {
		t.Errorf("the square numbers are below 4.5:1 on their squares: %q", low)
	}

	do(t, ctx, chromedp.KeyEvent(kb.Tab))
	if f := eval[string](t, ctx, focused); f != "skip" {
		t.Fatalf("the first Tab focuses %q; want the skip link", f)
	}
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	if f, moves := eval[string](t, ctx, focused), eval[string](t, ctx, `document.getElementById("board").dataset.moves`); f != "square 0" || moves != "" {
		t.Errorf("Enter on the skip link leaves the focus on %q with moves %q played; want square 0 and no move", f, moves)
	}

	// A game by Enter alone: each time on the square the focus is on.
	for turn := 0; ; turn++ {
		if turn > 5 {
			t.Fatal("the game did not end within 5 moves of X")
		}
		state := poll[string](t, ctx, `document.getElementById("board").dataset.over === "true" ? "over"
			: document.activeElement?.matches("#board .cell:not([disabled])") ? "move" : ""`)
		if state == "over" {
			break
		}
		do(t, ctx, chromedp.KeyEvent(kb.Enter))
	}
	waitFor(t, ctx, `document.activeElement?.id === "new"`)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, `document.getElementById("board").dataset.moves === "" && document.getElementById("board").dataset.over === "false"`)
	before := eval[string](t, ctx, focused)
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight))
	if after := eval[string](t, ctx, focused); !strings.HasPrefix(after, "square ") || after == before {
		t.Errorf("after New game by Enter the focus is on %q, and the right arrow takes it to %q; want the board, and the next square", before, after)
	}

	// A search's reply in words: one ply, not "1 plies".
	do(t, ctx, chromedp.Navigate(url+"play/best@ab1?as=O"))
	waitFor(t, ctx, `document.getElementById("reply").textContent !== ""`)
	if reply := eval[string](t, ctx, `document.getElementById("reply").textContent`); !regexp.MustCompile(`^replied in [\d.]+ m?s, alpha-beta 1 ply deep, [\d,]+ positions? judged$`).MatchString(reply) ||
		regexp.MustCompile(`\b1 positions`).MatchString(reply) {
		t.Errorf("best@ab1's reply says %q; want one ply deep, in the singular", reply)
	}
}

// squareNumbersContrast is an expression: the numbers of the free
// squares whose contrast with their square is under 4.5:1 (WCAG AA for
// their size), each with its ratio.
const squareNumbersContrast = `(() => {
	const rgb = (s) => s.match(/[\d.]+/g).slice(0, 3).map(Number);
	const lum = ([r, g, b]) => {
		const f = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
	};
	const low = [];
	for (const n of document.querySelectorAll("#board .cell:not([disabled]) .n")) {
		const [a, b] = [lum(rgb(getComputedStyle(n).color)), lum(rgb(getComputedStyle(n.closest(".cell")).backgroundColor))].sort((p, q) => q - p);
		const ratio = (a + 0.05) / (b + 0.05);
		if (ratio < 4.5) low.push(n.textContent + " " + ratio.toFixed(2) + ":1");
	}
	return low;
})()`

// TestBrowserSearchBudget plays a Connect Four network searched deeper
// than a move's second reaches: the play page says both the depth asked
// for and the depth reached.
func TestBrowserSearchBudget(t *testing.T) {
	testkit.Long(t, "a Connect Four league and a search of a second; TestBrowserPlayByKeyboard reads a search that reaches its depth")
	ctx, _ := newBrowser(t)
	_, path := newLeague(t, 1, c4Flags...)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) })
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url+"play/best@ab30?as=O"))
	waitFor(t, ctx, `document.getElementById("reply").textContent !== ""`)
	reply := eval[string](t, ctx, `document.getElementById("reply").textContent`)
	if !regexp.MustCompile(`alpha-beta \d+ of 30 plies deep \(stopped short by the server's limit on a move\)`).MatchString(reply) {
		t.Errorf("best@ab30's first move says %q; want the depth it reached of the 30 asked", reply)
	}
}

// TestBrowserChartReadBack reads the leaderboard of a league run with
// --search at a desk's width: its table within its card, the chart's PNG
// with each legend's name apart from its value and the searched and
// anchored lines dashed in the legend as on the chart, the run's search
// among the settings. TestBrowserOneRound is its quick sibling.
func TestBrowserChartReadBack(t *testing.T) {
	testkit.Long(t, "a league rated with alpha-beta and MCTS of 200 simulations; TestBrowserOneRound reads a league of one round")
	ctx, _ := newBrowser(t)
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight))

	// Searched agents' long names (checkpoint-6@mcts200 r1), and the
	// best's ladder games to an interval of ±3 for the counts of a
	// longer league, at 1,280 px: the widest table of a few rounds.
	_, path := newLeague(t, 3, append(slices.Clone(leagueFlags), "--search", "ab2,mcts200", "--ladder-interval", "3")...)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) })
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelector("#chart").dataset.points === "3" && document.querySelector("#leaderboard tbody tr[data-kind=searched]") !== null
		&& document.querySelector("#rounds tbody tr") !== null`)
	fitsCard(t, ctx, "a league run with --search")
	if run := eval[string](t, ctx, `document.getElementById("run").textContent`); !strings.Contains(run, "ab2,mcts200") {
		t.Errorf("the settings of the run say %q; want its --search ab2,mcts200", run)
	}

	// The PNG, as the button downloads it, decoded.
	legend := eval[[]struct {
		Label  string
		Dashed bool
	}](t, ctx, `[...document.querySelectorAll("#chart .u-legend .u-series")].map((r, i) => ({label: r.querySelector(".u-label")?.textContent ?? "", dashed: !!tttChart.series[i].dash, shown: r.style.display !== "none"})).filter((r) => r.shown)`)
	data := download(t, ctx, "#curve-png", fmt.Sprintf("learning-curve-round-%d.png", 3))
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	height := eval[int](t, ctx, `tttChart.ctx.canvas.height`)
	rows := legendRows(img, height)
	if len(rows) < len(legend) {
		t.Fatalf("the PNG's legend has %d rows; the chart's %d (%v)", len(rows), len(legend), legend)
	}
	valueAt := -1
	for i, r := range rows[:len(legend)] {
		if i == 0 {
			continue // the x axis's row: a round, no marker
		}
		if dashed := len(r.marker) > 1; dashed != legend[i].Dashed {
			t.Errorf("the PNG's legend draws %q's marker in %d strokes; want it dashed (%v) as its line", legend[i].Label, len(r.marker), legend[i].Dashed)
		}
		// The name and the value are two runs of text apart, the values
		// in a column of their own.
		if r.gap < 12 {
			t.Errorf("the PNG's legend row of %q has its value %d px from its name; want them apart", legend[i].Label, r.gap)
		} else if valueAt < 0 {
			valueAt = r.value
		} else if r.value != valueAt {
			t.Errorf("the PNG's legend row of %q has its value at x=%d, the first row's at %d; want them in one column", legend[i].Label, r.value, valueAt)
		}
	}
}

// TestBrowserOneRound reads a league of one round, whose point has its
// 95% interval drawn, and the page of a searched agent the league has not
// stored: no id 0, no download of games it never played.
func TestBrowserOneRound(t *testing.T) {
	ctx, _ := newBrowser(t)
	// One round: the point and its 95% interval, drawn.
	_, path := newLeague(t, 1)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before the server stops
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelector("#chart").dataset.points === "1"`)
	if whisker := eval[[]float64](t, ctx, intervalInk); whisker[0] < 0.9 {
		t.Errorf("the one round's interval from Elo %.0f to %.0f: %.0f%% of the pixels between its point and its high end are drawn; want its interval drawn", whisker[1], whisker[2], 100*whisker[0])
	}

	// A searched agent the league has not stored: no id, and no
	// download that brings nothing.
	do(t, ctx, chromedp.Navigate(url+"agents/best@ab3"))
	waitFor(t, ctx, `document.querySelectorAll("#facts dt").length > 0`)
	facts := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#facts dt")].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))`)
	if facts["id"] == "0" {
		t.Errorf("the page of best@ab3, not stored, says id %q", facts["id"])
	}
	for _, sel := range []string{"#games-pgn", "#opponents-csv"} {
		if shown := eval[bool](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.getClientRects().length > 0; })()`, sel)); shown {
			t.Errorf("the page of best@ab3, which has played nobody and is not stored, offers %s", sel)
		}
	}
}

// intervalInk is an expression: the share of the pixels of the chart's
// canvas in the learning curve's colour on the vertical from the one
// round's point (a few pixels above it) to the high end of its interval,
// within the plot (the grid's line at the round is of another colour);
// and that interval.
const intervalInk = `(() => {
	const u = tttChart, dpr = devicePixelRatio;
	const probe = document.body.appendChild(document.createElement("span"));
	probe.style.color = u.series[1].stroke();
	const want = getComputedStyle(probe).color.match(/\d+/g).map(Number);
	probe.remove();
	const i = u.data[1].findIndex((v) => v != null);
	const x = Math.round(u.valToPos(u.data[0][i], "x", true));
	const y = u.valToPos(u.data[1][i], "y", true);
	const hi = Math.max(u.valToPos(u.data[3][i], "y", true), u.bbox.top);
	const d = u.ctx.getImageData(x - 1, 0, 3, u.ctx.canvas.height).data;
	const near = (o) => d[o + 3] > 128 && Math.abs(d[o] - want[0]) + Math.abs(d[o + 1] - want[1]) + Math.abs(d[o + 2] - want[2]) < 90;
	let ink = 0, all = 0;
	for (let py = Math.ceil(hi + 2 * dpr); py < y - 6 * dpr; py++) {
		all++;
		if ([0, 1, 2].some((k) => near((py * 3 + k) * 4))) ink++;
	}
	return [all ? ink / all : 0, u.data[2][i], u.data[3][i]];
})()`

// legendRow is a row of the PNG's legend, in pixels: the runs of its
// marker's strokes, where its text's widest gap is (between name and
// value) and where the text after that gap begins.
type legendRow struct {
	marker     [][2]int
	gap, value int
}

// legendRows finds the legend's rows under the chart of height pixels in
// img: the bands of rows with ink against the image's background (its
// top left pixel), and in each the columns with ink, in runs.
func legendRows(img image.Image, height int) []legendRow {
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	inkAt := func(x, y int) bool {
		r, g, bl, _ := img.At(x, y).RGBA()
		r0, g0, b0, _ := bg.RGBA()
		d := func(a, c uint32) int { return max(int(a)-int(c), int(c)-int(a)) >> 8 }
		return d(r, r0)+d(g, g0)+d(bl, b0) > 60
	}
	var bands [][2]int
	in := false
	for y := height; y < b.Max.Y; y++ {
		any := false
		for x := b.Min.X; x < b.Max.X && !any; x++ {
			any = inkAt(x, y)
		}
		switch {
		case any && !in:
			bands = append(bands, [2]int{y, y})
			in = true
		case any:
			bands[len(bands)-1][1] = y
		case in:
			in = false
		}
	}
	var rows []legendRow
	for _, band := range bands {
		var runs [][2]int
		on := false
		for x := b.Min.X; x < b.Max.X; x++ {
			col := false
			for y := band[0]; y <= band[1] && !col; y++ {
				col = inkAt(x, y)
			}
			switch {
			case col && !on:
				runs = append(runs, [2]int{x, x})
				on = true
			case col:
				runs[len(runs)-1][1] = x
			case on:
				on = false
			}
		}
		if len(runs) == 0 {
			continue
		}
		// The marker: the strokes before the first gap wider than any
		// dash's (the text begins after it).
		k := 1
		for k < len(runs) && runs[k][0]-runs[k-1][1] < 8 {
			k++
		}
		row := legendRow{marker: runs[:k]}
		text := runs[k:]
		for j := 1; j < len(text); j++ {
			if g := text[j][0] - text[j-1][1]; g > row.gap {
				row.gap, row.value = g, text[j][0]
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// TestBrowserRunInProgress watches a league run at work from the
// leaderboard: the round training, k of M games since when, as the run
// writes it into the league; the pace of the last rounds, named, and
// the last round's length; past a --duration run's planned end, why it
// goes on; the tiles and the top bar at the same round. TestRunProgress
// is its quick sibling, through the API.
func TestBrowserRunInProgress(t *testing.T) {
	testkit.Long(t, "a league run of a long round watched in Chromium; TestRunProgress reads its progress through the API")
	ctx, _ := newBrowser(t)
	_, path := newLeague(t, 2)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) })
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url))
	waitFor(t, ctx, `document.querySelector("#h-running b")?.textContent === "stopped" && document.getElementById("h-pace") !== null`)
	if pace := eval[string](t, ctx, `document.getElementById("health").textContent`); !strings.Contains(pace, "rounds an hour (rounds 1-2)") || !strings.Contains(pace, "the last took ") {
		t.Errorf("the health says %q; want the pace of rounds 1-2, named, and the last round's length", pace)
	}
	if now := eval[bool](t, ctx, `document.getElementById("now").hidden`); !now {
		t.Errorf("with no run at work the page says it is doing %q", eval[string](t, ctx, `document.getElementById("now").textContent`))
	}

	// A round of three million games, which outlasts a --duration of a
	// second: the run goes on past its planned end to finish it.
	run := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "league", "run", "--db", path, "--games-per-round", "3000000", "--duration", "1s", "--heartbeat", "200ms")
	t.Cleanup(func() { run.Stop(t, syscall.SIGINT) })
	now := poll[string](t, ctx, `(() => {
		const t = document.getElementById("now-training")?.textContent ?? "";
		return /^round 3: training, [\d,]+ of 3,000,000 games \(\d+%\), since [^,]+, \d+ (s|min) ago$/.test(t) && !t.includes(" 0 of ")
			&& document.getElementById("now-past") !== null && document.querySelector("#h-running b")?.textContent === "running" ? t : "";
	})()`)
	t.Logf("the page says: %s", now)
	if past := eval[string](t, ctx, `document.getElementById("now-past").textContent`); !strings.Contains(past, "past its planned end") || !strings.Contains(past, "--duration") {
		t.Errorf("past the planned end the page says %q", past)
	}
	if agree := eval[[]string](t, ctx, `[document.getElementById("t-rounds").textContent, document.getElementById("round").textContent]`); !strings.HasSuffix(agree[1], "round "+agree[0]) {
		t.Errorf("the tile says %q rounds, the top bar %q", agree[0], agree[1])
	}
	if run := eval[string](t, ctx, `document.getElementById("run").textContent`); !strings.Contains(run, "not yet: it runs") {
		t.Errorf("the settings of the run say %q", run)
	}
}

// TestBrowserChartControls uses what a TensorBoard user reaches for:
// the smoothing (a slider, moved by its arrow key), whose curve is the
// running average of the API's ratings; the time since the start on the
// x axis; and the values under the cursor, shown beside it as the mouse
// moves over the chart.
func TestBrowserChartControls(t *testing.T) {
	ctx, _ := newBrowser(t)
	const rounds = 5
	_, path := newLeague(t, rounds)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) })
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url+"?smooth=0.5&x=elapsed"))
	waitFor(t, ctx, fmt.Sprintf(`window.tttChart && document.querySelector("#chart").dataset.points === "%d" && tttChart.series.some((s) => s.label.startsWith("learning curve, smoothed"))`, rounds))

	// The smoothed curve: 0.5 of the average before, 0.5 of the rating,
	// debiased, as TensorBoard draws it.
	var progress struct{ Points []struct{ Elo float64 } }
	getJSON(t, url+"api/progress", &progress)
	want, avg := []string{}, 0.0
	for i, p := range progress.Points {
		avg = 0.5*avg + 0.5*p.Elo
		want = append(want, fmt.Sprintf("%.3f", avg/(1-math.Pow(0.5, float64(i+1)))))
	}
	got := eval[[]float64](t, ctx, `tttChart.data[tttChart.series.findIndex((s) => s.label === "learning curve, smoothed (0.50)")]`)
	var gotText []string
	for _, v := range got {
		gotText = append(gotText, fmt.Sprintf("%.3f", v))
	}
	if !slices.Equal(gotText, want) {
		t.Errorf("the smoothed curve is %q; the running average of the API's ratings %q", gotText, want)
	}
	// By time since the start: the first round at 0.
	if x := eval[[]float64](t, ctx, `[tttChart.data[0][0], tttChart.data[0].at(-1)]`); x[0] != 0 || x[1] <= 0 || eval[string](t, ctx, `tttChart.axes[0].label`) != "time since the first round" {
		t.Errorf("by time since the start the x axis runs %v, labelled %q", x, eval[string](t, ctx, `tttChart.axes[0].label`))
	}

	// The slider, by its arrow key: the address keeps the new weight.
	do(t, ctx, chromedp.Focus(chromedp.CSS("#smooth")), chromedp.KeyEvent(kb.ArrowRight))
	waitFor(t, ctx, `location.search.includes("smooth=0.51") && tttChart.series.some((s) => s.label === "learning curve, smoothed (0.51)")`)

	// The mouse over the chart's middle: the values beside it.
	box := eval[[]float64](t, ctx, `(() => { const r = document.querySelector("#chart .u-over").getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`)
	x, y := box[0]+box[2]/2, box[1]+box[3]/2
	do(t, ctx, chromedp.MouseEvent(chromedp.MouseMoved, x-5, y), chromedp.MouseEvent(chromedp.MouseMoved, x, y))
	waitFor(t, ctx, `(() => { const t = document.querySelector("#chart .tip"); return t && !t.hidden && t.textContent.includes("learning curve:"); })()`)
	tip := eval[struct {
		Text, Legend string
		Left, Top    float64
	}](t, ctx, `(() => {
		const t = document.querySelector("#chart .tip").getBoundingClientRect();
		const row = [...document.querySelectorAll("#chart .u-legend .u-series")].find((r) => r.querySelector(".u-label")?.textContent === "learning curve");
		return { text: document.querySelector("#chart .tip").textContent, legend: row.querySelector(".u-value").textContent, left: t.left, top: t.top };
	})()`)
	if !strings.Contains(tip.Text, "learning curve: "+tip.Legend) || math.Abs(tip.Left-x) > 40+400 || math.Abs(tip.Top-y) > 60 {
		t.Errorf("with the mouse at (%.0f, %.0f) the values beside it read %q at (%.0f, %.0f); the legend's learning curve %q", x, y, tip.Text, tip.Left, tip.Top, tip.Legend)
	}
	do(t, ctx, chromedp.MouseEvent(chromedp.MouseMoved, 1, 1))
	waitFor(t, ctx, `document.querySelector("#chart .tip").hidden`)
}

// TestBrowserLeaguesSideBySide serves a league with another beside it
// (ttt serve --with): the leaderboard draws both learning curves on one
// chart, each the API's ratings of its league, by round and by the time
// since each league's start.
func TestBrowserLeaguesSideBySide(t *testing.T) {
	ctx, _ := newBrowser(t)
	_, path := newLeague(t, 3)
	_, other := newLeague(t, 2, "--games-per-round", "1000", "--hidden", "8", "--seed", "9")
	server := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "serve", "--db", path, "--addr", "127.0.0.1:0", "--with", other)
	server.WaitOutput(t, "(Ctrl-C stops)\n")
	url := servingLine.FindStringSubmatch(server.Stdout())[1]
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) })

	var mine, theirs struct {
		Points []struct {
			Round int64
			Elo   float64
		}
	}
	getJSON(t, url+"api/progress", &mine)
	getJSON(t, url+"with/1/api/progress", &theirs)
	if len(mine.Points) != 3 || len(theirs.Points) != 2 {
		t.Fatalf("the league has %d points, the one beside it %d; want 3 and 2", len(mine.Points), len(theirs.Points))
	}
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttLeagues && !document.getElementById("leagues-card").hidden && document.getElementById("chart-leagues").dataset.leagues === "2"`)
	labels := eval[[]string](t, ctx, `tttLeagues.series.slice(1).map((s) => s.label)`)
	if !slices.Equal(labels, []string{"league.db", other}) {
		t.Errorf("the leagues' chart names %q; want league.db and %s", labels, other)
	}
	got := eval[[][]*float64](t, ctx, `tttLeagues.data`)
	for k, pts := range [][]struct {
		Round int64
		Elo   float64
	}{mine.Points, theirs.Points} {
		for _, p := range pts {
			i := slices.IndexFunc(got[0], func(x *float64) bool { return x != nil && *x == float64(p.Round) })
			if i < 0 || got[k+1][i] == nil || *got[k+1][i] != p.Elo {
				t.Errorf("league %d's round %d: the chart has %v; the API %v", k+1, p.Round, got, p.Elo)
			}
		}
	}
	// By the time since the start: each league from its own 0.
	do(t, ctx, chromedp.Navigate(url+"?x=elapsed"))
	waitFor(t, ctx, `window.tttLeagues && tttLeagues.series[0].label === "elapsed" && tttLeagues.data[0][0] === 0`)
	if firsts := eval[[]*float64](t, ctx, `[1, 2].map((k) => tttLeagues.data[k][0])`); firsts[0] == nil || firsts[1] == nil {
		t.Errorf("by the time since the start the leagues' first points are %v; want both at 0", firsts)
	}
}
