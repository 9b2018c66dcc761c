package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ttt/league/commands/clitest"
)

// BenchmarkLive times a round's news: from a league run's line of the
// round, which it prints right after the commit, to the event of that
// round on an open stream (/api/events), which every page follows. It
// reports the median and the slowest. The tests check that each round
// comes (TestServeWhileLeagueRuns, TestBrowser); how soon is this
// benchmark's:
//
//	go test ./league/web -run '^$' -bench Live -benchtime 10x -count 3
func BenchmarkLive(b *testing.B) {
	_, path := newLeague(b, 1)
	_, url := serve(b, path)
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"api/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	events := bufio.NewReader(res.Body)
	round := nextEvent(b, events)
	// Each round's event, when it came: read meanwhile, so that an event
	// that comes before the round's line is timed as it came.
	came := make(chan time.Time, 1)
	go func() {
		for last := round; ; {
			line, err := events.ReadString('\n')
			if err != nil {
				return // the benchmark's end
			}
			var d struct{ Round int64 }
			if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); !ok || json.Unmarshal([]byte(data), &d) != nil || d.Round <= last {
				continue
			}
			for ; last < d.Round; last++ {
				select {
				case came <- time.Now():
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	var times []time.Duration
	for b.Loop() {
		round++
		league := clitest.TTT{Dir: filepath.Dir(path)}.Start(b, append([]string{"league", "run", "--db", path, "--rounds", "1"}, leagueFlags...)...)
		league.WaitOutput(b, fmt.Sprintf("round %d ", round))
		committed := time.Now()
		times = append(times, max(0, (<-came).Sub(committed)))
		if _, stderr, code := league.Wait(b); code != 0 {
			b.Fatalf("league run: exit %d\n%s", code, stderr)
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "ms-median")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1e3, "ms-max")
}
