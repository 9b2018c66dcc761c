package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"ttt/league/commands/clitest"
)

// The browser test's harness: Chromium, the problems the pages log, and
// the actions and waits the checks are written in.

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
	// Every wait gives up a little before the test's end (clitest.Patience);
	// the browser lives as long as the test may (go test -timeout), a
	// night for TestNight.
	timeout := 10 * time.Minute
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

// poll waits until a JavaScript expression is truthy, and returns it. It
// fails, saying what the page shows, when the test's patience runs out.
// A page that loads itself again meanwhile (a new league, a restarted
// server) takes the evaluation's context with it: the wait goes on in
// the page that comes.
func poll[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	end := time.Now().Add(clitest.Patience(t))
	v, err := chromedp.Run(ctx, chromedp.Poll[T](expr, chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(time.Until(end))))
	for err != nil && contextGone(err) && time.Now().Before(end) {
		time.Sleep(10 * time.Millisecond)
		v, err = chromedp.Run(ctx, chromedp.Poll[T](expr, chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(time.Until(end))))
	}
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

// contextGone reports whether err is Chromium's answer to an evaluation
// in a page that has gone: a navigation began while it ran.
func contextGone(err error) bool {
	return strings.Contains(err.Error(), "Cannot find context with specified id") || strings.Contains(err.Error(), "Execution context was destroyed")
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
