package main_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ttt/league/commands/clitest"
)

// BenchmarkConcurrentSearches asks ttt serve, on a Connect Four league,
// for 8 and for 30 of the costliest moves at once (best@mcts1000000, a
// million simulations), as thirty open play pages would, and reports
// the answers' median and slowest times, how many were answered with
// their move (200), refused as busy (503) or never answered (the
// connection closed), and the server's peak resident memory. The
// program is the one these tests build, or $TTT_BENCH_BIN, an older
// one to compare:
//
//	go test -run '^$' -bench ConcurrentSearches -benchtime 1x .
//	TTT_BENCH_BIN=/tmp/ttt-old go test -run '^$' -bench ConcurrentSearches -benchtime 1x .
func BenchmarkConcurrentSearches(b *testing.B) {
	program := bin
	if p := os.Getenv("TTT_BENCH_BIN"); p != "" {
		program = p
	}
	p := clitest.TTT{Dir: b.TempDir(), Bin: program}
	p.OK(b, "league", "run", "--db", "league.db", "--rounds", "2", "--game", "connect4", "--learners", "tdlambda",
		"--games-per-round", "300", "--hidden", "16", "--opponents", "4", "--openings", "1", "--seed", "3")
	for _, n := range []int{8, 30} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for range b.N {
				concurrentSearches(b, p, n)
			}
		})
	}
}

// servingAt is ttt serve's first line, with its address.
var servingAt = regexp.MustCompile(`on (http://\S+/) `)

// concurrentSearches starts a server of p's league, asks it for n moves
// of best@mcts1000000 at once, reports the figures, and stops it.
func concurrentSearches(b *testing.B, p clitest.TTT, n int) {
	b.StopTimer()
	cmd := p.Command("serve", "--db", "league.db", "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	m := servingAt.FindStringSubmatch(line)
	if err != nil || m == nil {
		b.Fatalf("ttt serve said %q (%v)", line, err)
	}
	go io.Copy(io.Discard, out)
	b.StartTimer()
	times := make([]time.Duration, n)
	statuses := make([]int, n) // 0: no answer
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			start := time.Now()
			res, err := http.Get(m[1] + "api/agents/best@mcts1000000/move?moves=4,4")
			if err == nil {
				_, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err == nil {
					statuses[i] = res.StatusCode
				}
			}
			times[i] = time.Since(start)
		})
	}
	wg.Wait()
	b.StopTimer()
	slices.Sort(times)
	count := func(status int) float64 {
		return float64(len(slices.DeleteFunc(slices.Clone(statuses), func(s int) bool { return s != status })))
	}
	b.ReportMetric(float64(times[n/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64(times[n-1].Milliseconds()), "slowest-ms")
	b.ReportMetric(count(http.StatusOK), "ok")
	b.ReportMetric(count(http.StatusServiceUnavailable), "busy")
	b.ReportMetric(count(0), "unanswered")
	b.ReportMetric(peakRSS(b, cmd), "peak-MB")
}

// peakRSS reads the peak resident memory of cmd's process, in MB.
func peakRSS(b *testing.B, cmd *exec.Cmd) float64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/PID/status")
	return 0
}
