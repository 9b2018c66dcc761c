// Package testkit is what the tests of every package share about how
// they run: which tier a test belongs to, and that every process a test
// starts dies with the test binary.
//
// The suite has two tiers. The quick tier, go test -short ./..., is the
// README's test command: every package, every command and both games at
// small scale, in minutes. The long tier, go test ./..., is every test,
// run by CI. A test that belongs to the long tier alone says so with
// Long, so that `grep -rn 'testkit.Long('` lists them with their reasons.
package testkit

import (
	"os/exec"
	"testing"
)

// Long marks t as a test of the long tier: under go test -short it
// skips, saying why it is long. Each long test has a sibling in the
// quick tier that makes its point at a smaller scale; why should say
// what the long test adds to it, and name it.
func Long(t testing.TB, why string) {
	t.Helper()
	if why == "" {
		panic("testkit.Long: say why the test is long")
	}
	if testing.Short() {
		t.Skip("long tier (go test without -short): " + why)
	}
}

// DieWithTest makes cmd's process die when the test binary does, however
// the binary ends: a -timeout that panics, a Ctrl-C, a SIGKILL. Without
// it a test that timed out leaves its processes running (a ttt serve
// still listening, a league still training). It returns cmd, and must
// be called before cmd starts.
//
// On Linux the kernel sends the process SIGKILL when its parent dies
// (PR_SET_PDEATHSIG), which exec keeps: a shell that execs the command
// passes it on, but a process the shell forks does not have it. The
// kernel watches the thread that started the process, not the whole
// program: Go ends a thread only when a goroutine that locked it
// (runtime.LockOSThread) returns without unlocking it, which no test
// does around a start. Elsewhere it does nothing.
func DieWithTest(cmd *exec.Cmd) *exec.Cmd {
	dieWithParent(cmd)
	return cmd
}
