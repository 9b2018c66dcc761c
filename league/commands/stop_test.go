package commands_test

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"ttt/league/commands"
	"ttt/league/commands/clitest"
)

// countdown is a context cancelled at the k-th look at it (Done or Err):
// a Ctrl-C at each step of a command in turn, with no timing. A context
// made from it looks once, to follow it.
type countdown struct {
	context.Context
	cancel context.CancelFunc
	k      int64
	looks  atomic.Int64
}

func newCountdown(k int64) *countdown {
	ctx, cancel := context.WithCancel(context.Background())
	return &countdown{Context: ctx, cancel: cancel, k: k}
}

func (c *countdown) Done() <-chan struct{} { c.look(); return c.Context.Done() }
func (c *countdown) Err() error            { c.look(); return c.Context.Err() }

func (c *countdown) look() {
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
		// A run that played its round before the stop (the countdown
		// never reached, or reached in the last looks while closing) ends
		// as asked, with status 0.
		finished := strings.Contains(stdout.String(), "(--rounds)")
		if code != 130 && !(finished && code == 0) || stderr.Len() > 0 || !strings.Contains(stdout.String(), "\nstopped: ") && !strings.HasPrefix(stdout.String(), "stopped: ") {
			t.Fatalf("a stop at look %d: exit %d, stdout %q, stderr %q", k, code, stdout.String(), stderr.String())
		}
		if ctx.looks.Load() < k {
			t.Logf("%d looks at the context in a run that was not stopped", ctx.looks.Load())
			break
		}
	}
	p.OK(t, "check")
}
