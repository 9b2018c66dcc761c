package commands_test

// The scripts in testdata/script are sessions at the command line, each
// a txtar archive: the lines a user types, each followed by what it must
// print, and then the files the session reads or compares with. Beside
// testscript's own commands (cmp, stdout, stderr, exists, cd, ...; see
// github.com/rogpeppe/go-internal/testscript), a script has:
//
//	ttt ARGS...          run ttt in-process (commands.Run) in the script's
//	                     current directory, with no TTT_DB; it must exit
//	                     0. `! ttt ARGS...` must exit non-zero, with one
//	                     line on stderr, "ttt: ...". Either way it must
//	                     leave no temporary file (.ttt-*) in the directory.
//	ttt ARGS... < FILE   the same with FILE as standard input (testscript's
//	                     own stdin command feeds only exec).
//	status N             the last ttt exited with N: 1 for a failure of the
//	                     work, 2 for a wrong command line.
//	fixture              copy the shared league into the current directory:
//	                     league.db, a quick league of one round (agents 1
//	                     to 5 the built-in players, 6 its checkpoint),
//	                     net.bin (checkpoint 6 exported), and
//	                     unbeatable.bin (testdata/unbeatable.bin). It is
//	                     built once for all the scripts.
//	snapshot [DIR]       remember the files in DIR (the current directory
//	                     by default) and their contents, not what its
//	                     subdirectories hold;
//	unchanged [DIR]      and check that they are as remembered.
//
// A script that needs a fresh directory just does not say fixture. Run
// one script with `go test -run TestScripts/NAME`.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"ttt/league/commands"
	"ttt/league/commands/clitest"
)

func TestScripts(t *testing.T) {
	t.Parallel()
	f := &fixture{dir: t.TempDir()}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			e.Values[sessionKey{}] = &session{snapshots: map[string]string{}}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"ttt":       runTTT,
			"status":    checkStatus,
			"fixture":   f.copyInto,
			"snapshot":  snapshot,
			"unchanged": unchanged,
		},
	})
}

// session is what a script's commands remember between its lines.
type session struct {
	ran       bool              // a ttt has run
	code      int               // its exit status
	snapshots map[string]string // each directory as snapshot found it
}

type sessionKey struct{}

func sessionOf(ts *testscript.TestScript) *session { return ts.Value(sessionKey{}).(*session) }

// runTTT is the script command ttt.
func runTTT(ts *testscript.TestScript, neg bool, args []string) {
	var stdin string
	if n := len(args); n >= 2 && args[n-2] == "<" {
		stdin, args = ts.ReadFile(args[n-1]), args[:n-2]
	}
	var stderr bytes.Buffer
	env := commands.Env{Stdin: strings.NewReader(stdin), Stdout: ts.Stdout(), Stderr: &stderr, Dir: ts.MkAbs(".")}
	code := commands.Run(context.Background(), env, args)
	ts.Stderr().Write(stderr.Bytes())
	s := sessionOf(ts)
	s.ran, s.code = true, code
	if left, _ := filepath.Glob(filepath.Join(env.Dir, ".ttt-*")); len(left) > 0 {
		ts.Fatalf("ttt left temporary files: %v", left)
	}
	switch {
	case code == 0 && neg:
		ts.Fatalf("ttt succeeded unexpectedly")
	case code != 0 && !neg:
		ts.Fatalf("ttt: exit %d", code)
	case code != 0:
		if msg := stderr.String(); strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") ||
			!strings.HasPrefix(msg, "ttt: ") || strings.HasPrefix(msg, "ttt: ttt") {
			ts.Fatalf("ttt: exit %d, stderr %q; a failure is one line, \"ttt: ...\"", code, msg)
		}
	}
}

// checkStatus is the script command status N.
func checkStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: status N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	switch s := sessionOf(ts); {
	case !s.ran:
		ts.Fatalf("status: no ttt has run")
	case s.code != want:
		ts.Fatalf("the last ttt exited with %d, want %d", s.code, want)
	}
}

// fixture is the league that the command fixture copies, built in dir
// by the first script that asks for it.
type fixture struct {
	dir  string
	once sync.Once
	err  error
}

func (f *fixture) build() error {
	run := func(args ...string) error {
		var out bytes.Buffer
		if code := commands.Run(context.Background(), commands.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Dir: f.dir}, args); code != 0 {
			return fmt.Errorf("building the fixture: ttt %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
		}
		return nil
	}
	if err := run(clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); err != nil {
		return err
	}
	if err := run("export", "--checkpoint", "6", "-o", "net.bin"); err != nil {
		return err
	}
	data, err := os.ReadFile(unbeatableFile)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(f.dir, "unbeatable.bin"), data, 0o644)
}

// copyInto is the script command fixture.
func (f *fixture) copyInto(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: fixture")
	}
	f.once.Do(func() { f.err = f.build() })
	ts.Check(f.err)
	entries, err := os.ReadDir(f.dir)
	ts.Check(err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(f.dir, e.Name()))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(e.Name()), data, 0o644))
	}
}

// snapshot is the script command snapshot.
func snapshot(ts *testscript.TestScript, neg bool, args []string) {
	dir := snapshotDir(ts, neg, args, "snapshot")
	state, err := clitest.DirState(dir)
	ts.Check(err)
	sessionOf(ts).snapshots[dir] = state
}

// unchanged is the script command unchanged.
func unchanged(ts *testscript.TestScript, neg bool, args []string) {
	dir := snapshotDir(ts, neg, args, "unchanged")
	before, ok := sessionOf(ts).snapshots[dir]
	if !ok {
		ts.Fatalf("unchanged: no snapshot of %s", dir)
	}
	state, err := clitest.DirState(dir)
	ts.Check(err)
	if state != before {
		ts.Fatalf("the directory changed:\nbefore %s\nafter  %s", before, state)
	}
}

// snapshotDir is the directory that snapshot or unchanged with args
// means.
func snapshotDir(ts *testscript.TestScript, neg bool, args []string, name string) string {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: %s [DIR]", name)
	}
	if len(args) == 0 {
		return ts.MkAbs(".")
	}
	return ts.MkAbs(args[0])
}
