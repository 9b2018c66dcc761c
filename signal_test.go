//go:build linux

package main_test

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttt/league/commands/clitest"
	"ttt/store"
)

// SIGHUP (the terminal closed) during `games export --pgn FILE` ends it
// as SIGINT and SIGTERM do: one line, exit 130, no FILE and no temporary
// file left. A night's export would leave gigabytes behind. The
// export is stopped (SIGSTOP) once its temporary file is there, so that
// the SIGHUP certainly comes before it ends; an export that ended before
// the test saw its file is tried again.
func testHangUpDuringExport(t *testing.T, p clitest.TTT) {
	// A test run under nohup ignores SIGHUP, and its children inherit
	// that: ttt would keep it ignored, as it should for nohup. Catching
	// it here gives the children the default again, since exec resets a
	// caught signal and keeps an ignored one.
	if signal.Ignored(syscall.SIGHUP) {
		signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
	}
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "20")...)
	before := clitest.Snapshot(t, p.Dir)
	for attempt := 0; ; attempt++ {
		if attempt == 50 {
			t.Fatal("no export was caught with its temporary file in 50 tries")
		}
		run := p.Start(t, "games", "export", "--pgn", "games.pgn")
		if !caughtWithTemp(t, p, run) {
			run.Wait(t)
			os.Remove(filepath.Join(p.Dir, "games.pgn"))
			continue
		}
		syscall.Kill(run.Pid(), syscall.SIGHUP)
		syscall.Kill(run.Pid(), syscall.SIGCONT)
		_, stderr, code := run.Wait(t)
		if code != 130 || stderr != "ttt: stopped: interrupted\n" {
			t.Errorf("games export after SIGHUP: exit %d, stderr %q; want exit 130 and one line", code, stderr)
		}
		if after := clitest.Snapshot(t, p.Dir); after != before {
			t.Errorf("games export after SIGHUP left files:\nbefore %s\nafter  %s", before, after)
		}
		return
	}
}

// caughtWithTemp waits until run, a games export, has made its temporary
// file, and stops the process there (SIGSTOP). It reports false, with the
// process going on, when the export ended first.
func caughtWithTemp(t *testing.T, p clitest.TTT, run *clitest.Background) bool {
	t.Helper()
	for {
		temps, _ := filepath.Glob(filepath.Join(p.Dir, ".ttt-*.tmp"))
		if len(temps) > 0 {
			syscall.Kill(run.Pid(), syscall.SIGSTOP)
			if _, err := os.Stat(temps[0]); err == nil {
				return true
			}
			syscall.Kill(run.Pid(), syscall.SIGCONT)
			return false
		}
		if _, err := os.Stat(filepath.Join(p.Dir, "games.pgn")); err == nil {
			return false
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// A league run started with SIGHUP ignored (nohup ttt league run &) keeps
// ignoring it, and goes on when the terminal closes: the kernel's list of
// the signals that the process ignores says so.
func testNohup(t *testing.T, p clitest.TTT) {
	cmd := p.Command(clitest.LeagueRun(forever)...)
	cmd.Args = append([]string{"sh", "-c", `trap "" HUP && exec "$0" "$@"`}, cmd.Args...)
	cmd.Path = "/bin/sh"
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	path := filepath.Join(p.Dir, "league.db")
	for store.LockHolder(path) != cmd.Process.Pid {
		select {
		case <-done:
			t.Fatalf("the league ended before it held its lock\n%s", out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	const hup = 1 << (syscall.SIGHUP - 1)
	for _, line := range strings.Split(string(status), "\n") {
		if mask, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			if m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64); err != nil || m&hup == 0 {
				t.Errorf("a league run started with SIGHUP ignored no longer ignores it (SigIgn %s)", strings.TrimSpace(mask))
			}
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	<-done
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(out.String(), "stopped: ") {
		t.Errorf("a league run that ignores SIGHUP, after SIGINT: exit %d\n%s", code, out.String())
	}
}

// One Ctrl-C stops every long command (a search of any depth, the
// solver, a training, ttt serve with a search in flight) with one line,
// ttt: stopped: interrupted, and exit status 130, as it stops a league
// run. Each gets the signal once it has used half a second of CPU: well
// into its work, whatever the machine's speed.
func TestCtrlCStopsEveryCommand(t *testing.T) {
	t.Parallel()
	p := built(t)
	// A league evaluated from the empty board alone, with no extra ladder
	// games: the commands only need its best.
	p.OK(t, "league", "run", "--rounds", "2", "--game", "connect4", "--learners", "tdlambda",
		"--games-per-round", "300", "--hidden", "16", "--opponents", "4", "--openings", "0", "--ladder-interval", "200", "--seed", "3")
	for _, args := range [][]string{
		{"verify", "best@mcts1000000"},
		{"verify", "best@ab42", "--against", "solver"},
		{"compare", "best@ab42", "best"},
		{"show", "best@mcts1000000"},
		{"play", "--checkpoint", "best@ab42", "--as", "O", "--move-time", "1h"},
		{"analyze", "--game", "connect4", "--time", "0", ""},
		{"train", "--games", "1000000000", "--db", "trained.db"},
		{"roundrobin", "best", "best@ab42"},
		{"roundrobin", "best", "best@ab3", "best@mcts1000000"},
		{"serve", "--addr", "127.0.0.1:0"},
	} {
		t.Run(args[0], func(t *testing.T) {
			run := p.Start(t, args...)
			answered := make(chan int, 1)
			if args[0] == "serve" {
				run.WaitOutput(t, "(Ctrl-C stops)\n")
				url := servingAt.FindStringSubmatch(run.Stdout())[1]
				go func() {
					status := 0
					if res, err := http.Get(url + "api/compare/best@ab42/best"); err == nil {
						status = res.StatusCode
						res.Body.Close()
					}
					answered <- status
				}()
			}
			for cpuSeconds(t, run.Pid()) < 0.5 {
				time.Sleep(10 * time.Millisecond)
			}
			stdout, stderr, code := run.Stop(t, syscall.SIGINT)
			if code != 130 || stderr != "ttt: stopped: interrupted\n" {
				t.Errorf("ttt %s after one SIGINT: exit %d, stderr %q\n%s", strings.Join(args, " "), code, stderr, stdout)
			}
			if args[0] == "serve" {
				if status := <-answered; status != http.StatusServiceUnavailable {
					t.Errorf("the search in flight when ttt serve stopped: %d, want 503", status)
				}
			}
		})
	}
}
