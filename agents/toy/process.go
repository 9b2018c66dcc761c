package toy

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/testkit"
)

// testEnv names the test that a test binary runs with Connect Three
// registered.
const testEnv = "TTT_TOY_TEST"

// register makes Connect Three known to every command, as a game's
// package does when it is loaded.
var register = sync.OnceFunc(func() {
	game.Register(Game)
	agents.Register(Kit)
})

// OwnProcess runs the top-level test t where Connect Three is
// registered, and reports whether the caller is that place.
//
// The registry of games is global. A game registered by one test would
// be seen by every other test of the binary, which then would not run
// the program users get. So the test binary runs again, as a child,
// with only t selected and the game registered there. In the child,
// OwnProcess returns true and the test goes on. In the parent, it
// returns false and t passes, fails or skips as the child did.
func OwnProcess(t *testing.T) bool {
	t.Helper()
	name := t.Name()
	if os.Getenv(testEnv) == name {
		register()
		return true
	}
	if strings.Contains(name, "/") {
		t.Fatalf("toy.OwnProcess runs a top-level test, not the subtest %s", name)
	}
	args := []string{"-test.run=^" + regexp.QuoteMeta(name) + "$", "-test.v", "-test.count=1", "-test.timeout=0"}
	if deadline, ok := t.Deadline(); ok {
		// The child times out first, so that its goroutines' stacks are
		// what the failure shows, and no child outlives the binary.
		args[3] = "-test.timeout=" + (time.Until(deadline) * 19 / 20).String()
	}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	// The child dies with this binary, should it end first (its own
	// -timeout, a Ctrl-C), not only when the test's context ends.
	cmd := testkit.DieWithTest(exec.CommandContext(t.Context(), os.Args[0], args...))
	cmd.Env = append(os.Environ(), testEnv+"="+name)
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("%s, in a process of its own with Connect Three registered: %v\n%s", name, err, out)
	case strings.Contains(string(out), "--- SKIP: "+name+" "):
		t.Skipf("skipped in its own process:\n%s", out)
	case !strings.Contains(string(out), "--- PASS: "+name+" "):
		t.Fatalf("%s did not run in its own process:\n%s", name, out)
	}
	t.Logf("in its own process, with Connect Three registered:\n%s", out)
	return false
}
