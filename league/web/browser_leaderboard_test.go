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
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// The leaderboard in the browser: the agents and methods it shows, its
// table, and the best it follows. Its chart is browser_charts_test.go's,
// its dark mode browser_theme_test.go's.

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
