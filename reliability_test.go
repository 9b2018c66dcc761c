//go:build linux

package main_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttt/store"
)

// The reliability tests (issue 7) run the real binary against the faults
// of README's reliability table: a signal, a second league run, a
// read-only database, a full disk, and bad input of every kind. They share
// one build; each has a directory of its own.
func TestReliability(t *testing.T) {
	p := buildTTT(t)
	fresh := func(t *testing.T) ttt { return ttt{bin: p.bin, dir: t.TempDir()} }
	t.Run("StopOnSignal", func(t *testing.T) { testStopOnSignal(t, fresh(t)) })
	t.Run("OneLeagueAtATime", func(t *testing.T) { testOneLeagueAtATime(t, fresh(t)) })
	t.Run("ReadOnly", func(t *testing.T) { testReadOnly(t, p) })
	t.Run("FileSizeLimit", func(t *testing.T) { testFileSizeLimit(t, fresh(t)) })
	t.Run("DiskFull", func(t *testing.T) { testDiskFull(t, fresh(t)) })
	t.Run("BadInput", func(t *testing.T) { testBadInput(t, fresh(t)) })
}

// quick are league flags for short rounds.
var quick = []string{"--games-per-round", "500", "--hidden", "16", "--seed", "5"}

// forever is a training round that takes minutes: a league run that
// trains it is certainly training when the test signals it.
var forever = []string{"--games-per-round", "100000000", "--hidden", "16", "--seed", "5"}

// bounded are league flags for a run that ends soon: a refusal test
// whose refusal is missing must not run a league for ever. A flag given
// again after them wins.
var bounded = []string{"--rounds", "1", "--games-per-round", "100", "--hidden", "8"}

// leagueRun is `ttt league run` on league.db with flags and then more.
func leagueRun(flags []string, more ...string) []string {
	return append(append([]string{"league", "run", "--db", "league.db"}, flags...), more...)
}

// A signal ends `ttt league run` at once, cleanly: exit 0, a line that
// says where the league stopped, only whole rounds in the database, and a
// next run that goes on as if the abandoned round had never begun.
func testStopOnSignal(t *testing.T, p ttt) {
	p.ok(t, leagueRun(quick, "--rounds", "2")...)
	straight := ttt{bin: p.bin, dir: t.TempDir()}
	straight.ok(t, leagueRun(quick, "--rounds", "4")...)

	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			run := p.background(t, leagueRun(forever)...)
			run.awaitLock(t, filepath.Join(p.dir, "league.db"))
			// Loading a league of a few agents takes milliseconds: by now
			// it trains. (A signal while it loads must work too, and did
			// before this wait.)
			time.Sleep(300 * time.Millisecond)
			sent := time.Now()
			stdout, stderr, code := run.stop(t, sig)
			if took := time.Since(sent); took > 2*time.Second {
				t.Errorf("exit %v after %v", sig, took)
			}
			want := fmt.Sprintf("stopped: the round under way was abandoned; the league holds %d committed rounds", 2+i)
			if code != 0 || !strings.Contains(stdout, want) || stderr != "" {
				t.Errorf("after %v: exit %d, stdout %q, stderr %q; want exit 0 and %q", sig, code, stdout, stderr, want)
			}
			if got, want := lastRound(t, p), int64(2+i); got != want {
				t.Errorf("last round %d after %v, want %d", got, sig, want)
			}
			if out := p.ok(t, leagueRun(quick, "--rounds", "1")...); !strings.HasPrefix(out, fmt.Sprintf("round %d ", 3+i)) {
				t.Errorf("the run after %v said:\n%s", sig, out)
			}
		})
	}
	// Two abandoned rounds left no trace: the league is the one that
	// never stopped.
	list := []string{"checkpoints", "--db", "league.db", "--format", "csv"}
	if got, want := p.ok(t, list...), straight.ok(t, list...); got != want {
		t.Errorf("league after two signals:\n%s\nleague that never stopped:\n%s", got, want)
	}
}

// A second `ttt league run` on a database is refused while the first
// runs, and changes nothing; readers and the commands that add an agent
// work meanwhile; the lock goes with its process, even on SIGKILL.
func testOneLeagueAtATime(t *testing.T, p ttt) {
	p.ok(t, leagueRun(quick, "--rounds", "2")...)
	p.ok(t, "export", "--checkpoint", "latest", "-o", "net.bin")
	first := p.background(t, leagueRun(forever)...)
	first.awaitLock(t, filepath.Join(p.dir, "league.db"))

	before := dbHash(t, p)
	// Bounded, so that without the lock it would end, successfully.
	p.refused(t, fmt.Sprintf("league.db: another `ttt league run` is using this database (pid %d)", first.cmd.Process.Pid),
		leagueRun(quick, "--rounds", "1")...)
	if dbHash(t, p) != before {
		t.Error("the refused league run changed the database")
	}
	if os.Geteuid() == 0 {
		// A reader who may not write the database nor its directory reads
		// the running league read-only, through its -wal and -shm files.
		asNobody(t, p).ok(t, "checkpoints")
	}
	for _, args := range [][]string{
		{"ratings"}, {"ratings", "history"}, {"checkpoints"}, {"show", "3"},
		{"export", "--checkpoint", "best", "-o", "best.bin"},
		{"import", "--name", "copy", "net.bin"},
		{"train", "--games", "100", "--hidden", "8", "--db", "league.db"},
	} {
		p.ok(t, args...)
	}

	if _, _, code := first.stop(t, syscall.SIGKILL); code != -1 {
		t.Errorf("SIGKILL: exit %d", code)
	}
	out := p.ok(t, leagueRun(quick, "--rounds", "1")...)
	if !strings.HasPrefix(out, "round 3 ") {
		t.Errorf("the run after a SIGKILL said:\n%s", out)
	}
}

// A database that this user may not write: the commands that only read
// work and leave no file behind (no -wal or -shm, which SQLite would make
// with the mode of the read-only file and which would then stop its owner
// writing), and the writers say it is read-only. Root writes anything, so
// as root the commands run as nobody.
func testReadOnly(t *testing.T, built ttt) {
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
			p := ttt{bin: built.bin, dir: t.TempDir()}
			p.ok(t, leagueRun(quick, "--rounds", "2")...)
			p.ok(t, "export", "--checkpoint", "latest", "-o", "net.bin")
			db := filepath.Join(p.dir, "league.db")
			if root {
				if c.nobodyOwnsFile {
					if err := os.Chown(db, nobody, nobody); err != nil {
						t.Fatal(err)
					}
				}
				p = asNobody(t, p)
			}
			chmod(t, db, c.fileMode)
			chmod(t, p.dir, c.dirMode)
			t.Cleanup(func() { chmod(t, p.dir, 0o755) }) // so that it can be removed

			before := snapshot(t, p.dir)
			for _, args := range [][]string{
				{"checkpoints"}, {"ratings"}, {"ratings", "history"}, {"show", "latest"},
				{"export", "--checkpoint", "3", "-o", filepath.Join(out, c.name+".bin")},
			} {
				if got := p.ok(t, args...); got == "" {
					t.Errorf("ttt %s printed nothing", strings.Join(args, " "))
				}
			}
			if stdout, _, _ := p.run(t, "verify", "3"); !strings.Contains(stdout, "X: ") {
				t.Errorf("verify 3 on a read-only database said %q", stdout)
			}
			p.refused(t, "league.db: the database is read-only", leagueRun(quick, "--rounds", "1")...)
			p.refused(t, "league.db: the database is read-only", "import", "net.bin")
			p.refused(t, "league.db: the database is read-only", "train", "--games", "10", "--db", "league.db")
			if after := snapshot(t, p.dir); after != before {
				t.Errorf("commands on a read-only database changed its directory:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// A file size limit (ulimit -f) stops the league at a commit: one line
// that says so, exit 1, and the rounds before it intact.
func testFileSizeLimit(t *testing.T, p ttt) {
	p.ok(t, leagueRun(quick, "--rounds", "2")...)
	// dash and bash count ulimit -f in blocks of 512 and 1024 bytes; either
	// way the -wal outgrows it within some rounds. Go ignores SIGXFSZ, so
	// writes past the limit fail with EFBIG and the program goes on.
	cmd := p.command(leagueRun(quick, "--rounds", "1000")...)
	cmd.Args = append([]string{"sh", "-c", `ulimit -f 400 && exec "$0" "$@"`}, cmd.Args...)
	cmd.Path = "/bin/sh"
	stdout, stderr, code := execute(t, cmd)
	committed := lastReported(stdout)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "file size limit") ||
		!strings.Contains(stderr, fmt.Sprintf("the league holds %d committed rounds", committed)) {
		t.Fatalf("under ulimit -f: exit %d, stderr %q (last round line %d)", code, stderr, committed)
	}
	checkIntact(t, p, committed)
	if out := p.ok(t, leagueRun(quick, "--rounds", "1")...); !strings.HasPrefix(out, fmt.Sprintf("round %d ", committed+1)) {
		t.Errorf("the run after the limit said:\n%s", out)
	}
}

// A full file system stops the league at a commit with "disk is full",
// and the readers still work on it. It needs a small tmpfs, which only
// root can mount.
func testDiskFull(t *testing.T, p ttt) {
	dir := filepath.Join(p.dir, "small")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (%v); the file size limit test covers a failing write", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Error(err)
		}
	})
	p.dir = dir
	stdout, stderr, code := p.run(t, leagueRun(quick, "--rounds", "1000")...)
	committed := lastReported(stdout)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "league.db: the disk is full") ||
		!strings.Contains(stderr, fmt.Sprintf("the league holds %d committed rounds", committed)) || committed < 1 {
		t.Fatalf("on a full disk: exit %d, stderr %q (last round line %d)", code, stderr, committed)
	}
	if out := p.ok(t, "checkpoints", "--db", "league.db"); !strings.Contains(out, fmt.Sprintf("checkpoint-%d", committed+2)) {
		t.Errorf("checkpoints on a full disk:\n%s", out)
	}
	checkIntact(t, p, committed)
}

// Bad input of every kind: one line on stderr, exit 1, nothing changed.
// (TestEndToEnd covers bad weight files, unknown agents of show and
// export, a missing database and a file that is not SQLite.)
func testBadInput(t *testing.T, p ttt) {
	p.ok(t, leagueRun(quick, "--rounds", "1")...)
	p.write(t, "notes.txt", []byte("not a database\n"))
	other := sqlDB(t, filepath.Join(p.dir, "other.db"))
	if _, err := other.Exec("CREATE TABLE t(x)"); err != nil {
		t.Fatal(err)
	}
	other.Close()
	p.write(t, "newer.db", p.file(t, "league.db"))
	newer := sqlDB(t, filepath.Join(p.dir, "newer.db"))
	if _, err := newer.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	newer.Close()
	p.ok(t, "export", "--checkpoint", "latest", "-o", "net.bin")

	before := snapshot(t, p.dir)
	for _, c := range []struct {
		want string
		args []string
	}{
		{"games must be at least 1 (got -1)", []string{"train", "--games", "-1", "--db", "league.db"}},
		{"games must be at least 1 (got 0)", []string{"train", "--games", "0", "-o", "x.bin"}},
		{"hidden must be within 1..", []string{"train", "--hidden", "0", "--db", "league.db"}},
		{"learning rate must be within", []string{"train", "--lr", "-1", "-o", "x.bin"}},
		{"epsilon must be within 0..1", []string{"train", "--epsilon", "1.5", "-o", "x.bin"}},
		{"epsilon decay games must not be negative", []string{"train", "--epsilon-games", "-5", "-o", "x.bin"}},
		{"temperature must be within", []string{"train", "--temperature", "0", "-o", "x.bin"}},
		{"invalid value", []string{"train", "--games", "many", "-o", "x.bin"}},
		{"--workers must be at least 1 (got 0)", leagueRun(bounded, "--workers", "0")},
		{"--workers must be at least 1 (got -2)", leagueRun(bounded, "--workers", "-2")},
		{"games per round must be at least 1", leagueRun(bounded, "--games-per-round", "0")},
		{"rounds must not be negative", leagueRun(bounded, "--rounds", "-1")},
		{"duration must not be negative", leagueRun(bounded, "--duration", "-1s")},
		{"learning rate must be within", leagueRun(bounded, "--lr", "0")},
		{"epsilon must be within 0..1", leagueRun(bounded, "--epsilon-end", "-0.1")},
		{"self-play share must be within 0..1", leagueRun(bounded, "--self-play", "1.5")},
		{"opening plies must be within 0..2", leagueRun(bounded, "--openings", "3")},
		{"hidden must be within 1..", leagueRun(bounded, "--hidden", "100000")},
		{"--games must not be negative", []string{"verify", "--games", "-1", "3"}},
		{"net.bin: inputs must be 18 or 19, not 20", []string{"import", "--inputs", "20", "net.bin"}},
		{`no such agent: "99"`, []string{"ratings", "history", "--agent", "99"}},
		{`no such agent: "nobody"`, []string{"show", "nobody"}},
		{".: not a ttt database: a directory", leagueRun(bounded, "--db", ".")},
		{".: not a ttt database: a directory", []string{"checkpoints", "--db", "."}},
		{".: not a ttt database: a directory", []string{"import", "--db", ".", "net.bin"}},
		{"notes.txt: not a ttt database", leagueRun(bounded, "--db", "notes.txt")},
		{"notes.txt: not a ttt database", []string{"train", "--games", "10", "--db", "notes.txt"}},
		{"other.db: not a ttt database: an SQLite database of another program", []string{"ratings", "--db", "other.db"}},
		{"other.db: not a ttt database: an SQLite database of another program", leagueRun(bounded, "--db", "other.db")},
		{"newer.db: database was written by a newer ttt", []string{"checkpoints", "--db", "newer.db"}},
		{"newer.db: database was written by a newer ttt", leagueRun(bounded, "--db", "newer.db")},
		{"newer.db: database was written by a newer ttt", []string{"import", "--db", "newer.db", "net.bin"}},
	} {
		p.refused(t, c.want, c.args...)
	}
	if after := snapshot(t, p.dir); after != before {
		t.Errorf("refused commands changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

// background is a ttt process that the test started and will stop.
type background struct {
	cmd         *exec.Cmd
	out, errOut bytes.Buffer
}

// background starts ttt with args; the test's end kills it if it still
// runs.
func (p ttt) background(t *testing.T, args ...string) *background {
	t.Helper()
	b := &background{cmd: p.command(args...)}
	b.cmd.Stdout, b.cmd.Stderr = &b.out, &b.errOut
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if b.cmd.ProcessState == nil {
			b.cmd.Process.Kill()
			b.cmd.Wait()
		}
	})
	return b
}

// awaitLock waits until the process holds the league lock of the
// database at path (the lock file names its pid), that is until its
// league has begun.
func (b *background) awaitLock(t *testing.T, path string) {
	t.Helper()
	want := strconv.Itoa(b.cmd.Process.Pid) + "\n"
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if data, err := os.ReadFile(path + ".lock"); err == nil && string(data) == want {
			return
		}
	}
	stdout, stderr, code := b.stop(t, syscall.SIGKILL)
	t.Fatalf("no league lock after 30 s: exit %d, stdout %q, stderr %q", code, stdout, stderr)
}

// stop sends sig and waits for the process to end.
func (b *background) stop(t *testing.T, sig syscall.Signal) (stdout, stderr string, code int) {
	t.Helper()
	if err := b.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := b.cmd.Wait()
	if exit := (*exec.ExitError)(nil); err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return b.out.String(), b.errOut.String(), b.cmd.ProcessState.ExitCode()
}

// roundLine matches the line of a committed round.
var roundLine = regexp.MustCompile(`(?m)^round (\d+) `)

// lastReported is the last round that a league run's output reports.
func lastReported(stdout string) int64 {
	var last int64
	for _, m := range roundLine.FindAllStringSubmatch(stdout, -1) {
		last, _ = strconv.ParseInt(m[1], 10, 64)
	}
	return last
}

// lastRound is the last committed round of the league in the program's
// directory.
func lastRound(t *testing.T, p ttt) int64 {
	t.Helper()
	db, err := store.OpenRead(context.Background(), filepath.Join(p.dir, "league.db"))
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

// checkIntact checks that the league.db a failed commit left is sound
// and holds the rounds up to committed.
func checkIntact(t *testing.T, p ttt, committed int64) {
	t.Helper()
	db := sqlDB(t, filepath.Join(p.dir, "league.db"))
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity_check: %q, %v", integrity, err)
	}
	db.Close()
	if got := lastRound(t, p); got != committed {
		t.Errorf("last round %d, want %d", got, committed)
	}
}

// sqlDB opens the SQLite file at path directly, as another program would.
func sqlDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: path}).String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// dbHash hashes league.db and its -wal file: what a writer changes. The
// -shm file is left out: it is the readers' shared index, which every
// reader updates.
func dbHash(t *testing.T, p ttt) string {
	t.Helper()
	h := sha256.New()
	for _, name := range []string{"league.db", "league.db-wal"} {
		data, err := os.ReadFile(filepath.Join(p.dir, name))
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
func asNobody(t *testing.T, p ttt) ttt {
	t.Helper()
	for _, path := range []string{p.bin, filepath.Join(p.dir, "league.db")} {
		for dir := filepath.Dir(path); dir != os.TempDir() && dir != "/"; dir = filepath.Dir(dir) {
			chmod(t, dir, 0o755)
		}
	}
	p.sys = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return p
}

// chmod sets the mode of path.
func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}
