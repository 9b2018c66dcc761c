package main_test

import (
	"bufio"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttt/league/commands/clitest"
)

// BenchmarkStop times Ctrl-C, from SIGINT to the process's exit: ttt
// league run in a round's training (after half a second of its CPU), and
// ttt serve with an event stream open. It reports the median and the
// slowest. The tests check that each stops (testStopOnSignal, TestServe);
// how soon is this benchmark's:
//
//	go test -run '^$' -bench Stop -benchtime 10x -count 3 .
func BenchmarkStop(b *testing.B) {
	p := clitest.TTT{Dir: b.TempDir(), Bin: bin}
	p.OK(b, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	b.Run("league-run", func(b *testing.B) {
		timeStops(b, func() *clitest.Background {
			run := p.Start(b, clitest.LeagueRun(forever)...)
			awaitTraining(b, p, run)
			return run
		})
	})
	b.Run("serve", func(b *testing.B) {
		timeStops(b, func() *clitest.Background {
			run := p.Start(b, "serve", "--addr", "127.0.0.1:0")
			run.WaitOutput(b, "(Ctrl-C stops)\n")
			res, err := http.Get(servingAt.FindStringSubmatch(run.Stdout())[1] + "api/events")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { res.Body.Close() })
			for events := bufio.NewReader(res.Body); ; {
				line, err := events.ReadString('\n')
				if err != nil {
					b.Fatalf("the event stream: %v", err)
				}
				if strings.HasPrefix(line, "event: round") {
					return run
				}
			}
		})
	})
}

// timeStops starts a command with start, b.N times, stops it with SIGINT,
// and reports how long it took to exit: the median and the slowest.
func timeStops(b *testing.B, start func() *clitest.Background) {
	var times []time.Duration
	for b.Loop() {
		run := start()
		sent := time.Now()
		if stdout, stderr, code := run.Stop(b, syscall.SIGINT); code != 130 {
			b.Fatalf("exit %d after SIGINT\n%s%s", code, stdout, stderr)
		}
		times = append(times, time.Since(sent))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "ms-median")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1e3, "ms-max")
}
