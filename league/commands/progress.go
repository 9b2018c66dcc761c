package commands

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
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

// bars reports whether the job's work shows progress bars: whether its
// stdout and stderr are both a terminal.
func (j *job) bars() bool { return isTerminal(j.Stdout) && isTerminal(j.Stderr) }

// progress starts a bar for total units (games, matches) of the job's
// work, described by what.
func (j *job) progress(total int64, what, unit string) progress {
	if !j.bars() {
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
// no terminal: a line is due once the run has been silent for every,
// none at all for every 0.
type heartbeat struct {
	every time.Duration
	next  time.Time
}

// start starts the wait for the next line at now: a line was printed.
func (h *heartbeat) start(now time.Time) { h.next = now.Add(h.every) }

// due reports whether a line is due at now, and if so waits for the next.
func (h *heartbeat) due(now time.Time) bool {
	if h.every <= 0 || now.Before(h.next) {
		return false
	}
	h.next = now.Add(h.every)
	return true
}

// watchPause is the least a heartbeat's watch sleeps between two looks:
// a line more often than this helps no reader, and a --heartbeat of a
// nanosecond (the tests') would otherwise keep a core busy printing.
const watchPause = 100 * time.Millisecond

// wait is how long the watch of a run that is silent between its events
// sleeps, at now, before it looks whether a line is due.
func (h *heartbeat) wait(now time.Time) time.Duration {
	return max(h.next.Sub(now), watchPause)
}

// doing is what a league run is doing now, for its heartbeat: the
// round evaluated, the best's extra games against the ladder after the
// round before, and the round training, each with how far it has come
// (round 0: none such).
type doing struct {
	evaluating, laddering, training work
	best                            string // whose ladder games
}

// work is a part of what a league run is doing: its round (0: none),
// how far it has come, and since when it has been at it.
type work struct {
	round       int64
	done, total int
	since       time.Time
}

// set moves w to done of total of round at now; its start is now if the
// round is another.
func (w *work) set(round int64, done, total int, now time.Time) {
	if w.round != round {
		w.since = now
	}
	w.round, w.done, w.total = round, done, total
}

// MarshalJSON writes d as the dashboard reads it from the league (runs'
// progress): each part under way with its round, how far it has come
// and since when; the ladder games with whose they are. Nothing under
// way is {}.
func (d doing) MarshalJSON() ([]byte, error) {
	type part struct {
		Round int64     `json:"round"`
		Best  string    `json:"best,omitempty"`
		Done  int       `json:"done"`
		Total int       `json:"total"`
		Since time.Time `json:"since"`
	}
	out := map[string]part{}
	for name, w := range map[string]work{"training": d.training, "evaluating": d.evaluating, "ladder": d.laddering} {
		if w.round > 0 {
			p := part{Round: w.round, Done: w.done, Total: w.total, Since: w.since.UTC()}
			if name == "ladder" {
				p.Best = d.best
			}
			out[name] = p
		}
	}
	return json.Marshal(out)
}

// String is the heartbeat's line: each thing under way, the older round
// first; "" for nothing.
func (d doing) String() string {
	var parts []string
	if e := d.evaluating; e.round > 0 {
		parts = append(parts, fmt.Sprintf("round %d: evaluating, %d of %d matches", e.round, e.done, e.total))
	}
	if l := d.laddering; l.round > 0 {
		parts = append(parts, fmt.Sprintf("round %d: ladder games of the best, %s, %d of about %d", l.round, d.best, l.done, l.total))
	}
	switch t := d.training; {
	case t.round > 0 && t.done == t.total: // waiting for the round before, or being measured
		parts = append(parts, fmt.Sprintf("round %d: trained, %d games", t.round, t.done))
	case t.round > 0:
		parts = append(parts, fmt.Sprintf("round %d: training, %d of %d games", t.round, t.done, t.total))
	}
	return strings.Join(parts, "; ")
}
