package commands

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal, where progress bars belong.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress is a progress bar on stderr when stdout and stderr are both a
// terminal, and nothing otherwise, so logs and pipes get plain lines.
type progress struct {
	bar *progressbar.ProgressBar
}

// progress starts a bar for total units (games, matches) of the job's
// work, described by what.
func (j *job) progress(total int64, what, unit string) progress {
	if !isTerminal(j.Stdout) || !isTerminal(j.Stderr) {
		return progress{}
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(j.Stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionThrottle(100_000_000), // 0.1 s
		progressbar.OptionClearOnFinish(),
	)
	// Drawing it now starts its clock: otherwise the clock starts at the
	// first update, and the rate shown until the next is that update's
	// whole count over almost no time.
	_ = bar.RenderBlank()
	return progress{bar: bar}
}

// set moves the bar to n.
func (p progress) set(n int64) {
	if p.bar != nil {
		_ = p.bar.Set64(n)
	}
}

// println prints a line above the bar.
func (p progress) println(w io.Writer, format string, args ...any) {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	fmt.Fprintf(w, format+"\n", args...)
}

// finish removes the bar.
func (p progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// heartbeat paces the lines that stand for a progress bar where there is
// no terminal: one every so often, none at all for every 0.
type heartbeat struct {
	every time.Duration
	next  time.Time
}

// start starts the wait for the first line at now.
func (h *heartbeat) start(now time.Time) { h.next = now.Add(h.every) }

// due reports whether a line is due at now, and if so waits for the next.
func (h *heartbeat) due(now time.Time) bool {
	if h.every <= 0 || now.Before(h.next) {
		return false
	}
	h.next = now.Add(h.every)
	return true
}
