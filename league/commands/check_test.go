package commands_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// check --ratings on a league that commits rounds meanwhile finds it
// sound every time. It reads the results and the standings of one state
// of the league: read in two transactions, they could be of two rounds,
// and a healthy league would look damaged. So do check, ratings and
// checkpoints, each in one state. The league runs until the checks have
// run a fixed number of times, however fast the machine is.
func TestReadersWhileTheLeagueCommits(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	run := p.Start(t, clitest.LeagueRun(clitest.Quick, "--rounds", "100000")...)
	run.WaitOutput(t, "\nround 3 ")
	for i := range 40 {
		out, errOut, code := p.Run(t, "check", "--ratings")
		if code != 0 || !strings.Contains(out, "agrees with the") {
			t.Fatalf("check --ratings %d while the league commits: exit %d\n%s%s", i, code, out, errOut)
		}
		if i%10 == 0 {
			if out, errOut, code := p.Run(t, "check"); code != 0 {
				t.Fatalf("check while the league commits: exit %d\n%s%s", code, out, errOut)
			}
		}
	}
	if stdout, stderr, code := run.Stop(t, 2); code != 130 || !strings.Contains(stdout, "stopped: ") {
		t.Fatalf("the league: exit %d\n%s%s", code, stdout, stderr)
	}
	if n := clitest.LastReported(run.Stdout()); n < 4 {
		t.Errorf("the league committed up to round %d while the checks ran: they did not overlap", n)
	}
}

// ttt check calls healthy only a file that every command works on (issue
// 35): it checks what a league run reads to resume (the fit's ratings,
// the learners' state, its stored settings), and the schema against the
// migrations'. Each fault below passed check before; league run refused
// the first two.
func TestCheckWhatEveryCommandNeeds(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "4")...)
	healthy := p.File(t, "league.db")
	for _, c := range []struct {
		name, sql, want string
		refused         bool // by league run
	}{
		{"a damaged fit", "UPDATE fits SET ratings = ratings || x'00' WHERE round_id = (SELECT max(round_id) FROM fits)",
			"table fits: round 4: the ratings of the fit: damaged: its checksum does not match", true},
		{"no learner state", "DELETE FROM learner",
			"a league run cannot resume it: round 4: the league has checkpoints, and no learner state is stored", true},
		{"a dropped index", "DROP INDEX standings_best",
			"SQLite: the index standings_best is missing (the migrations make it)", false},
		{"an added trigger", "CREATE TRIGGER keep AFTER INSERT ON matches BEGIN DELETE FROM matches WHERE a = new.a AND b = new.b; END",
			"SQLite: a trigger keep on matches, which the migrations do not make: CREATE TRIGGER keep AFTER INSERT ON matches", false},
		{"a setting out of range", "UPDATE settings SET value = '-3' WHERE name = 'opponents'",
			"a league run cannot resume it: its stored settings: opponents must be within 4..1024 (got -3)", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := clitest.New(t)
			q.Write(t, "league.db", healthy)
			db := clitest.SQL(t, filepath.Join(q.Dir, "league.db"))
			if _, err := db.Exec(c.sql); err != nil {
				t.Fatal(err)
			}
			db.Close()
			out, errOut, code := q.Run(t, "check")
			if code != 1 || !strings.Contains(out, c.want) || errOut != "ttt: the league is damaged\n" {
				t.Errorf("check: exit %d, stdout %q, stderr %q; want %q", code, out, errOut, c.want)
			}
			if _, _, code := q.Run(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); c.refused && code != 1 {
				t.Errorf("league run: exit %d, want 1", code)
			}
		})
	}
}

// A page that SQLite finds damaged: ttt check names its table and its
// page, and the writers write nothing into the file. A writer that
// committed on top of the damage, with exit status 0, would bury it.
func TestDamagedPage(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "30")...)
	p.OK(t, "export", "--checkpoint", "6", "-o", "net.bin")
	path := filepath.Join(p.Dir, "league.db")
	db := clitest.SQL(t, path)
	var page int64
	if err := db.QueryRow("SELECT max(pageno) FROM dbstat WHERE name = 'matches' AND pagetype = 'leaf'").Scan(&page); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xde, 0xad}, 64), (page-1)*4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	damaged := p.File(t, "league.db")

	out, _, code := p.Run(t, "check")
	want := fmt.Sprintf("SQLite: table matches, page %d: ", page)
	if code != 1 || !strings.Contains(out, want) {
		t.Errorf("check: exit %d, stdout %q; want %q", code, out, want)
	}
	refused := fmt.Sprintf("league.db: the database file is damaged: SQLite reports table matches, page %d: ", page)
	for _, args := range [][]string{clitest.LeagueRun(clitest.Quick, "--rounds", "1"), {"import", "--name", "copy", "net.bin"}} {
		_, errOut, code := p.Run(t, args...)
		if code != 1 || !strings.HasPrefix(errOut, "ttt: "+refused) || !strings.Contains(errOut, "nothing is written into a damaged file (ttt check says what is damaged)\n") {
			t.Errorf("ttt %s: exit %d, stderr %q; want %q", strings.Join(args, " "), code, errOut, refused)
		}
	}
	if !bytes.Equal(p.File(t, "league.db"), damaged) {
		t.Error("the writers changed the damaged file")
	}
	if wal := p.File(t, "league.db-wal"); len(wal) > 0 {
		t.Errorf("the writers wrote %d bytes into the -wal file", len(wal))
	}
}

// A league whose only rounds are ttt roundrobin's among imported agents
// has no learner state yet: ttt check finds it healthy, and a league run
// starts its learners there (it refused it before: "round 1: no learner
// state is stored").
func TestLeagueAfterARoundRobin(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1", "--db", "first.db")...)
	p.OK(t, "export", "--db", "first.db", "--checkpoint", "6", "-o", "net.bin")
	p.OK(t, "import", "--name", "imported", "net.bin")
	p.OK(t, "roundrobin", "imported", "random")
	p.OK(t, "check")
	if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, "\nround 2  checkpoint-7 ") {
		t.Errorf("league run after a round-robin said %q", out)
	}
	p.OK(t, "check")
}
