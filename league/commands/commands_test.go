package commands_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tttBin is the real ttt binary, built once for the package's tests: what
// a command does on a pipe (stdin, stdout, stderr, exit code) is the
// point of the tests that use it.
var tttBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ttt-commands-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tttBin = filepath.Join(dir, "ttt")
	if out, err := exec.Command("go", "build", "-o", tttBin, "ttt").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ttt: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs ttt in dir with stdin as its input and returns its stdout,
// stderr and exit code. TTT_DB is unset, so only --db chooses a database.
func run(t *testing.T, dir, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(tttBin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TTT_DB=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// ok runs ttt without input and fails the test unless it succeeds.
func ok(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, dir, "", args...)
	if code != 0 {
		t.Fatalf("ttt %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// refused checks that ttt fails with exit code 1 and one line on stderr
// that contains want.
func refused(t *testing.T, dir, want string, args ...string) {
	t.Helper()
	out, errOut, code := run(t, dir, "", args...)
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "ttt: ") || !strings.Contains(errOut, want) {
		t.Errorf("ttt %s: exit %d, stderr %q; want exit 1 and one line with %q (stdout %q)",
			strings.Join(args, " "), code, errOut, want, out)
	}
}

// snapshot names every file in dir with a hash of its content, so that a
// changed, added or removed file shows.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%s %x; ", e.Name(), sha256.Sum256(data))
	}
	return sb.String()
}
