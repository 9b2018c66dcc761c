//go:build linux

package main_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// needRoot skips a test that runs a command as another user, which only
// root may do.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test runs ttt as the user nobody, which only root may do")
	}
}

// A reader that may not write the league's directory (ttt serve, run by
// another user, started while no league ran) sees each round that the
// owner's league commits after it started, and `check` and `games
// export` run by that user find the file healthy. Before, such a reader
// opened the file as immutable, stayed at the round it first saw, and
// could call the file damaged once the league wrote it.
func testReaderWithoutWrite(t *testing.T, p clitest.TTT) {
	needRoot(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	nobody := asNobody(t, p) // the directory stays root's, 0755
	serve := nobody.Start(t, "serve", "--addr", "127.0.0.1:0")
	serve.WaitOutput(t, "(Ctrl-C stops)")
	url := regexp.MustCompile(`http://[^/]+/`).FindString(serve.Stdout())
	latest := func() string {
		t.Helper()
		resp, err := http.Get(url + "api/agents/latest")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a struct{ Name string }
		if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/agents/latest: %s, %v", resp.Status, err)
		}
		return a.Name
	}
	if got := latest(); got != "checkpoint-7" {
		t.Fatalf("the reader's latest agent is %s, want checkpoint-7", got)
	}
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "3")...)
	if got := latest(); got != "checkpoint-10" {
		t.Errorf("after the owner's three more rounds, the reader's latest agent is %s, want checkpoint-10", got)
	}
	nobody.OK(t, "check")
	if out := nobody.OK(t, "games", "export", "--pgn", "-"); strings.Count(out, "[Result ") < 10 {
		t.Errorf("games export as nobody printed %q", out)
	}
	if got, want := nobody.OK(t, "checkpoints"), p.OK(t, "checkpoints"); got != want {
		t.Errorf("checkpoints as nobody:\n%s\nas the owner:\n%s", got, want)
	}
}

// A league file without its -wal and -shm (a copy, or a league of an
// older ttt), for a reader that cannot make them: the reader says what to
// do rather than read a file that may change under it; a file nobody may
// write (no write permission, a read-only mount) is read as it is.
func testReaderOfACopy(t *testing.T, p clitest.TTT) {
	needRoot(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	db := filepath.Join(p.Dir, "league.db")
	for _, name := range []string{db + "-wal", db + "-shm"} {
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
	}
	nobody := asNobody(t, p)
	nobody.Refused(t, "league.db: the database is read-only: this user cannot write the file (permission denied), and the file has no -wal and -shm files beside it, through which a reader that cannot write follows a league's commits: run any ttt command on it once (ttt check)", "checkpoints")
	chmod(t, db, 0o444)
	if got, want := nobody.OK(t, "checkpoints"), p.OK(t, "checkpoints"); got != want {
		t.Errorf("checkpoints of a file nobody may write, as nobody:\n%s\nas the owner:\n%s", got, want)
	}
	chmod(t, db, 0o644)
	p.OK(t, "check") // makes them, as the owner
	nobody.OK(t, "checkpoints")

	// A -wal without its -shm: the reader cannot read the -wal.
	if err := os.Remove(db + "-shm"); err != nil {
		t.Fatal(err)
	}
	nobody.Refused(t, "cannot be read without the -shm file beside it, which is missing and which this user cannot make", "checkpoints")
}

// A reader that can read a league's file only as immutable still
// follows the league that starts on it. Such a reader cannot write
// beside the file, and nobody seemed able to write it: no write
// permission for anyone, or a read-only mount. Here root, who may write
// a 0444 file, runs the league while nobody serves the file. A reader
// that missed the commits would stay at the round it first saw, answer
// 500 with an I/O error that did not happen, and 404 for agents that
// exist. A read-only bind mount of a writable directory is the same
// case: the league writes through the other path.
func testReaderOfAFrozenFile(t *testing.T, p clitest.TTT) {
	needRoot(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	db := filepath.Join(p.Dir, "league.db")
	for _, name := range []string{db + "-wal", db + "-shm"} {
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
	}
	chmod(t, db, 0o444)
	nobody := asNobody(t, p)
	serve := nobody.Start(t, "serve", "--addr", "127.0.0.1:0")
	serve.WaitOutput(t, "(Ctrl-C stops)")
	url := regexp.MustCompile(`http://[^/]+/`).FindString(serve.Stdout())
	latest := func() string {
		t.Helper()
		resp, err := http.Get(url + "api/agents/latest")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a struct{ Name, Error string }
		if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/agents/latest: %s, %v %s", resp.Status, err, a.Error)
		}
		return a.Name
	}
	if got := latest(); got != "checkpoint-7" {
		t.Fatalf("the reader's latest agent is %s, want checkpoint-7", got)
	}
	for _, round := range []string{"\nround 3 ", "\nround 4 "} {
		if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, round) {
			t.Fatalf("root's league run on the 0444 file said %q", out)
		}
		if got, want := latest(), p.OK(t, "show", "--format", "json", "latest"); !strings.Contains(want, `"`+got+`"`) {
			t.Errorf("after root's round, the reader's latest agent is %s; root's is %s", got, want)
		}
	}
	nobody.OK(t, "check")
	if got, want := nobody.OK(t, "checkpoints"), p.OK(t, "checkpoints"); got != want {
		t.Errorf("checkpoints as nobody:\n%s\nas root:\n%s", got, want)
	}
}

// A symbolic link, in a directory this user may not write, to a league in
// a directory it may. SQLite keeps the -wal and -shm beside the file the
// link names, so that directory is the one that counts, for readers and
// writers alike. Checking the link's own directory instead would refuse
// the readers as "read-only".
func testLinkToAnotherDirectory(t *testing.T, p clitest.TTT) {
	needRoot(t)
	leagues := filepath.Join(p.Dir, "leagues") // nobody's
	if err := os.Mkdir(leagues, 0o755); err != nil {
		t.Fatal(err)
	}
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	db := filepath.Join(leagues, "league.db")
	for _, name := range []string{"league.db", "league.db-wal", "league.db-shm"} {
		if err := os.Rename(filepath.Join(p.Dir, name), filepath.Join(leagues, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	for _, name := range []string{leagues, db, db + "-wal", db + "-shm"} {
		if err := os.Chown(name, nobody, nobody); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(db, filepath.Join(p.Dir, "league.db")); err != nil { // in root's directory
		t.Fatal(err)
	}
	nobody := asNobody(t, p)
	want := nobody.OK(t, "checkpoints", "--db", db)
	if got := nobody.OK(t, "checkpoints"); got != want {
		t.Errorf("checkpoints through the link:\n%s\nby the file's own name:\n%s", got, want)
	}
	if out := nobody.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, "\nround 3 ") {
		t.Errorf("league run through the link said %q", out)
	}
	nobody.OK(t, "check")
}

// A league to create through a symbolic link whose target does not exist
// yet (league.db -> usb/league.db): under a file size limit too small for
// the schema, and with the target's directory gone (the stick unplugged),
// the creation fails with one line, the user's link stays, and nothing is
// left beside the target: no partial file, no -wal, no -shm.
func testCreateThroughALink(t *testing.T, p clitest.TTT) {
	usb := filepath.Join(p.Dir, "usb")
	if err := os.Mkdir(usb, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(p.Dir, "league.db")
	if err := os.Symlink(filepath.Join("usb", "league.db"), link); err != nil {
		t.Fatal(err)
	}
	linkStays := func(when string) {
		t.Helper()
		if target, err := os.Readlink(link); err != nil || target != filepath.Join("usb", "league.db") {
			t.Errorf("%s: the link is %q (%v)", when, target, err)
		}
	}
	for _, blocks := range []string{"4", "8", "20"} {
		cmd := p.Command(clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
		cmd.Args = append([]string{"sh", "-c", "ulimit -f " + blocks + ` && exec "$0" "$@"`}, cmd.Args...)
		cmd.Path = "/bin/sh"
		stdout, stderr, code := clitest.Execute(t, cmd)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "league.db: cannot write the database file (a file size limit") {
			t.Errorf("ulimit -f %s: exit %d, stdout %q, stderr %q", blocks, code, stdout, stderr)
		}
		linkStays("ulimit -f " + blocks)
		if entries, _ := os.ReadDir(usb); len(entries) > 0 {
			t.Errorf("ulimit -f %s: the failed creation left %v beside the link's target", blocks, entries)
		}
	}
	if err := os.Remove(usb); err != nil {
		t.Fatal(err)
	}
	p.Refused(t, "league.db: cannot open the database file", clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	linkStays("the target's directory gone")
	if entries, _ := os.ReadDir(p.Dir); len(entries) != 1 {
		t.Errorf("the failed creation left %v", entries)
	}
	// Plugged in again, the league is made through the link.
	if err := os.Mkdir(usb, 0o755); err != nil {
		t.Fatal(err)
	}
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	linkStays("a creation")
	if _, err := os.Stat(filepath.Join(usb, "league.db")); err != nil {
		t.Errorf("the league is not where the link points: %v", err)
	}
}
