package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
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
	ctx := newBrowser(t)

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

	// The leaderboard, its chart one point per round.
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url))
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector("#chart").dataset.points === "%d" && document.querySelector("#chart canvas") !== null
		&& document.querySelectorAll("#leaderboard tbody tr").length > 0`, rounds))
	if painted := eval[int](t, ctx, painted("#chart canvas")); painted < 1000 {
		t.Errorf("the chart's canvas has %d painted pixels: nothing drawn", painted)
	}
	board := eval[[]string](t, ctx, `[...document.querySelectorAll("#leaderboard tbody tr td.agent a")].map(a => a.textContent)`)
	var want struct {
		Agents []struct{ Name string }
		Best   struct {
			ID   int64
			Name string
		}
	}
	getJSON(t, url+"api/leaderboard", &want)
	var names []string
	for _, a := range want.Agents {
		names = append(names, a.Name)
	}
	if !slices.Equal(board, names) {
		t.Errorf("the leaderboard shows %q, the API %q", board, names)
	}

	// A new round shows on the open page within liveLimit of its commit:
	// three league runs of a round each, so that each round's time is
	// its own however fast the machine plays. The round's line is printed
	// right after its commit.
	for range 3 {
		rounds++
		league := start(t, "league", "run", "--db", path, "--rounds", "1")
		league.waitOutput(t, fmt.Sprintf("round %d ", rounds))
		committed := time.Now()
		snapshot := regexp.MustCompile(fmt.Sprintf(`round %d  (\S+)`, rounds)).FindStringSubmatch(league.stdout.String())[1]
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById("round").dataset.round === "%d" && document.getElementById("t-rounds").textContent === "%d"
			&& document.querySelector("#chart").dataset.points === "%d" && document.querySelector("#t-latest a")?.textContent === %q`, rounds, rounds, rounds, snapshot))
		latency := time.Since(committed)
		t.Logf("round %d on the page %v after its commit", rounds, latency.Round(time.Millisecond))
		if latency > liveLimit {
			t.Errorf("round %d showed on the page %v after its commit; want within %v", rounds, latency, liveLimit)
		}
		if code := league.stop(t); code != 0 {
			t.Fatalf("league run: exit %d\n%s", code, league.stderr)
		}
	}

	// Follow two more agents on the chart.
	unfollowed := chromedp.CSS(`#leaderboard tbody tr:not([data-kind=perfect]) input.follow:not(:checked)`)
	do(t, ctx, chromedp.Click(unfollowed))
	waitFor(t, ctx, `document.querySelector("#chart").dataset.followed === "2"`)
	do(t, ctx, chromedp.Click(unfollowed))
	waitFor(t, ctx, `document.querySelector("#chart").dataset.followed === "3" && document.querySelectorAll("#chart .u-legend .u-series").length >= 7`)
	screenshot(t, ctx, shots, "serve-leaderboard.png")

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
	got := download(t, ctx, "#weights", want.Best.Name+".bin")
	p.OK(t, "export", "--db", "league.db", "--checkpoint", strconv.FormatInt(want.Best.ID, 10), "-o", "best.bin")
	if !bytes.Equal(got, p.File(t, "best.bin")) {
		t.Errorf("the downloaded weight file (%d bytes) is not ttt export's (%d bytes)", len(got), len(p.File(t, "best.bin")))
	}

	// A whole game against it as X, then one as O.
	follow(t, ctx, "#play-x")
	playGame(t, ctx, url, want.Best.Name)
	if shots != "" {
		screenshot(t, ctx, shots, "serve-play.png")
	}
	follow(t, ctx, "#side-o")
	playGame(t, ctx, url, want.Best.Name)
	if shots == "" {
		screenshot(t, ctx, shots, "serve-play.png")
	}
}

// playGame plays the page's game to its end, the human playing perfect's
// moves (from the API), and checks what the page shows on the way.
func playGame(t *testing.T, ctx context.Context, url, name string) {
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
		moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
		if moves != "" {
			// It is the human's turn: the agent made the last move, and
			// the page shows what it thought of each square.
			thoughts := eval[[]string](t, ctx, `[...document.querySelectorAll("#thoughts .thought")].map(e => e.textContent)`)
			chosen := eval[int](t, ctx, `document.querySelectorAll("#thoughts .thought.chosen").length`)
			if len(thoughts) != 9 || chosen != 1 || !slices.ContainsFunc(thoughts, func(s string) bool { return strings.HasSuffix(s, "%") }) {
				t.Errorf("after its move the page shows %q with %d chosen; want 9 cells, one chosen, probabilities", thoughts, chosen)
			}
		}
		var perfect struct{ Square int }
		getJSON(t, url+"api/agents/perfect/move?moves="+moves, &perfect)
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .cell[data-sq="%d"]:not([disabled])`, perfect.Square))))
	}
	status := eval[string](t, ctx, `document.getElementById("status").textContent`)
	result := eval[string](t, ctx, `document.getElementById("status").dataset.result`)
	want := map[string]string{"win": "You win!", "tie": "A tie.", "loss": name + " wins."}[result]
	if want == "" || status != want {
		t.Errorf("at the end the page says %q (result %q)", status, result)
	}
	moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
	t.Logf("a game against %s: moves %s, %s", name, moves, status)
}

// newBrowser starts headless Chromium for the test, in a profile of its
// own, and fails the test at its end if a page threw or logged an error.
func newBrowser(t testing.TB) context.Context {
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
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
	})

	// What the pages throw or log as errors.
	var mu sync.Mutex
	var problems []string
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
			mu.Lock()
			problems = append(problems, fmt.Sprintf("%s (%s:%d)", exceptionText(ev.ExceptionDetails), ev.ExceptionDetails.URL, ev.ExceptionDetails.LineNumber+1))
			mu.Unlock()
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
				mu.Lock()
				problems = append(problems, "console.error: "+strings.Join(args, " "))
				mu.Unlock()
			}
		}
	}()
	go func() {
		for ev, err := range logged {
			if err != nil {
				return
			}
			if e := ev.Entry; e.Level == cdplog.EntryLevelError || e.Level == cdplog.EntryLevelWarning {
				mu.Lock()
				problems = append(problems, fmt.Sprintf("%s %s: %s (%s)", e.Source, e.Level, e.Text, e.URL))
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range problems {
			t.Errorf("a page: %s", p)
		}
	})
	return ctx
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
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".tiles").outerHTML + document.querySelector("#chart").outerHTML.slice(0,300)`))
		shot, _ := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		os.WriteFile("/tmp/fail.png", shot, 0o644)
		t.Fatalf("waiting for %s: %v\nthe page says:\n%s", expr, err, state)
	}
	return v
}

// waitFor waits until a JavaScript expression is truthy.
func waitFor(t testing.TB, ctx context.Context, expr string) {
	t.Helper()
	poll[chromedp.Void](t, ctx, expr)
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
	// The top of the page, once the last refresh has painted.
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if b := img.Bounds(); b.Dx() != viewWidth || b.Dy() != viewHeight {
		t.Errorf("%s is %dx%d, want %dx%d", name, b.Dx(), b.Dy(), viewWidth, viewHeight)
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
