package web_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestNight is a watcher's night: eight tabs (the leaderboard, agents,
// play, compare) open on a ttt serve that another process runs, over a
// league that a league run plays meanwhile, for TTT_NIGHT (a duration).
// Every few minutes, and at the end, it logs what each tab shows against
// the league's newest round, and the server's memory (TTT_NIGHT_PID). It
// fails if a tab stops following the league or reports an error. Only
// when asked:
//
//	ttt league run --game connect4 --db night.db --workers 1 &
//	ttt serve --db night.db --addr 127.0.0.1:8734 &
//	TTT_NIGHT=30m TTT_NIGHT_URL=http://127.0.0.1:8734/ TTT_NIGHT_PID=$! go test ./league/web -run TestNight -v -timeout 2h
func TestNight(t *testing.T) {
	night, err := time.ParseDuration(os.Getenv("TTT_NIGHT"))
	if err != nil {
		t.Skip("TTT_NIGHT (a duration) and TTT_NIGHT_URL name a night to watch")
	}
	url := os.Getenv("TTT_NIGHT_URL")
	browser, problems := newBrowser(t)
	pages := []struct{ path, drawn string }{
		{"", `window.tttChart && document.querySelectorAll("#leaderboard tbody tr").length > 0`},
		{"?rounds=last100", `window.tttChart && document.querySelectorAll("#leaderboard tbody tr").length > 0`},
		{"agents/best", `document.querySelector("#chart canvas") && document.querySelectorAll("#opponents tbody tr").length > 0`},
		{"agents/latest", `document.querySelector("#chart canvas") && document.querySelectorAll("#opponents tbody tr").length > 0`},
		{"agents/tactician", `document.querySelector("#chart canvas") && document.querySelectorAll("#opponents tbody tr").length > 0`},
		{"play/best", `document.querySelectorAll("#board .column:not([disabled])").length > 0`},
		{"compare/best/latest", `document.querySelector("#chart canvas") && document.getElementById("t-record").textContent !== "–"`},
		{"compare/best/tactician", `document.querySelector("#chart canvas") && document.querySelectorAll("#positions .position").length > 0`},
	}
	tabs := make([]context.Context, len(pages))
	for i, p := range pages {
		tab := newTab(t, browser, problems)
		tabs[i] = tab
		do(t, tab, chromedp.EmulateViewport(viewWidth, viewHeight), chromedp.Navigate(url+p.path))
		waitFor(t, tab, p.drawn)
	}
	// look logs each tab against the league's newest round, and the
	// server's memory; it returns the tabs that show an older round than
	// the league's, or an error.
	look := func() (behind []string) {
		var h struct {
			NewestRound int `json:"newest_round"`
		}
		getJSON(t, url+"api/health", &h)
		rss := "?"
		if status, err := os.ReadFile("/proc/" + os.Getenv("TTT_NIGHT_PID") + "/status"); err == nil {
			for _, line := range strings.Split(string(status), "\n") {
				if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
					rss = strings.TrimSpace(v)
				}
			}
		}
		t.Logf("%s: the league at round %d; ttt serve's RSS %s", time.Now().Format("15:04:05"), h.NewestRound, rss)
		for i, tab := range tabs {
			st := eval[[]string](t, tab, `[location.pathname + location.search, document.getElementById("round").dataset.round || "", document.documentElement.dataset.shown || "", document.getElementById("error")?.textContent || "", document.getElementById("live").className, String(performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : "?")]`)
			top, _ := strconv.Atoi(st[1])
			shown, _ := strconv.Atoi(st[2])
			if st[2] == "" {
				st[2] = "(none: the play page)"
			}
			if st[3] != "" {
				st[3] = "; error: " + st[3]
			}
			t.Logf("  tab %d %-24s top bar round %5s, shows round %5s, %s, JS heap %s MB%s", i+1, st[0], st[1], st[2], st[4], st[5], st[3])
			if top < h.NewestRound-2 || shown != 0 && shown < h.NewestRound-2 || st[3] != "" {
				behind = append(behind, fmt.Sprintf("tab %d (%s): round %d, shows %d, error %q", i+1, st[0], top, shown, st[3]))
			}
		}
		return behind
	}
	// The night's length is the point: a look every five minutes.
	end := time.Now().Add(night)
	for time.Now().Before(end) {
		time.Sleep(min(5*time.Minute, time.Until(end)))
		look()
	}
	// At the end each tab catches up with the newest round of then (the
	// test's patience, if one never does); the league goes on meanwhile.
	var h struct {
		NewestRound int `json:"newest_round"`
	}
	getJSON(t, url+"api/health", &h)
	for _, tab := range tabs {
		waitFor(t, tab, fmt.Sprintf(`Number(document.getElementById("round").dataset.round) >= %d`, h.NewestRound))
	}
	if behind := look(); len(behind) > 0 {
		t.Errorf("at the end of the night: %q", behind)
	}
	problems.mu.Lock()
	t.Logf("the pages threw or logged %d errors: %q", len(problems.list), problems.list)
	problems.mu.Unlock()
	for _, tab := range tabs {
		chromedp.Run(tab, chromedp.Navigate("about:blank"))
	}
}
