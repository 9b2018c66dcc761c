package commands_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ttt/agents/testkit"
	"ttt/league/commands"
	"ttt/league/commands/clitest"
)

// damagedTables are the league's tables that FuzzDamagedLeague damages,
// each with the columns that name its rows.
var damagedTables = []struct{ name, key string }{
	{"agents", "id"}, {"rounds", "id"}, {"learner", "round_id"}, {"matches", "a, b"}, {"sides", "a, b"},
	{"history", "agent_id, round_id"}, {"standings", "agent_id"}, {"fits", "round_id"},
	{"settings", "name"}, {"league", "game"},
}

// damagedValues are what FuzzDamagedLeague writes into a column: text
// where a number is due, numbers out of range, an infinity, NULL, a blob.
var damagedValues = []string{"'abc'", "-1", "0", "9e999", "NULL", "x'00ff'", "9223372036854775807", "''", "3.5", "7"}

// damage changes one thing in the league file at path, with foreign keys
// and CHECK constraints off, as an editor or a damaged disk would: it
// deletes every row of a table (op 0), one row (op 1), or sets one
// column of one row to one of damagedValues (op 2). It returns what it
// did, for the test's messages, and false when SQLite refused it.
func damage(t *testing.T, path string, table, op uint8, row uint16, col, val uint8) (did string, done bool) {
	t.Helper()
	db := clitest.SQL(t, path)
	defer db.Close()
	tb := damagedTables[int(table)%len(damagedTables)]
	var cols []string
	rows, err := db.Query("SELECT name FROM pragma_table_info(?)", tb.name)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c string
		rows.Scan(&c)
		cols = append(cols, c)
	}
	rows.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM " + tb.name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	which := fmt.Sprintf("(%[1]s) IN (SELECT %[1]s FROM %[2]s ORDER BY %[1]s LIMIT 1 OFFSET %[3]d)", tb.key, tb.name, int(row)%max(n, 1))
	var q string
	switch op % 3 {
	case 0:
		q, did = "DELETE FROM "+tb.name, "deleted every row of "+tb.name
	case 1:
		q, did = "DELETE FROM "+tb.name+" WHERE "+which, fmt.Sprintf("deleted row %d of %s", int(row)%max(n, 1), tb.name)
	default:
		c, v := cols[int(col)%len(cols)], damagedValues[int(val)%len(damagedValues)]
		q, did = fmt.Sprintf("UPDATE %s SET %s = %s WHERE %s", tb.name, c, v, which), fmt.Sprintf("set %s.%s of row %d to %s", tb.name, c, int(row)%max(n, 1), v)
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, s := range []string{"PRAGMA foreign_keys = OFF", "PRAGMA ignore_check_constraints = ON", q} {
		if _, err := conn.ExecContext(t.Context(), s); err != nil {
			return did + ": " + err.Error(), false
		}
	}
	return did, true
}

// damagedCommands are the commands FuzzDamagedLeague runs on a damaged
// league: every reader, and the writers (each on a copy of its own).
var damagedCommands = [][]string{
	{"ratings"}, {"ratings", "history"}, {"ratings", "plot", "-o", "plot.svg"},
	{"rounds"}, {"checkpoints", "--all"}, {"show", "best"}, {"show", "latest"}, {"show", "7"}, {"league", "show"},
	{"games", "export", "--pgn", "games.pgn"}, {"export", "--checkpoint", "latest", "-o", "latest.bin"},
	{"compare", "6", "7"},
	{"league", "run", "--rounds", "1"}, {"import", "--name", "copy", "net.bin"}, {"prune", "--every", "0", "--best", "1"},
}

// runWithin runs ttt in p as clitest does, and stops it (as Ctrl-C
// would) if it has not ended when the test's patience runs out: a stored
// setting that made a round endless (a billion billion games) failed as
// a hang once. The fuzzer has no timeout of its own, and a hang must fail
// as an input, which the fuzzer then keeps.
func runWithin(t *testing.T, p clitest.TTT, args ...string) (stdout, stderr string, code int) {
	limit := clitest.Patience(t)
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	var out, errOut bytes.Buffer
	code = commands.Run(ctx, commands.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Dir: p.Dir}, args)
	if ctx.Err() != nil {
		t.Errorf("ttt %s: still running after %v", strings.Join(args, " "), limit)
	}
	return out.String(), errOut.String(), code
}

// FuzzDamagedLeague damages a league file, as an editor or a failing
// disk would, and runs every command on it. No command may panic or exit
// 2 (the command line is right), and one that fails says so in one line.
// Where ttt check calls the file healthy, and ttt check --ratings finds
// its ratings those of its results, every command works on it: that is
// what healthy promises. go test runs the seeds, a sample
// of every table, and the inputs that failed once; go test
// -fuzz=FuzzDamagedLeague looks further.
//
// Its seeds (some 600 command runs) belong to the long tier;
// TestDamagedLeagueShortCorpus is its quick sibling.
func FuzzDamagedLeague(f *testing.F) {
	testkit.Long(f, "34 damaged leagues, every command on each; TestDamagedLeagueShortCorpus damages each table once")
	fixture := damagedFixture(f)
	r := rand.New(rand.NewPCG(35, 0))
	for table := range damagedTables {
		for op := range 3 {
			f.Add(uint8(table), uint8(op), uint16(r.IntN(64)), uint8(r.IntN(64)), uint8(r.IntN(64)))
		}
	}
	f.Fuzz(func(t *testing.T, table, op uint8, row uint16, col, val uint8) {
		damagedLeague(t, fixture, table, op, row, col, val)
	})
}

// TestDamagedLeagueShortCorpus is FuzzDamagedLeague's short corpus: each
// table damaged once, the three kinds of damage in turn (every row
// deleted, one row, one value), with the same checks.
func TestDamagedLeagueShortCorpus(t *testing.T) {
	t.Parallel()
	fixture := damagedFixture(t)
	r := rand.New(rand.NewPCG(35, 0))
	for table := range damagedTables {
		op, row, col, val := uint8(table%3), uint16(r.IntN(64)), uint8(r.IntN(64)), uint8(r.IntN(64))
		t.Run(damagedTables[table].name, func(t *testing.T) {
			damagedLeague(t, fixture, uint8(table), op, row, col, val)
		})
	}
}

// damagedFixture is the league that FuzzDamagedLeague damages: 4 rounds
// of two learners, and a network exported from it for import.
func damagedFixture(t testing.TB) clitest.TTT {
	fixture := clitest.New(t)
	fixture.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "4", "--learners", "policy,table")...)
	fixture.OK(t, "export", "--checkpoint", "6", "-o", "net.bin")
	return fixture
}

// damagedLeague damages a copy of fixture's league as the fuzzer's input
// says (see damage), and runs every command of damagedCommands on it.
func damagedLeague(t *testing.T, fixture clitest.TTT, table, op uint8, row uint16, col, val uint8) {
	copyLeague := func() clitest.TTT {
		p := clitest.New(t)
		for _, name := range []string{"league.db", "league.db-wal", "net.bin"} {
			if data, err := os.ReadFile(filepath.Join(fixture.Dir, name)); err == nil {
				p.Write(t, name, data)
			}
		}
		return p
	}
	p := copyLeague()
	did, ok := damage(t, filepath.Join(p.Dir, "league.db"), table, op, row, col, val)
	if !ok {
		t.Skip(did) // SQLite refused it: the damage was not done
	}
	// Healthy is what both checks say: SQLite's and ttt's, and a
	// refit of the ratings.
	checkOut, _, checkCode := p.Run(t, "check", "--sample", "1")
	if out, errOut, code := p.Run(t, "check", "--ratings"); code != 0 {
		checkOut, checkCode = out+errOut, code
	}
	damaged := p.File(t, "league.db")
	for _, args := range damagedCommands {
		q := p
		if args[0] == "league" && args[1] == "run" || args[0] == "import" || args[0] == "prune" {
			q = copyLeague()
			q.Write(t, "league.db", damaged)
		}
		out, errOut, code := runWithin(t, q, args...)
		switch {
		case code != 0 && (code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "ttt: ")):
			t.Errorf("%s; ttt %s: exit %d, stderr %q; want 0, or 1 and one line", did, strings.Join(args, " "), code, errOut)
		case code != 0 && checkCode == 0:
			t.Errorf("%s; ttt check says %q, and ttt %s fails: %s%s", did, checkOut, strings.Join(args, " "), out, errOut)
		case strings.Contains(errOut, "damaged") && !strings.Contains(errOut, "ttt check"):
			t.Errorf("%s; ttt %s calls the file damaged without pointing at ttt check: %q", did, strings.Join(args, " "), errOut)
		}
	}
}

// The two damaged files that made ttt panic with a Go stack trace (issue
// 35): a league whose latest snapshot's agent row is gone, for league
// run, and a rated agent without history rows, for ratings plot; and a
// network whose stored checksum does not match, for export. Each gets
// one line that names the damage and points at ttt check, with exit
// status 1, and ttt check names it too.
func TestNoTraceOnADamagedFile(t *testing.T) {
	t.Parallel()
	fixture := clitest.New(t)
	fixture.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "3")...)
	for _, c := range []struct {
		sql  string
		args []string
		want string
	}{
		{"DELETE FROM agents WHERE id = (SELECT max(id) FROM agents)", clitest.LeagueRun(clitest.Quick, "--rounds", "1"),
			"the database file is damaged: the fit's ratings rate agent 8, which is not in the league"},
		{"DELETE FROM history WHERE agent_id = (SELECT agent_id FROM standings WHERE class IS NOT NULL ORDER BY class DESC, share DESC, lo DESC, agent_id DESC LIMIT 1)",
			[]string{"ratings", "plot", "-o", "plot.svg"}, "is rated and has no rating history"},
		{"UPDATE agents SET weights_crc = weights_crc + 1 WHERE id = (SELECT max(id) FROM agents)",
			[]string{"export", "--checkpoint", "latest", "-o", "x.bin"}, "(checkpoint-8): weights: damaged: its checksum does not match"},
	} {
		p := clitest.New(t)
		p.Write(t, "league.db", fixture.File(t, "league.db"))
		db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
		if _, err := db.Exec(c.sql); err != nil {
			t.Fatal(err)
		}
		db.Close()
		_, errOut, code := p.Run(t, c.args...)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) || !strings.HasSuffix(errOut, "(ttt check says what is damaged)\n") {
			t.Errorf("ttt %s: exit %d, stderr %q; want exit 1 and one line with %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
		if out, _, code := p.Run(t, "check"); code != 1 {
			t.Errorf("check: exit %d, stdout %q", code, out)
		}
	}
}
