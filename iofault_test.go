//go:build linux

package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"ttt/agents/testkit"
	"ttt/league/commands/clitest"
)

// TestIOFaults is SQLite's own way of testing brought to the process:
// each command below runs under strace(1), which makes the K-th call of
// one system call on the league's files (the database, its -wal and -shm,
// an output; every file, for a league's creation, whose file's name has
// the process's id in it) fail with EIO, or ENOSPC for the calls that
// write, for K from 1 on until the command no longer makes a K-th call.
// SQLite opens its files with open(2), Go with openat(2); a new league
// takes its name with renameat2(2), an export with renameat(2). After
// each run:
//   - the command finished, or ended with one line on stderr and exit 1
//     (never a panic, a hang or a second line), and called the file
//     damaged nowhere: an I/O error says so;
//   - the file is healthy (ttt check --sample 1, and ttt check --ratings;
//     SQLite's integrity check for a schema-1 file whose upgrade failed),
//     and holds what was committed before;
//   - run again without the fault, the command ends where a run that met
//     no fault ends: the same agents, ratings and games (a league resumed
//     after a failed round rates as one that never failed, bit for bit).
//
// strace counts the calls of each thread (its counters are per tracee):
// K is the K-th call of whichever thread of the program makes one, and
// the sweep ends at the first K that no thread reaches. Which thread
// makes which call varies with Go's scheduler, so the counts below move
// by a few from run to run.
//
// Every K is tried for the first few calls, where opening and creating
// happen, and then K grows by half each time (1..5, 7, 10, 15, 22, ...),
// which reaches the last calls of a command in a few steps.
// TTT_IOFAULT_FULL=1 tries every K (for a release). The figures go to
// the test's log, for the reliability table of docs/reliability.md:
// go test -run TestIOFaults -v .
//
// strace is Debian's package; the test skips without it, unless
// TTT_IOFAULT_TEST=required (.ci/run), and needs ptrace, which a
// container may refuse.
//
// It belongs to the long tier: some 400 runs of the commands under
// strace, one case a league of Connect Four. TestIOFaultOfEachKind is
// its quick sibling.
func TestIOFaults(t *testing.T) {
	t.Parallel()
	testkit.Long(t, "some 400 injection points; TestIOFaultOfEachKind tries one of each kind")
	ks := sampledKs
	if os.Getenv("TTT_IOFAULT_FULL") != "" {
		ks = everyK
	}
	testIOFaults(t, faultCases(), ks)
}

// TestIOFaultOfEachKind is TestIOFaults at the quick tier's scale: each
// fault (each system call, with each of its errors) at its first call
// only, in the two cases that between them make every call of faults (a
// league's creation, which syncs and takes its name with renameat2; an
// export, which reads the league and renames its file). The checks after
// each run are TestIOFaults' own, and so is the failure of a fault that
// no case met.
func TestIOFaultOfEachKind(t *testing.T) {
	t.Parallel()
	var cases []faultCase
	for _, c := range faultCases() {
		if slices.Contains([]string{"Create", "GamesExport"}, c.name) {
			cases = append(cases, c)
		}
	}
	testIOFaults(t, cases, firstK)
}

// kSequence is which K's of a system call a sweep tries: from 1, each
// the K after the one before; 0 ends it.
type kSequence func(k int) int

// everyK tries every K (TTT_IOFAULT_FULL=1, for a release); sampledKs
// every K up to 5, then half as many again; firstK the first call alone.
var (
	everyK    kSequence = func(k int) int { return k + 1 }
	sampledKs kSequence = func(k int) int {
		if k < 5 {
			return k + 1
		}
		return k + k/2
	}
	firstK kSequence = func(int) int { return 0 }
)

// testIOFaults runs the cases under their faults, at the K's of next.
func testIOFaults(t *testing.T, cases []faultCase, next kSequence) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		if os.Getenv("TTT_IOFAULT_TEST") == "required" {
			t.Fatal("strace is required (TTT_IOFAULT_TEST=required) and is not installed")
		}
		t.Skip("strace is not installed: apt-get install strace")
	}
	// strace runs each command through setpriv(1), which makes it die
	// with strace: a tracer that dies leaves its tracee running, and the
	// test would leave the command behind (DieWithTest kills strace).
	setpriv, _ := exec.LookPath("setpriv")
	var (
		mu      sync.Mutex
		figures []string
		met     = map[string]int{} // injection points by system call, over the cases
		ran     int
	)
	// The cases run side by side, and what they found is told once they
	// have all ended (a test's cleanup waits for its parallel subtests).
	t.Cleanup(func() {
		sort.Strings(figures)
		t.Logf("I/O faults:\n%s", strings.Join(figures, "\n"))
		// A fault that no command meets tries nothing, and would pass
		// unseen: SQLite might open its files with open rather than openat,
		// or no command rename a league file with rename.
		for _, f := range faults {
			if ran == len(cases) && met[f.call] == 0 {
				t.Errorf("no command made a %s call on a league's files: its fault tried nothing", f.call)
			}
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			byCall := c.sweep(t, strace, setpriv, next)
			mu.Lock()
			defer mu.Unlock()
			ran++
			var all tally
			var calls []string
			for _, f := range faults {
				if n := byCall[f.call]; n.tried > 0 {
					all.add(n)
					met[f.call] += n.tried
					calls = append(calls, fmt.Sprintf("%s %d", f.call, n.tried))
				}
			}
			figures = append(figures, fmt.Sprintf("%s: %d injection points tried, %d survived (%d ended with an error line, the others finished): %s",
				c.name, all.tried, all.survived, all.failed, strings.Join(calls, ", ")))
		})
	}
}

// tally counts the runs of a sweep that met their fault, those that
// passed every check, and those that ended with an error line rather
// than finished.
type tally struct{ tried, survived, failed int }

// add adds n's runs to t's.
func (t *tally) add(n tally) {
	t.tried, t.survived, t.failed = t.tried+n.tried, t.survived+n.survived, t.failed+n.failed
}

// faultCase is a command tried under injected faults.
type faultCase struct {
	name string
	// setup makes the files the command starts from, in dir, once; each
	// run starts from a copy of them.
	setup func(t *testing.T, p clitest.TTT)
	args  []string // the command; $DIR is the run's directory
	// files are the names, in the run's directory, whose system calls
	// fail: SQLite's files and the command's output; none for every file
	// (a creation's, NAME.PID.new, cannot be named before the process
	// is there; SQLite's calls are the only ones of their kinds then).
	files []string
	// again runs the command to its end after a run that failed; nil
	// runs args again.
	again func(t *testing.T, p clitest.TTT)
	// calls are the system calls made to fail, by name; nil for every
	// one of faults.
	calls []string
	// healthy says what is wrong with the files a run left; nil is
	// checked: ttt check --sample 1 and ttt check --ratings.
	healthy func(t *testing.T, p clitest.TTT) error
	// result is what must not differ from a run that met no fault.
	result func(t *testing.T, p clitest.TTT) string
}

// faults are the system calls made to fail, each with its errors.
var faults = []struct {
	call   string
	errnos []string
}{
	{"pwrite64", []string{"EIO", "ENOSPC"}},
	{"fsync", []string{"EIO", "ENOSPC"}}, // SQLite, as built here, syncs with fsync, never fdatasync
	{"ftruncate", []string{"EIO", "ENOSPC"}},
	{"pread64", []string{"EIO"}},
	{"open", []string{"EIO"}},
	{"openat", []string{"EIO"}},
	{"renameat", []string{"EIO"}},
	{"renameat2", []string{"EIO"}},
}

// sweep runs c under every fault and the K's that next gives, and counts
// the runs that met their fault, by system call.
func (c faultCase) sweep(t *testing.T, strace, setpriv string, next kSequence) map[string]tally {
	byCall := map[string]tally{}
	template := built(t)
	c.setup(t, template)
	ref := fromTemplate(t, template)
	ref.OK(t, c.argsIn(ref)...)
	want := c.result(t, ref)

	for _, f := range faults {
		if c.calls != nil && !slices.Contains(c.calls, f.call) {
			continue
		}
		for _, errno := range f.errnos {
			for k := 1; k > 0; k = next(k) {
				p := fromTemplate(t, template)
				reached, failed, ok := c.run(t, p, strace, setpriv, f.call, errno, k, want)
				if !reached {
					break
				}
				n := byCall[f.call]
				n.tried++
				if ok {
					n.survived++
				}
				if failed {
					n.failed++
				}
				byCall[f.call] = n
				os.RemoveAll(p.Dir)
			}
		}
	}
	return byCall
}

// run runs c in p with the k-th call of call failing with errno, and
// checks what it left. It reports whether the command reached that call,
// whether it ended with an error line, and whether every check passed;
// each check that fails fails the test.
func (c faultCase) run(t *testing.T, p clitest.TTT, strace, setpriv, call, errno string, k int, want string) (reached, failed, ok bool) {
	t.Helper()
	fault := fmt.Sprintf("%s:error=%s:when=%d", call, errno, k)
	trace := p.Dir + ".trace"
	args := []string{"-f", "-qq", "-o", trace, "-e", "trace=" + call, "-e", "inject=" + fault}
	for _, name := range c.files {
		args = append(args, "-P", filepath.Join(p.Dir, name))
	}
	cmd := p.Command(c.argsIn(p)...)
	if setpriv != "" {
		// setpriv makes none of the calls tried on the league's files: it
		// opens its own with openat, which the cases that try it limit to
		// the league's files (-P).
		cmd.Args = append([]string{setpriv, "--pdeathsig", "KILL", "--"}, cmd.Args...)
	}
	cmd.Args = append(append([]string{strace}, args...), cmd.Args...)
	cmd.Path = strace
	stdout, stderr, code := clitest.Execute(t, cmd)
	log, _ := os.ReadFile(trace)
	os.Remove(trace)
	if !bytes.Contains(log, []byte("(INJECTED)")) {
		return false, false, true
	}
	wasFailed := t.Failed()
	ok = true
	errorf := func(format string, a ...any) {
		t.Helper()
		ok = false
		t.Errorf("%s (exit %d, stderr %q): %s", fault, code, stderr, fmt.Sprintf(format, a...))
	}
	if code == 0 && stderr != "" || code != 0 && (code != 1 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ttt: ")) {
		errorf("want success or one line and exit 1 (stdout %q)", stdout)
		return true, code != 0, false
	}
	if strings.Contains(stdout+stderr, "damaged") {
		// ttt check below finds the file healthy: the fault was the
		// disk's, and the message must say so.
		errorf("a healthy file called damaged (stdout %q)", stdout)
		return true, code != 0, false
	}
	healthy := c.healthy
	if healthy == nil {
		healthy = checked
	}
	if err := healthy(t, p); err != nil {
		errorf("%v", err)
		return true, code != 0, false
	}
	if code != 0 {
		if c.again != nil {
			c.again(t, p)
		} else if out, errOut, code := p.Run(t, c.argsIn(p)...); code != 0 {
			errorf("the run after the fault: exit %d\n%s%s", code, out, errOut)
			return true, code != 0, false
		}
	}
	if got := c.result(t, p); got != want {
		errorf("the end differs from a run without faults:\n%s\nwant\n%s", got, want)
	}
	return true, code != 0, ok && (wasFailed || !t.Failed())
}

// argsIn is c's command in p's directory. A file the command makes is
// named there by its whole path: strace knows a file by the path a call
// gives.
func (c faultCase) argsIn(p clitest.TTT) []string {
	args := slices.Clone(c.args)
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "$DIR", p.Dir)
	}
	return args
}

// checked says what ttt check --sample 1 and ttt check --ratings find
// wrong with the league in p's directory.
func checked(t *testing.T, p clitest.TTT) error {
	for _, check := range [][]string{{"check", "--sample", "1"}, {"check", "--ratings"}} {
		if out, errOut, code := p.Run(t, check...); code != 0 {
			return fmt.Errorf("ttt %s: exit %d\n%s%s", strings.Join(check, " "), code, out, errOut)
		}
	}
	return nil
}

// fromTemplate is a new directory holding a copy of template's files.
func fromTemplate(t *testing.T, template clitest.TTT) clitest.TTT {
	t.Helper()
	p := built(t)
	entries, err := os.ReadDir(template.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(template.Dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.Dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// leagueFiles are SQLite's files of league.db.
var leagueFiles = []string{"league.db", "league.db-wal", "league.db-shm"}

// standing is what a league holds in the end: its agents with their
// ratings, and its leaderboard.
func standing(t *testing.T, p clitest.TTT) string {
	t.Helper()
	return p.OK(t, "checkpoints", "--all", "--format", "csv") + p.OK(t, "ratings", "--format", "csv", "--limit", "1000")
}

// faultCases are the commands of the suite.
func faultCases() []faultCase {
	oneRound := func(t *testing.T, p clitest.TTT) {
		p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	}
	threeRounds := func(t *testing.T, p clitest.TTT) {
		p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "3")...)
	}
	// leagueRun is a case of two rounds of a league run with flags on a
	// league of one.
	leagueRun := func(name string, flags ...string) faultCase {
		return faultCase{
			name:  name,
			setup: func(t *testing.T, p clitest.TTT) { p.OK(t, clitest.LeagueRun(flags, "--rounds", "1")...) },
			args:  clitest.LeagueRun(flags, "--rounds", "2"),
			files: leagueFiles,
			again: func(t *testing.T, p clitest.TTT) {
				// Nothing committed is lost, and the league goes on to the
				// round an unbroken run ends at.
				last := lastRound(t, p)
				if last < 1 || last > 3 {
					t.Errorf("after the fault the league holds %d rounds, want 1 to 3", last)
					return
				}
				if last < 3 {
					p.OK(t, clitest.LeagueRun(flags, "--rounds", fmt.Sprint(3-last))...)
				} else {
					// A fault after the last round's commit, in its best's
					// games against the ladder: the next run plays them
					// before any round.
					p.OK(t, clitest.LeagueRun(flags, "--duration", "1ns")...)
				}
			},
			result: standing,
		}
	}
	// A Connect Four league opens, truncates, syncs and renames its files
	// as a tic-tac-toe league does, by the same code, which the cases of
	// tic-tac-toe try; its own are its writes and reads of larger
	// networks and of games against its ladder. Each of its runs plays
	// the solver and the MCTS players, so it tries those alone, and
	// first: the longest case, it starts while the others go on.
	connectFour := leagueRun("LeagueRunConnectFour", "--game", "connect4", "--games-per-round", "200", "--openings", "1", "--ladder-interval", "200", "--line-tuples", "0", "--tuples", "6", "--tuple-length", "4", "--grow-at", "200", "--grow-length", "5", "--seed", "5")
	connectFour.calls = []string{"pwrite64", "pread64"}
	return []faultCase{
		connectFour,
		leagueRun("LeagueRun", clitest.Quick...),
		leagueRun("LeagueRunLearners", append(slices.Clone(clitest.Quick), "--learners", "policy,table")...),
		{
			// A new league, made in a file of its own (NAME.PID.new), which
			// takes its name once whole: a creation that fails leaves
			// nothing, and the next run makes the league.
			name:  "Create",
			setup: func(*testing.T, clitest.TTT) {},
			args:  clitest.LeagueRun(clitest.Quick, "--rounds", "1"),
			again: func(t *testing.T, p clitest.TTT) {
				if committed(t, p) == 1 {
					// The round was committed, and the fault came in its
					// best's games against the ladder: the next run plays
					// them before any round.
					p.OK(t, clitest.LeagueRun(clitest.Quick, "--duration", "1ns")...)
					return
				}
				p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
			},
			calls: []string{"pwrite64", "fsync", "ftruncate", "open", "renameat2"},
			healthy: func(t *testing.T, p clitest.TTT) error {
				if left, _ := filepath.Glob(filepath.Join(p.Dir, "league.db.*")); len(left) > 0 {
					return fmt.Errorf("the creation left %v", left)
				}
				if _, err := os.Stat(filepath.Join(p.Dir, "league.db")); err == nil {
					return checked(t, p)
				}
				if left, _ := os.ReadDir(p.Dir); len(left) > 0 {
					return fmt.Errorf("a failed creation left %v", left)
				}
				return nil
			},
			result: standing,
		},
		{
			name:   "Roundrobin",
			setup:  threeRounds,
			args:   []string{"roundrobin", "6", "7", "8", "random", "perfect"},
			files:  leagueFiles,
			result: standing,
		},
		{
			name: "Import",
			setup: func(t *testing.T, p clitest.TTT) {
				oneRound(t, p)
				p.OK(t, "export", "--checkpoint", "6", "-o", "net.bin")
			},
			args:   []string{"import", "--name", "copy", "net.bin"},
			files:  leagueFiles,
			result: standing,
		},
		{
			name: "UpgradeSchema1",
			setup: func(t *testing.T, p clitest.TTT) {
				data, err := os.ReadFile(filepath.Join("store", "testdata", "schema1.db"))
				if err != nil {
					t.Fatal(err)
				}
				p.Write(t, "league.db", data)
			},
			args:  []string{"upgrade"},
			files: leagueFiles,
			healthy: func(t *testing.T, p clitest.TTT) error {
				db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
				defer db.Close()
				var integrity string
				var version int
				if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
					return fmt.Errorf("integrity_check: %q, %v", integrity, err)
				}
				if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != 1 && version != len(migrationFiles(t)) {
					return fmt.Errorf("schema %d (%v): neither 1 nor the newest", version, err)
				}
				return nil
			},
			result: standing,
		},
		{
			// The reader that looks hardest: SQLite's integrity check
			// reads every page, and a page it could not read is the
			// disk's fault, not damage.
			name:   "Check",
			setup:  threeRounds,
			args:   []string{"check", "--sample", "1"},
			files:  leagueFiles,
			result: standing,
		},
		{
			name:  "GamesExport",
			setup: threeRounds,
			args:  []string{"games", "export", "--pgn", "$DIR/games.pgn"},
			files: append(leagueFiles, "games.pgn"),
			result: func(t *testing.T, p clitest.TTT) string {
				// The whole export, or none and no temporary file.
				temps, _ := filepath.Glob(filepath.Join(p.Dir, ".ttt-*"))
				if len(temps) > 0 {
					t.Errorf("temporary files left: %v", temps)
				}
				return string(p.File(t, "games.pgn"))
			},
		},
	}
}

// migrationFiles are the schema's migrations.
func migrationFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	return files
}
