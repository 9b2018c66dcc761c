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

// BenchmarkStopSearch measures the processor time that a command spends
// after one Ctrl-C, from its process's stat file at the signal to its
// exit (its rusage), which a loaded machine does not inflate: each
// command that searches with best@mcts1000000, in each game, once it
// has spent a second of processor time. It reports the most of its runs;
// the target is under a second. TestCtrlCStopsEveryCommand checks that
// each stops:
//
//	go test -run '^$' -bench StopSearch -benchtime 3x .
func BenchmarkStopSearch(b *testing.B) {
	for _, g := range []struct {
		name   string
		league []string
	}{
		{"tictactoe", []string{"--games-per-round", "500", "--hidden", "16", "--seed", "5"}},
		{"connect4", []string{"--game", "connect4", "--learners", "tdlambda", "--games-per-round", "300",
			"--opponents", "4", "--openings", "1", "--ladder-interval", "200", "--seed", "3"}},
	} {
		p := clitest.TTT{Dir: b.TempDir(), Bin: bin}
		p.OK(b, clitest.LeagueRun(g.league, "--rounds", "2")...)
		for _, args := range [][]string{
			{"roundrobin", "best", "best@mcts1000000"},
			{"verify", "best@mcts1000000"},
			{"show", "best@mcts1000000"},
			clitest.LeagueRun(g.league, "--rounds", "4", "--search", "mcts1000000"),
		} {
			b.Run(g.name+"/"+args[0], func(b *testing.B) {
				most := 0.0
				for b.Loop() {
					run := p.Start(b, args...)
					for cpuSeconds(b, run.Pid()) < 1 {
						time.Sleep(10 * time.Millisecond)
					}
					at := cpuSeconds(b, run.Pid())
					if stdout, stderr, code := run.Stop(b, syscall.SIGINT); code != 130 {
						b.Fatalf("ttt %s: exit %d after SIGINT\n%s%s", strings.Join(args, " "), code, stdout, stderr)
					}
					most = max(most, run.CPU(b).Seconds()-at)
				}
				b.ReportMetric(most, "cpu-s-after-max")
			})
		}
	}
}
