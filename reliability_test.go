//go:build linux

package main_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttt/agents/testkit"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// The reliability tests run the real binary against the faults
// of README's reliability table that need a process of its own: a
// signal, a second league run, a read-only database read by another
// user, a file size limit. (A full disk and bad input are tried
// in-process, in league/commands.) Each has a directory of its own.
func TestReliability(t *testing.T) {
	t.Parallel()
	t.Run("StopOnSignal", func(t *testing.T) { testStopOnSignal(t, built(t)) })
	t.Run("OneLeagueAtATime", func(t *testing.T) { testOneLeagueAtATime(t, built(t)) })
	t.Run("ReadOnly", testReadOnly)
	t.Run("FileSizeLimit", func(t *testing.T) { testFileSizeLimit(t, built(t)) })
	t.Run("FileSizeLimitAtCreation", func(t *testing.T) { testLimitAtCreation(t, built(t)) })
	// Two cases are the long tier's, each with a quick sibling: three
	// signals into the loading of a large league, and a league that
	// stops by itself at the commit of a round of seconds.
	t.Run("StopWhileLoading", func(t *testing.T) {
		testkit.Long(t, "three signals into the loading of 400,000 matches; StopAtTheStartOfLoading sends one")
		testStopWhileLoading(t, built(t), 0, 50*time.Millisecond, 200*time.Millisecond)
	})
	t.Run("StopAtTheStartOfLoading", func(t *testing.T) { testStopWhileLoading(t, built(t), 0) })
	t.Run("RenamedWhileRunning", func(t *testing.T) {
		testkit.Long(t, "a round of 1,500,000 games, which stops itself at its commit; RenamedWhileTraining stops its round with Ctrl-C")
		testRenamedWhileRunning(t, built(t))
	})
	t.Run("RenamedWhileTraining", func(t *testing.T) { testRenamedWhileTraining(t, built(t)) })
	t.Run("ReaderWithoutWrite", func(t *testing.T) { testReaderWithoutWrite(t, built(t)) })
	t.Run("ReaderOfACopy", func(t *testing.T) { testReaderOfACopy(t, built(t)) })
	t.Run("ReaderOfAFrozenFile", func(t *testing.T) { testReaderOfAFrozenFile(t, built(t)) })
	t.Run("LinkToAnotherDirectory", func(t *testing.T) { testLinkToAnotherDirectory(t, built(t)) })
	t.Run("CreateThroughALink", func(t *testing.T) { testCreateThroughALink(t, built(t)) })
	t.Run("HangUpDuringExport", func(t *testing.T) { testHangUpDuringExport(t, built(t)) })
	t.Run("Nohup", func(t *testing.T) { testNohup(t, built(t)) })
}

// forever is a training round that takes minutes: a league run that
// trains it is certainly training when the test signals it.
var forever = []string{"--games-per-round", "100000000", "--hidden", "16", "--seed", "5"}

// A signal ends `ttt league run` mid-round, cleanly: exit 130, a line
// that says where the league stopped, only whole rounds in the database,
// and a next run that goes on as if the abandoned round had never begun.
// (BenchmarkStop times how soon.)
func testStopOnSignal(t *testing.T, p clitest.TTT) {
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	straight := built(t)
	straight.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "4")...)

	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			run := p.Start(t, clitest.LeagueRun(forever)...)
			awaitTraining(t, p, run)
			sent := time.Now()
			stdout, stderr, code := run.Stop(t, sig)
			t.Logf("exit %d %v after %v", code, sig, time.Since(sent).Round(time.Millisecond))
			want := fmt.Sprintf("stopped: the round under way was abandoned; the league holds %d committed rounds", 2+i)
			if code != 130 || !strings.Contains(stdout, want) || stderr != "" {
				t.Errorf("after %v: exit %d, stdout %q, stderr %q; want exit 130 and %q", sig, code, stdout, stderr, want)
			}
			if got, want := lastRound(t, p), int64(2+i); got != want {
				t.Errorf("last round %d after %v, want %d", got, sig, want)
			}
			if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, fmt.Sprintf("\nround %d ", 3+i)) {
				t.Errorf("the run after %v said:\n%s", sig, out)
			}
		})
	}
	// Two abandoned rounds left no trace: the league is the one that
	// never stopped.
	list := []string{"checkpoints", "--db", "league.db", "--format", "csv"}
	if got, want := p.OK(t, list...), straight.OK(t, list...); got != want {
		t.Errorf("league after two signals:\n%s\nleague that never stopped:\n%s", got, want)
	}
}

// A second `ttt league run` on a database is refused while the first
// runs, and changes nothing; readers and the commands that add an agent
// work meanwhile; the lock goes with its process, even on SIGKILL.
func testOneLeagueAtATime(t *testing.T, p clitest.TTT) {
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	p.OK(t, "export", "--checkpoint", "latest", "-o", "net.bin")
	first := p.Start(t, clitest.LeagueRun(forever)...)
	// Past the lock, the first run stores its start: the hash is taken
	// once it trains and writes nothing until its round ends.
	awaitTraining(t, p, first)

	before := dbHash(t, p)
	// Bounded, so that without the lock it would end, successfully.
	p.Refused(t, fmt.Sprintf("league.db: another ttt league run or ttt roundrobin is using this database (pid %d)", first.Pid()),
		clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	if dbHash(t, p) != before {
		t.Error("the refused league run changed the database")
	}
	if os.Geteuid() == 0 {
		// A reader who may not write the database nor its directory reads
		// the running league read-only, through its -wal and -shm files.
		asNobody(t, p).OK(t, "checkpoints")
	}
	for _, args := range [][]string{
		{"ratings"}, {"ratings", "history"}, {"rounds"}, {"checkpoints"}, {"show", "6"},
		{"export", "--checkpoint", "best", "-o", "best.bin"},
		{"import", "--name", "copy", "net.bin"},
		{"train", "--games", "100", "--hidden", "8", "--db", "league.db"},
	} {
		p.OK(t, args...)
	}

	if _, _, code := first.Stop(t, syscall.SIGKILL); code != -1 {
		t.Errorf("SIGKILL: exit %d", code)
	}
	out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	if !strings.Contains(out, "\nround 3 ") {
		t.Errorf("the run after a SIGKILL said:\n%s", out)
	}
}

// A league's file renamed while the league runs (mv league.db
// moved.db) keeps the league's journal under the old name: a ttt that
// opens it by the new name is refused, since SQLite would keep a second
// journal beside that name; the league stops at its next commit, saying
// why; given its name back, the file is whole and the league goes on.
func testRenamedWhileRunning(t *testing.T, p clitest.TTT) {
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	p.OK(t, "export", "--checkpoint", "latest", "-o", "net.bin")
	// Rounds of some seconds: the league is between commits while the
	// refusals below run.
	run := p.Start(t, clitest.LeagueRun(clitest.Quick, "--games-per-round", "1500000")...)
	path, moved := filepath.Join(p.Dir, "league.db"), filepath.Join(p.Dir, "moved.db")
	run.AwaitLock(t, path)
	// Renamed while it still loads the league, it would notice at its
	// next read and stop at once, and nothing would hold the file under
	// its other name. Loading takes milliseconds of CPU, a round of
	// 1,500,000 games seconds: a second of the process's CPU is well into
	// the round, however busy the machine.
	run.WaitOutput(t, "resuming the tic-tac-toe league")
	patience := clitest.Patience(t)
	for deadline := time.Now().Add(patience); cpuSeconds(t, run.Pid()) < 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the league run did not use a second of CPU within %v", patience.Round(time.Second))
		}
	}
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("moved.db: another ttt league run or ttt roundrobin is using this database under another name (pid %d)", run.Pid())
	p.Refused(t, want, "import", "--db", "moved.db", "net.bin")
	p.Refused(t, want, "checkpoints", "--db", "moved.db")
	if _, err := os.Stat(moved + "-wal"); err == nil {
		t.Error("a journal beside the new name")
	}

	// It stops by itself at its next commit.
	stdout, stderr, code := run.Wait(t)
	if code != 1 || stderr != "ttt: league.db: the database file was renamed or replaced while the league ran: give it back its name and run again; the round under way was not stored, the league holds 1 committed round\n" {
		t.Errorf("the league after the rename: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	checkIntact(t, p, 1)
	if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, "\nround 2 ") {
		t.Errorf("the run after the rename said:\n%s", out)
	}
	p.OK(t, "check")
}

// RenamedWhileRunning's quick sibling: the same rename, refusals and
// journal while the league trains a round of minutes (forever), which
// Ctrl-C then abandons; given its name back, the file is whole and the
// league goes on.
func testRenamedWhileTraining(t *testing.T, p clitest.TTT) {
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	p.OK(t, "export", "--checkpoint", "latest", "-o", "net.bin")
	run := p.Start(t, clitest.LeagueRun(forever)...)
	awaitTraining(t, p, run)
	path, moved := filepath.Join(p.Dir, "league.db"), filepath.Join(p.Dir, "moved.db")
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("moved.db: another ttt league run or ttt roundrobin is using this database under another name (pid %d)", run.Pid())
	p.Refused(t, want, "import", "--db", "moved.db", "net.bin")
	p.Refused(t, want, "checkpoints", "--db", "moved.db")
	if _, err := os.Stat(moved + "-wal"); err == nil {
		t.Error("a journal beside the new name")
	}
	if stdout, stderr, code := run.Stop(t, syscall.SIGINT); code != 130 {
		t.Errorf("the league after the rename and Ctrl-C: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	checkIntact(t, p, 1)
	if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, "\nround 2 ") {
		t.Errorf("the run after the rename said:\n%s", out)
	}
	p.OK(t, "check")
}

// A database that this user may not write: the commands that only read
// work and leave no file behind (no -wal or -shm, which SQLite would make
// with the mode of the read-only file and which would then stop its owner
// writing), and the writers say it is read-only. Root writes anything, so
// as root the commands run as nobody.
func testReadOnly(t *testing.T) {
	root := os.Geteuid() == 0
	out := t.TempDir() // where exports go
	chmod(t, out, 0o777)
	chmod(t, filepath.Dir(out), 0o755)

	for _, c := range []struct {
		name              string
		fileMode, dirMode os.FileMode
		nobodyOwnsFile    bool // as root, so that only the directory is read-only
	}{
		{"File", 0o444, 0o777, false},
		{"Directory", 0o644, 0o555, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := built(t)
			p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
			p.OK(t, "export", "--checkpoint", "latest", "-o", "net.bin")
			db := filepath.Join(p.Dir, "league.db")
			if root {
				if c.nobodyOwnsFile {
					if err := os.Chown(db, nobody, nobody); err != nil {
						t.Fatal(err)
					}
				}
				p = asNobody(t, p)
			}
			chmod(t, db, c.fileMode)
			chmod(t, p.Dir, c.dirMode)
			t.Cleanup(func() { chmod(t, p.Dir, 0o755) }) // so that it can be removed

			before := clitest.Snapshot(t, p.Dir)
			for _, args := range [][]string{
				{"checkpoints"}, {"ratings"}, {"ratings", "history"}, {"rounds"}, {"show", "latest"},
				{"export", "--checkpoint", "6", "-o", filepath.Join(out, c.name+".bin")},
			} {
				if got := p.OK(t, args...); got == "" {
					t.Errorf("ttt %s printed nothing", strings.Join(args, " "))
				}
			}
			if stdout, _, _ := p.Run(t, "verify", "6"); !strings.Contains(stdout, "X: ") {
				t.Errorf("verify 3 on a read-only database said %q", stdout)
			}
			p.Refused(t, "league.db: the database is read-only", clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
			p.Refused(t, "league.db: the database is read-only", "import", "net.bin")
			p.Refused(t, "league.db: the database is read-only", "train", "--games", "10", "--db", "league.db")
			if after := clitest.Snapshot(t, p.Dir); after != before {
				t.Errorf("commands on a read-only database changed its directory:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// A file size limit (ulimit -f) stops the league at a commit: one line
// that says so, exit 1, and the rounds before it intact.
func testFileSizeLimit(t *testing.T, p clitest.TTT) {
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	// dash and bash count ulimit -f in blocks of 512 and 1024 bytes; either
	// way the -wal outgrows it within some rounds. Go ignores SIGXFSZ, so
	// writes past the limit fail with EFBIG and the program goes on.
	cmd := p.Command(clitest.LeagueRun(clitest.Quick, "--rounds", "1000")...)
	cmd.Args = append([]string{"sh", "-c", `ulimit -f 400 && exec "$0" "$@"`}, cmd.Args...)
	cmd.Path = "/bin/sh"
	stdout, stderr, code := clitest.Execute(t, cmd)
	committed := clitest.LastReported(stdout)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "file size limit") ||
		!strings.Contains(stderr, fmt.Sprintf("the league holds %d committed round", committed)) {
		t.Fatalf("under ulimit -f: exit %d, stderr %q (last round line %d)", code, stderr, committed)
	}
	checkIntact(t, p, committed)
	if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, fmt.Sprintf("\nround %d ", committed+1)) {
		t.Errorf("the run after the limit said:\n%s", out)
	}
}

// lastRound is the last committed round of the league in the program's
// directory.
func lastRound(t *testing.T, p clitest.TTT) int64 {
	t.Helper()
	db, err := store.OpenRead(context.Background(), filepath.Join(p.Dir, "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	last, _, err := db.LastRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return last
}

// committed is the last committed round of the league in p's
// directory: 0 where there is no league or it has played no round.
func committed(t *testing.T, p clitest.TTT) int64 {
	t.Helper()
	if _, err := os.Stat(filepath.Join(p.Dir, "league.db")); err != nil {
		return 0
	}
	db, err := store.OpenRead(context.Background(), filepath.Join(p.Dir, "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	last, _, err := db.LastRound(context.Background())
	if err != nil && !errors.Is(err, store.ErrNoRounds) {
		t.Fatal(err)
	}
	return last
}

// checkIntact checks that the league.db a failed commit left is sound
// and holds the rounds up to committed.
func checkIntact(t *testing.T, p clitest.TTT, committed int64) {
	t.Helper()
	db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity_check: %q, %v", integrity, err)
	}
	db.Close()
	if got := lastRound(t, p); got != committed {
		t.Errorf("last round %d, want %d", got, committed)
	}
}

// dbHash hashes league.db and its -wal file: what a writer changes. The
// -shm file is left out: it is the readers' shared index, which every
// reader updates.
// awaitTraining returns once run, a league run of forever's rounds, is
// training. Loading a league of a few agents and storing the run's start
// take milliseconds of CPU: after half a second of it, the run trains,
// however busy the machine. (A signal while it loads is
// testStopWhileLoading's.)
func awaitTraining(t testing.TB, p clitest.TTT, run *clitest.Background) {
	t.Helper()
	run.AwaitLock(t, filepath.Join(p.Dir, "league.db"))
	for cpuSeconds(t, run.Pid()) < 0.5 {
		time.Sleep(10 * time.Millisecond)
	}
}

func dbHash(t *testing.T, p clitest.TTT) string {
	t.Helper()
	h := sha256.New()
	for _, name := range []string{"league.db", "league.db-wal"} {
		data, err := os.ReadFile(filepath.Join(p.Dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		h.Write(data)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// nobody is the uid and gid of the user nobody.
const nobody = 65534

// asNobody returns p whose processes run as nobody, and opens the way to
// its binary and directory for nobody. Only root may do that.
func asNobody(t *testing.T, p clitest.TTT) clitest.TTT {
	t.Helper()
	for _, path := range []string{p.Bin, filepath.Join(p.Dir, "league.db")} {
		for dir := filepath.Dir(path); dir != os.TempDir() && dir != "/"; dir = filepath.Dir(dir) {
			chmod(t, dir, 0o755)
		}
	}
	p.Sys = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return p
}

// chmod sets the mode of path.
func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// A file size limit too small for a new database's schema: one line that
// says so, and nothing left behind, not even the -wal and -shm files.
func testLimitAtCreation(t *testing.T, p clitest.TTT) {
	for _, blocks := range []string{"4", "8", "20"} {
		cmd := p.Command(clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
		cmd.Args = append([]string{"sh", "-c", "ulimit -f " + blocks + ` && exec "$0" "$@"`}, cmd.Args...)
		cmd.Path = "/bin/sh"
		stdout, stderr, code := clitest.Execute(t, cmd)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "league.db: cannot write the database file (a file size limit") {
			t.Errorf("ulimit -f %s: exit %d, stdout %q, stderr %q", blocks, code, stdout, stderr)
		}
		if entries, _ := os.ReadDir(p.Dir); len(entries) > 0 {
			t.Errorf("ulimit -f %s: the failed creation left %v", blocks, entries)
		}
	}
}

// Ctrl-C while a league loads its results (a league of a night has
// millions) ends the run at once, as in any other stage. The league here
// has 400,000 matches among 900 agents, written straight into the
// database, so that loading takes a while; the signal comes at each of
// waits after the run holds the league's lock, which it takes before it
// loads. (BenchmarkStop times how soon a run ends.)
func testStopWhileLoading(t *testing.T, p clitest.TTT, waits ...time.Duration) {
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	// Each bulk agent a network of one hidden unit, all weights zero,
	// with their checksum: a run that has loaded the league before the
	// signal comes plays them in its round.
	zeros := int64(crc32.Checksum(make([]byte, 152), crc32.MakeTable(crc32.Castagnoli)))
	if _, err := db.Exec(`INSERT INTO agents (id, kind, name, generation, hidden, method, created_at, class, weights, weights_crc)
			WITH RECURSIVE n(i) AS (SELECT 8 UNION ALL SELECT i + 1 FROM n WHERE i < 907)
			SELECT i, 'imported', 'bulk' || i, 0, 1, 'policy', '2026-11-23T00:00:00Z', 0, zeroblob(152), ? FROM n`, zeros); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO matches (round_id, a, b, plies, seed, wins, draws, losses)
			WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 399999)
			SELECT 2, 8 + i % 900 + 2 + (i / 900), 6 + i % 900, 2, 0, 50, 44, 50 FROM n
			WHERE 8 + i % 900 + 2 + (i / 900) <= 907`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, wait := range waits {
		run := p.Start(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
		run.AwaitLock(t, filepath.Join(p.Dir, "league.db"))
		// The pause is the point: signals at different moments of the
		// loading; wherever the run then is, it must stop.
		time.Sleep(wait)
		sent := time.Now()
		stdout, stderr, code := run.Stop(t, syscall.SIGINT)
		took := time.Since(sent)
		t.Logf("SIGINT %v after the lock: exit %d after %v", wait, code, took)
		if code != 130 || !strings.Contains(stdout, "stopped: ") || stderr != "" {
			t.Errorf("SIGINT %v after the lock: exit %d after %v, stdout %q, stderr %q", wait, code, took, stdout, stderr)
		}
	}
}

// cpuSeconds is the CPU time, user and system, that process pid has used
// so far (Linux's /proc; clock ticks of 1/100 s).
func cpuSeconds(t testing.TB, pid int) float64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime and stime are the 12th and 13th.
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100
}
