package commands_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"ttt/league/commands"
	"ttt/league/commands/clitest"
)

// countdown is a context cancelled at the k-th look at it (Done or Err):
// a Ctrl-C at each step of a command in turn, with no timing. A context
// made from it looks once, to follow it.
//
// The looks of database/sql's watchers are not counted: each Rows that
// a query returns starts a goroutine that waits on the query's context,
// and it takes its look whenever the scheduler runs it, even after the
// command has made its last look and returned. Counted, such a look
// made the count differ from run to run, and a k that only a late
// watcher reached "stopped" a command that had already finished (exit
// 0, the whole file) as if it had ignored the stop. A watcher decides
// nothing: the command's own looks, before and after it, do.
type countdown struct {
	context.Context
	cancel context.CancelFunc
	k      int64
	looks  atomic.Int64
}

// watcher reports whether the look comes from a goroutine that
// database/sql or the SQLite driver started to wait on a query's
// context (see countdown): the function its goroutine began with, the
// last frame before the runtime's, is theirs.
func watcher() bool {
	var pcs [128]uintptr
	n := runtime.Callers(4, pcs[:]) // Callers, watcher, look, Done or Err: then who looked
	frames := runtime.CallersFrames(pcs[:n])
	start := ""
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			start = f.Function
		}
		if !more {
			break
		}
	}
	return strings.HasPrefix(start, "database/sql.") || strings.HasPrefix(start, "modernc.org/sqlite")
}

func newCountdown(k int64) *countdown {
	ctx, cancel := context.WithCancel(context.Background())
	return &countdown{Context: ctx, cancel: cancel, k: k}
}

func (c *countdown) Done() <-chan struct{} { c.look(); return c.Context.Done() }
func (c *countdown) Err() error            { c.look(); return c.Context.Err() }

func (c *countdown) look() {
	if watcher() {
		return
	}
	if c.looks.Add(1) == c.k {
		c.cancel()
	}
}

// A Ctrl-C at any moment of a league run, from the opening of the file
// to its one round, stops it as a Ctrl-C in a round does. That is exit
// status 130, a line that says it stopped, nothing on stderr, and a
// league that the next run goes on with. What the stop broke ("context
// canceled", "sql: statement is closed", exit status 1) is never what
// the user sees. The Ctrl-C comes at the k-th look at the context, for
// every k up to 5 and then k a fifth larger each time, until the run
// ends before it: some thousands of looks.
func TestStopAtAnyMoment(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	for k := int64(1); ; k = max(k+1, k*6/5) {
		ctx := newCountdown(k)
		var stdout, stderr bytes.Buffer
		code := commands.Run(ctx, commands.Env{Stdout: &stdout, Stderr: &stderr, Dir: p.Dir}, clitest.LeagueRun(clitest.Quick, "--rounds", "1"))
		// A run that played its round before the stop ends as asked:
		// status 0 where the countdown was never reached, and where it was
		// reached in the last looks, while closing, the line of any
		// command that a stop met, and 130.
		finished := strings.Contains(stdout.String(), "(--rounds)")
		late := finished && code == 130 && stderr.String() == "ttt: stopped: interrupted\n"
		if code != 130 && !(finished && code == 0) || stderr.Len() > 0 && !late || !strings.Contains(stdout.String(), "\nstopped: ") && !strings.HasPrefix(stdout.String(), "stopped: ") {
			t.Fatalf("a stop at look %d: exit %d, stdout %q, stderr %q", k, code, stdout.String(), stderr.String())
		}
		if ctx.looks.Load() < k {
			t.Logf("%d looks at the context in a run that was not stopped", ctx.looks.Load())
			break
		}
	}
	p.OK(t, "check")
}

// A Ctrl-C at any moment of a command that writes a file has one
// behaviour: the line ttt: stopped: interrupted, exit status 130, and
// either the whole file (the stop came after its rename into place) or
// none, and no temporary file left. The stop comes at the k-th look at
// the context, for every k, until the command ends before it.
func TestStopWritingAtAnyMoment(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	for _, args := range [][]string{
		{"export", "--checkpoint", "best", "-o", "out.bin"},
		{"games", "export", "--rounds", "1-2", "--pgn", "out.pgn"},
		{"ratings", "plot", "-o", "out.svg"},
	} {
		out := filepath.Join(p.Dir, args[len(args)-1])
		p.OK(t, args...)
		whole := p.File(t, args[len(args)-1])
		for k := int64(1); ; k++ {
			os.Remove(out)
			ctx := newCountdown(k)
			var stdout, stderr bytes.Buffer
			code := commands.Run(ctx, commands.Env{Stdout: &stdout, Stderr: &stderr, Dir: p.Dir}, args)
			got, err := os.ReadFile(out)
			if leftover, _ := filepath.Glob(filepath.Join(p.Dir, ".ttt-*")); len(leftover) > 0 {
				t.Fatalf("ttt %s, stopped at look %d: left %v", strings.Join(args, " "), k, leftover)
			}
			if ctx.looks.Load() < k {
				if code != 0 || !bytes.Equal(got, whole) {
					t.Errorf("ttt %s, not stopped: exit %d, %d bytes written of %d", strings.Join(args, " "), code, len(got), len(whole))
				}
				t.Logf("ttt %s: %d looks at the context", strings.Join(args, " "), ctx.looks.Load())
				break
			}
			if code != 130 || stderr.String() != "ttt: stopped: interrupted\n" || err == nil && !bytes.Equal(got, whole) || err != nil && !os.IsNotExist(err) {
				t.Fatalf("ttt %s, stopped at look %d: exit %d, stderr %q, %d bytes written of %d (%v)", strings.Join(args, " "), k, code, stderr.String(), len(got), len(whole), err)
			}
		}
	}
}
