// Package clitest runs ttt's command line for tests as a user would, in
// a directory of its own, and checks its output and exit status. The
// commands run in-process through commands.Run, so that the race
// detector sees them; a test that needs a real process (a signal, a
// SIGKILL, another user, a resource limit) gives the binary, which the
// top-level TestMain builds once.
package clitest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"ttt/league/commands"
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
	t.Chdir(p.Dir)
	t.Setenv("TTT_DB", "") // restored after the test
	os.Unsetenv("TTT_DB")
	var out, errOut bytes.Buffer
	code = commands.Run(t.Context(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// Command is the built ttt with args, in Dir, without the caller's
// TTT_DB.
func (p TTT) Command(args ...string) *exec.Cmd {
	if p.Bin == "" {
		panic("clitest: a process needs the built binary (TTT.Bin)")
	}
	cmd := exec.Command(p.Bin, args...)
	cmd.Dir = p.Dir
	cmd.SysProcAttr = p.Sys
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

// Snapshot names every file in dir with a hash of its content, and every
// directory in it, so that a changed, added or removed file shows.
func Snapshot(t testing.TB, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, e := range entries {
		if e.IsDir() {
			fmt.Fprintf(&sb, "%s/; ", e.Name())
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%s %x; ", e.Name(), sha256.Sum256(data))
	}
	return sb.String()
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
