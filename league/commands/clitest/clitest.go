// Package clitest runs ttt's command line for tests as a user would, in
// a directory of its own, and checks its output and exit status. The
// commands run in-process through commands.Run, so that the race
// detector sees them; a test that needs a real process (a signal, a
// SIGKILL, another user, a resource limit) gives the binary, which the
// top-level TestMain builds once.
package clitest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ttt/agents/testkit"
	"ttt/league/commands"
	"ttt/store"
)

// TTT is ttt run in Dir.
type TTT struct {
	Dir string
	// Bin is the built program; empty, commands run in-process, with Dir
	// as the working directory of the test (which must not be parallel).
	Bin string
	// Sys is how Bin's processes start (as another user, say); nil: as
	// the test's.
	Sys *syscall.SysProcAttr
}

// Quick are ttt league run's flags for rounds of a few milliseconds, with
// real training, evaluation, rating and commits.
var Quick = []string{"--games-per-round", "500", "--hidden", "16", "--seed", "5"}

// LeagueRun is `ttt league run` on league.db with flags and then more.
func LeagueRun(flags []string, more ...string) []string {
	return append(append([]string{"league", "run", "--db", "league.db"}, flags...), more...)
}

// New is ttt in-process, in a new temporary directory.
func New(t testing.TB) TTT { return TTT{Dir: t.TempDir()} }

// Run runs ttt with args and no input, and returns its stdout, stderr
// and exit status.
func (p TTT) Run(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return p.RunInput(t, "", args...)
}

// RunInput runs ttt with args and stdin as its input. Neither way sees
// the caller's TTT_DB: only --db chooses a database.
func (p TTT) RunInput(t testing.TB, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if p.Bin != "" {
		cmd := p.Command(args...)
		cmd.Stdin = strings.NewReader(stdin)
		return Execute(t, cmd)
	}
	var out, errOut bytes.Buffer
	code = commands.Run(t.Context(), p.env(strings.NewReader(stdin), &out, &errOut), args)
	return out.String(), errOut.String(), code
}

// env is what ttt in-process sees: Dir as its working directory, the
// streams given, and no environment (no TTT_DB). It touches nothing of
// the test's process, so that tests run in parallel.
func (p TTT) env(stdin io.Reader, stdout, stderr io.Writer) commands.Env {
	return commands.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Dir: p.Dir}
}

// Command is the built ttt with args, in Dir, without the caller's
// TTT_DB; its process dies with the test binary.
func (p TTT) Command(args ...string) *exec.Cmd {
	if p.Bin == "" {
		panic("clitest: a process needs the built binary (TTT.Bin)")
	}
	cmd := exec.Command(p.Bin, args...)
	cmd.Dir = p.Dir
	cmd.SysProcAttr = p.Sys
	// A test killed by its -timeout or by Ctrl-C takes its processes
	// with it: a ttt serve left listening would hold its port.
	testkit.DieWithTest(cmd)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TTT_DB=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}

// Execute runs cmd and returns its stdout, stderr and exit status.
func Execute(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, ok := errors.AsType[*exec.ExitError](err); ok {
		code = cmd.ProcessState.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// OK runs ttt and fails the test unless it succeeds; it returns stdout.
func (p TTT) OK(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, code := p.Run(t, args...)
	if code != 0 {
		t.Fatalf("ttt %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// OKJSON runs ttt, which must succeed and print JSON, and decodes its
// output into v.
func (p TTT) OKJSON(t testing.TB, v any, args ...string) {
	t.Helper()
	out := p.OK(t, args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("ttt %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// Refused checks that ttt fails with exit status 1 and one line on
// stderr, "ttt: ..." with want in it.
func (p TTT) Refused(t testing.TB, want string, args ...string) {
	t.Helper()
	p.fails(t, 1, want, args)
}

// Usage checks that ttt refuses the command line itself: exit status 2
// and one line on stderr, "ttt: ..." with want in it.
func (p TTT) Usage(t testing.TB, want string, args ...string) {
	t.Helper()
	p.fails(t, 2, want, args)
}

func (p TTT) fails(t testing.TB, status int, want string, args []string) {
	t.Helper()
	out, errOut, code := p.Run(t, args...)
	if code != status || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "ttt: ") ||
		strings.HasPrefix(errOut, "ttt: ttt") || !strings.Contains(errOut, want) {
		t.Errorf("ttt %s: exit %d, stderr %q; want exit %d and one line with %q (stdout %q)",
			strings.Join(args, " "), code, errOut, status, want, out)
	}
}

// File reads a file in Dir.
func (p TTT) File(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(p.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Write writes a file in Dir.
func (p TTT) Write(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(p.Dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Snapshot is DirState(dir), and fails the test if dir cannot be read.
func Snapshot(t testing.TB, dir string) string {
	t.Helper()
	state, err := DirState(dir)
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// DirState names every file in dir with a hash of its content, every
// directory in it (not what the directory holds), every symbolic link
// with what it names, and every other file (a FIFO, a socket) with its
// type, so that a changed, added or removed file shows. An SQLite -shm
// file is named without its content: it is the readers' shared index,
// which every reader updates.
func DirState(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			fmt.Fprintf(&sb, "%s/; ", e.Name())
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&sb, "%s -> %s; ", e.Name(), target)
		case !e.Type().IsRegular():
			fmt.Fprintf(&sb, "%s (%v); ", e.Name(), e.Type())
		case strings.HasSuffix(e.Name(), "-shm"):
			fmt.Fprintf(&sb, "%s; ", e.Name())
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&sb, "%s %x; ", e.Name(), sha256.Sum256(data))
		}
	}
	return sb.String(), nil
}

// roundLine matches the line of a committed round of ttt league run.
var roundLine = regexp.MustCompile(`(?m)^round (\d+) `)

// LastReported is the last round that a league run's output reports, 0
// for none.
func LastReported(stdout string) int64 {
	var last int64
	for _, m := range roundLine.FindAllStringSubmatch(stdout, -1) {
		last, _ = strconv.ParseInt(m[1], 10, 64)
	}
	return last
}

// Background is a ttt command under way: in-process when TTT.Bin is
// empty, otherwise the built program in a process of its own. Its output
// can be read while it runs.
type Background struct {
	args   []string
	pid    int                        // the process's; 0 in-process
	signal func(syscall.Signal) error // as Ctrl-C, kill(1) or SIGKILL would
	mu     sync.Mutex
	change *sync.Cond // output came, or the command ended
	stdout []byte
	lines  []Line // stdout's complete lines, as they came
	stderr []byte
	ended  bool
	code   int           // the exit status, once ended
	cpu    time.Duration // the processor time of the built binary's process, once ended
}

// Line is a line of a command's standard output and when it came.
type Line struct {
	Text string
	At   time.Time
}

// Start starts ttt with args and no input. The test ends it, if it has
// not ended by then, as SIGKILL would.
func (p TTT) Start(t testing.TB, args ...string) *Background {
	t.Helper()
	b := &Background{args: args}
	b.change = sync.NewCond(&b.mu)
	stdout, stderr := writerFunc(b.writeStdout), writerFunc(b.writeStderr)
	if p.Bin == "" {
		ctx, cancel := context.WithCancel(context.Background())
		b.signal = func(sig syscall.Signal) error {
			if sig == syscall.SIGKILL {
				return errors.New("clitest: a command in-process cannot be killed, only interrupted")
			}
			cancel()
			return nil
		}
		go func() {
			code := commands.Run(ctx, p.env(strings.NewReader(""), stdout, stderr), args)
			cancel()
			b.end(code)
		}()
	} else {
		cmd := p.Command(args...)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		b.pid = cmd.Process.Pid
		b.signal = func(sig syscall.Signal) error { return cmd.Process.Signal(sig) }
		go func() {
			cmd.Wait()
			b.mu.Lock()
			b.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			b.mu.Unlock()
			b.end(cmd.ProcessState.ExitCode())
		}()
	}
	t.Cleanup(func() {
		if p.Bin == "" {
			b.signal(syscall.SIGINT)
		} else {
			b.signal(syscall.SIGKILL)
		}
		b.Wait(t)
	})
	return b
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }

func (b *Background) writeStdout(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	start := len(b.stdout) - bytes.LastIndexByte(b.stdout, '\n') - 1 // the unfinished line's length
	b.stdout = append(b.stdout, p...)
	rest := b.stdout[len(b.stdout)-len(p)-start:]
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		b.lines = append(b.lines, Line{Text: string(rest[:i]), At: now})
		rest = rest[i+1:]
	}
	b.change.Broadcast()
	return len(p), nil
}

func (b *Background) writeStderr(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stderr = append(b.stderr, p...)
	return len(p), nil
}

func (b *Background) end(code int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ended, b.code = true, code
	b.change.Broadcast()
}

// await waits until done says so, or the command has ended: false then,
// unless done says so still. done runs with b.mu held. It fails the test,
// saying what it waited for, when the test's patience runs out.
func (b *Background) await(t testing.TB, what string, done func() bool) bool {
	t.Helper()
	patience := Patience(t)
	timeout := time.AfterFunc(patience, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.change.Broadcast()
	})
	defer timeout.Stop()
	deadline := time.Now().Add(patience)
	b.mu.Lock()
	defer b.mu.Unlock()
	for !done() && !b.ended {
		if time.Now().After(deadline) {
			t.Fatalf("ttt %s: no %s after %v\n%s%s", strings.Join(b.args, " "), what, patience.Round(time.Second), b.stdout, b.stderr)
		}
		b.change.Wait()
	}
	return done()
}

// Patience is how long a test waits for what must come before it calls
// it a hang: until shortly before go test's -timeout would stop the test
// binary, so that the failure says what was awaited, however loaded the
// machine. A test without a deadline (a benchmark, a fuzzer) waits ten
// minutes, go test's default -timeout.
func Patience(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := d.Deadline(); ok {
			left := time.Until(end)
			return left - left/20
		}
	}
	return 10 * time.Minute
}

// Line waits for the i-th line of standard output (from 0), and reports
// false if the command ended without writing it.
func (b *Background) Line(t testing.TB, i int) (Line, bool) {
	t.Helper()
	if !b.await(t, fmt.Sprintf("line %d", i+1), func() bool { return len(b.lines) > i }) {
		return Line{}, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lines[i], true
}

// WaitOutput waits until the command has written want on its standard
// output, and fails the test if it ends without.
func (b *Background) WaitOutput(t testing.TB, want string) {
	t.Helper()
	if !b.await(t, fmt.Sprintf("%q", want), func() bool { return bytes.Contains(b.stdout, []byte(want)) }) {
		t.Fatalf("ttt %s ended with %d before it wrote %q\n%s%s", strings.Join(b.args, " "), b.code, want, b.stdout, b.stderr)
	}
}

// Pid is the process's id; 0 for a command in-process.
func (b *Background) Pid() int { return b.pid }

// Stdout is what the command has written on its standard output so far.
func (b *Background) Stdout() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.stdout)
}

// Stop sends sig, as Ctrl-C (SIGINT), kill(1) (SIGTERM) or kill -9
// (SIGKILL) would, and waits for the command to end. In-process, SIGINT
// and SIGTERM cancel its context, which is what main does with them.
func (b *Background) Stop(t testing.TB, sig syscall.Signal) (stdout, stderr string, code int) {
	t.Helper()
	if err := b.signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	return b.Wait(t)
}

// Wait waits for the command to end and returns its output and exit
// status; it fails the test if the command outlasts the test's patience.
func (b *Background) Wait(t testing.TB) (stdout, stderr string, code int) {
	t.Helper()
	b.await(t, "end", func() bool { return b.ended })
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.stdout), string(b.stderr), b.code
}

// CPU waits for the built binary's process to end and returns the
// processor time it used, user and system: what a command cost, which a
// loaded machine does not inflate as it does the wall time.
func (b *Background) CPU(t testing.TB) time.Duration {
	t.Helper()
	b.Wait(t)
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cpu
}

// AwaitLock waits until the command holds the league lock of the
// database at path, a flock(2) on the file itself: until a league run
// started in the background has begun. It reads who holds the lock
// (store.LockHolder) rather than trying it, since a probe that took the
// lock for an instant would make the league it waits for find its
// database in use. It fails the test if the command ends first.
func (b *Background) AwaitLock(t testing.TB, path string) {
	t.Helper()
	pid := b.pid
	if pid == 0 {
		pid = os.Getpid() // in-process
	}
	patience := Patience(t)
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if store.LockHolder(path) == pid {
			return
		}
		b.mu.Lock()
		ended, code, out := b.ended, b.code, string(b.stdout)+string(b.stderr)
		b.mu.Unlock()
		if ended {
			t.Fatalf("ttt %s ended with %d before it held the league lock\n%s", strings.Join(b.args, " "), code, out)
		}
	}
	t.Fatalf("ttt %s: no league lock on %s after %v", strings.Join(b.args, " "), path, patience.Round(time.Second))
}

// SQL opens the database at path with SQLite itself, for what no command
// shows; the test closes it.
func SQL(t testing.TB, path string) *sql.DB {
	t.Helper()
	// The driver is modernc.org/sqlite, which package store registers.
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: path}).String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
