package commands_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/league"
	"ttt/league/commands"
	"ttt/league/commands/clitest"
	"ttt/migrations"
	"ttt/store"
)

func TestEndToEnd(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)

	// Train ttt-rl's way straight into a new league.
	if out := p.OK(t, "train", "--games", "2000", "--db", "league.db"); !strings.Contains(out, "stored as agent 6 (baseline-6)") {
		t.Errorf("train --db said:\n%s", out)
	}
	rows, err := csv.NewReader(strings.NewReader(p.OK(t, "checkpoints", "--format", "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"id", "kind", "method", "name", "generation", "train_games", "hidden", "elo", "class"},
		{"1", "random", "", "random", "0", "0", "", "", ""},
		{"2", "perfect", "", "perfect", "0", "0", "", "", "perfect"},
		{"3", "mcts", "", "mcts-10", "0", "0", "", "", ""},
		{"4", "mcts", "", "mcts-100", "0", "0", "", "", ""},
		{"5", "mcts", "", "mcts-1000", "0", "0", "", "", ""},
		{"6", "baseline", "policy", "baseline-6", "0", "2000", "100", "", "beatable"},
	}
	if got, want := strings.Join(flatten(rows), ","), strings.Join(flatten(want), ","); got != want {
		t.Errorf("checkpoints --format csv:\n got %s\nwant %s", got, want)
	}

	// Export: 19 inputs, and 18 folded for O in ttt-rl's size.
	p.OK(t, "export", "--checkpoint", "latest", "-o", "full.bin")
	full := p.File(t, "full.bin")
	net, err := nn.Parse(tictactoe.Game, full, nn.Shape{Inputs: 19})
	if err != nil {
		t.Fatal(err)
	}
	p.OK(t, "export", "--side", "O", "-o", "ttt_nn.bin")
	folded := p.File(t, "ttt_nn.bin")
	if got, want := len(folded), 11236; got != want {
		t.Errorf("export --side O wrote %d bytes, want %d", got, want)
	}
	if !bytes.Equal(folded, net.FoldedBytes(game.O)) {
		t.Error("export --side O is not the stored net folded for O")
	}

	// Import and export again: the same bytes.
	if out := p.OK(t, "import", "--name", "copy", "full.bin"); !strings.Contains(out, "agent 7 (copy)") {
		t.Errorf("import said:\n%s", out)
	}
	p.OK(t, "export", "--checkpoint", "copy", "-o", "copy.bin")
	if !bytes.Equal(p.File(t, "copy.bin"), full) {
		t.Error("export of an imported file differs from the file")
	}

	// verify ID checks the stored net as verify FILE checks the file.
	byID, _, codeID := p.Run(t, "verify", "6")
	byFile, _, codeFile := p.Run(t, "verify", "full.bin")
	if byID != byFile || codeID != codeFile || !strings.Contains(byID, "O: ") {
		t.Errorf("verify 3 (exit %d):\n%s\nverify full.bin (exit %d):\n%s", codeID, byID, codeFile, byFile)
	}

	// Refusals: one line on stderr, exit 1, and nothing changed.
	nan := bytes.Clone(full)
	binary.LittleEndian.PutUint32(nan[400:], math.Float32bits(float32(math.NaN())))
	p.Write(t, "truncated.bin", full[:len(full)-6])
	p.Write(t, "wrongsize.bin", append(bytes.Clone(full), 0, 0, 0, 0))
	p.Write(t, "nan.bin", nan)
	p.Write(t, "empty.bin", nil)
	p.Write(t, "notes.db", []byte("my notes, not a database\n"))
	empty, err := store.Open(context.Background(), filepath.Join(p.Dir, "empty.db"), func() store.Setup { return league.Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	empty.Close()
	// Another model under a name taken is refused; the same model again
	// finishes an import that stopped before its games against the
	// ladder (the I/O-fault test stops one there).
	other := append([]byte(nil), full...)
	copy(other[len(other)-4:], []byte{0, 0, 0x80, 0x3f}) // its last weight 1.0
	p.Write(t, "other.bin", other)
	before := clitest.Snapshot(t, p.Dir)
	p.Refused(t, "not a whole number of float32", "import", "truncated.bin")
	p.Refused(t, "fits no network", "import", "wrongsize.bin")
	p.Refused(t, "NaN", "import", "nan.bin")
	p.Refused(t, "empty", "import", "empty.bin")
	p.Refused(t, "no such file", "import", "missing.bin")
	p.Refused(t, `agent with that name exists: "copy"`, "import", "--name", "copy", "other.bin")
	p.Refused(t, `no such agent: "99"`, "show", "99")
	p.Refused(t, `no such agent: "99"`, "export", "--checkpoint", "99", "-o", "x.bin")
	p.Refused(t, "no checkpoints yet", "export", "--db", "empty.db", "-o", "x.bin")
	p.Usage(t, "side must be X or O", "export", "--side", "Q", "-o", "x.bin")
	p.Refused(t, "cannot write", "export", "-o", filepath.Join("no", "such", "dir", "x.bin"))
	p.Refused(t, "it learned no model", "export", "--checkpoint", "perfect", "-o", "x.bin")
	p.Refused(t, "no league database at nowhere.db", "checkpoints", "--db", "nowhere.db")
	p.Refused(t, "not a ttt database", "checkpoints", "--db", "notes.db")
	p.Usage(t, "--format must be", "checkpoints", "--format", "xml")
	p.Refused(t, `no file nobody, and no such agent: "nobody"`, "verify", "nobody")
	if after := clitest.Snapshot(t, p.Dir); after != before {
		t.Errorf("refused commands changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

// flatten joins each row into one string, so tables compare as strings.
func flatten(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, "|"))
	}
	return out
}

// bounded are league flags for a run that ends soon: a refusal test
// whose refusal is missing must not run a league for ever. A flag given
// again after them wins.
var bounded = []string{"--rounds", "1", "--games-per-round", "100", "--hidden", "8"}

// A database that is not a league, or of another ttt, is refused with
// one line and exit 1, and nothing changed. (The script values.txtar
// has the rest of the bad input; TestEndToEnd bad weight files.)
func TestBadInput(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	other := clitest.SQL(t, filepath.Join(p.Dir, "other.db"))
	if _, err := other.Exec("CREATE TABLE t(x)"); err != nil {
		t.Fatal(err)
	}
	other.Close()
	p.Write(t, "newer.db", p.File(t, "league.db"))
	newer := clitest.SQL(t, filepath.Join(p.Dir, "newer.db"))
	if _, err := newer.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	newer.Close()
	p.Write(t, "nonsense.db", p.File(t, "league.db"))
	nonsense := clitest.SQL(t, filepath.Join(p.Dir, "nonsense.db"))
	if _, err := nonsense.Exec("PRAGMA user_version = -1"); err != nil {
		t.Fatal(err)
	}
	nonsense.Close()
	p.Write(t, "old.db", readTestdata(t, schema1))
	// Damaged: a header with a schema format no SQLite writes, or one
	// that SQLite cannot read; no row in the table that names the game.
	for offset, name := range map[int]string{47: "format.db", 21: "header.db"} {
		data := p.File(t, "league.db")
		data[offset] = 7
		p.Write(t, name, data)
	}
	p.Write(t, "nogame.db", p.File(t, "league.db"))
	nogame := clitest.SQL(t, filepath.Join(p.Dir, "nogame.db"))
	if _, err := nogame.Exec("DELETE FROM league"); err != nil {
		t.Fatal(err)
	}
	if _, err := nogame.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	nogame.Close()
	os.Remove(filepath.Join(p.Dir, "nogame.db-wal"))
	os.Remove(filepath.Join(p.Dir, "nogame.db-shm"))
	p.OK(t, "export", "--checkpoint", "latest", "-o", "net.bin")

	before := clitest.Snapshot(t, p.Dir)
	for _, c := range []struct {
		want string
		args []string
	}{
		{"other.db: not a ttt database: an SQLite database of another program", []string{"ratings", "--db", "other.db"}},
		{"other.db: not a ttt database: an SQLite database of another program", clitest.LeagueRun(bounded, "--db", "other.db")},
		{"newer.db: database was written by a newer ttt", []string{"checkpoints", "--db", "newer.db"}},
		{"newer.db: database was written by a newer ttt", clitest.LeagueRun(bounded, "--db", "newer.db")},
		{"newer.db: database was written by a newer ttt", []string{"import", "--db", "newer.db", "net.bin"}},
		{"nonsense.db: not a ttt database: schema version -1, which no ttt writes", []string{"ratings", "--db", "nonsense.db"}},
		{"nonsense.db: not a ttt database: schema version -1, which no ttt writes", clitest.LeagueRun(bounded, "--db", "nonsense.db")},
		{fmt.Sprintf("old.db: database was written by an older ttt (schema 1, this ttt knows %d): ttt upgrade brings it up to date", schemas(t)), []string{"ratings", "--db", "old.db"}},
		{"format.db: the database file is damaged: its header gives file format versions 2 and 2 and schema format 7, where SQLite writes 1 or 2, and 4 at most (ttt check says what is damaged)", []string{"ratings", "--db", "format.db"}},
		{"format.db: the database file is damaged: its header gives file format versions", clitest.LeagueRun(bounded, "--db", "format.db")},
		{"header.db: the database file is damaged: its header is not one SQLite can read (SQLite: file is not a database (26)) (ttt check says what is damaged)", []string{"ratings", "--db", "header.db"}},
		{"header.db: the database file is damaged: its header is not one SQLite can read", clitest.LeagueRun(bounded, "--db", "header.db")},
		{"nogame.db: the database file is damaged: its table league, which names the league's game, has no row (ttt check says what is damaged)", []string{"ratings", "--db", "nogame.db"}},
		{"nogame.db: the database file is damaged: its table league, which names the league's game, has no row", clitest.LeagueRun(bounded, "--db", "nogame.db")},
	} {
		p.Refused(t, c.want, c.args...)
	}
	if after := clitest.Snapshot(t, p.Dir); after != before {
		t.Errorf("refused commands changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

// A full file system stops the league at a commit with "disk is full",
// followed by SQLite's own word for it, and the readers still work on
// it. It needs a small tmpfs, which only root can mount.
func TestDiskFull(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	dir := filepath.Join(p.Dir, "small")
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
	p.Dir = dir
	stdout, stderr, code := p.Run(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1000")...)
	committed := clitest.LastReported(stdout)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "league.db: the disk is full (SQLite: database or disk is full (13))") ||
		!strings.Contains(stderr, fmt.Sprintf("the league holds %d committed round", committed)) || committed < 1 {
		t.Fatalf("on a full disk: exit %d, stderr %q (%d round lines)", code, stderr, committed)
	}
	// The last committed round's snapshot, after the built-in players.
	if out := p.OK(t, "checkpoints", "--db", "league.db"); !strings.Contains(out, fmt.Sprintf("checkpoint-%d", committed+int64(len(agents.TicTacToe.Builtins)))) {
		t.Errorf("checkpoints on a full disk:\n%s", out)
	}
	db := clitest.SQL(t, filepath.Join(dir, "league.db"))
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity_check: %q, %v", integrity, err)
	}
	var rounds int64
	if err := db.QueryRow("SELECT count(*) FROM rounds").Scan(&rounds); err != nil || rounds != committed {
		t.Errorf("%d rounds stored (%v), want %d", rounds, err, committed)
	}
}

// Two runs at once in one process, each in a directory of its own: each
// finds and makes its files from its own Dir, its league where its own
// TTT_DB says, and the process's working directory and environment are
// never read or changed.
func TestRunInItsOwnDirectory(t *testing.T) {
	t.Parallel()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	before := clitest.Snapshot(t, wd)
	dirs := []string{t.TempDir(), t.TempDir()}
	var out, errOut [2]strings.Builder
	var codes [2][2]int
	var wg sync.WaitGroup
	for i, dir := range dirs {
		wg.Go(func() {
			env := commands.Env{Stdin: strings.NewReader(""), Stdout: &out[i], Stderr: &errOut[i], Dir: dir,
				LookupEnv: func(key string) (string, bool) {
					return fmt.Sprintf("league-%d.db", i), key == "TTT_DB"
				}}
			codes[i][0] = commands.Run(t.Context(), env, append([]string{"league", "run", "--rounds", "1"}, clitest.Quick...))
			codes[i][1] = commands.Run(t.Context(), env, []string{"export", "-o", "best.bin"})
		})
	}
	wg.Wait()
	for i, dir := range dirs {
		if codes[i] != [2]int{0, 0} {
			t.Fatalf("run %d: exit codes %v: %s", i, codes[i], errOut[i].String())
		}
		for _, name := range []string{fmt.Sprintf("league-%d.db", i), "best.bin"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Errorf("run %d: %v", i, err)
			}
		}
		if want := fmt.Sprintf("new tic-tac-toe league in league-%d.db, ", i); !strings.HasPrefix(out[i].String(), want) {
			t.Errorf("run %d said %q, want it to begin %q", i, out[i].String(), want)
		}
	}
	if got, _ := os.Getwd(); got != wd || clitest.Snapshot(t, wd) != before {
		t.Errorf("the runs changed the process's directory (%s, was %s) or wrote in it", got, wd)
	}
}

// Run shares nothing between calls: readers, help, usage errors and
// trainings at once, under the race detector, each with the output it
// has alone.
func TestRunConcurrently(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "league.db")
	run := func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		code := commands.Run(context.Background(), commands.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, args)
		return out.String(), errOut.String(), code
	}
	if _, errOut, code := run(clitest.LeagueRun(clitest.Quick, "--db", db, "--rounds", "1")...); code != 0 {
		t.Fatal(errOut)
	}
	other := filepath.Join(dir, "other.db") // made before the trainings that go on at once
	if _, errOut, code := run("train", "--games", "200", "--hidden", "4", "--db", other); code != 0 {
		t.Fatal(errOut)
	}
	alone := map[string]string{}
	cmds := map[string][]string{
		"ratings":     {"ratings", "--db", db, "--format", "csv"},
		"checkpoints": {"checkpoints", "--db", db},
		"show":        {"show", "6", "--db", db},
		"history":     {"ratings", "history", "--db", db},
		"version":     {"--version"},
		"help":        {"help", "league", "run"},
		"typo":        {"ratings", "--fromat", "csv", "--db", db},
		"nan":         {"train", "--lr", "NaN", "-o", filepath.Join(dir, "x.bin")},
	}
	for name, args := range cmds {
		out, errOut, code := run(args...)
		alone[name] = fmt.Sprint(out, errOut, code)
	}
	var wg sync.WaitGroup
	for range 4 {
		for name, args := range cmds {
			wg.Go(func() {
				out, errOut, code := run(args...)
				if got := fmt.Sprint(out, errOut, code); got != alone[name] {
					t.Errorf("%s at the same time as others:\n%s\nalone:\n%s", name, got, alone[name])
				}
			})
		}
		wg.Go(func() {
			if _, errOut, code := run("train", "--games", "200", "--hidden", "4", "--db", other); code != 0 {
				t.Errorf("train --db at the same time as others: %s", errOut)
			}
		})
	}
	wg.Wait()
}

// schema1 is a league made by the release with schema 1 (see package
// store's TestUpgradeSchema1); in-process commands change the working
// directory, so its path is made absolute first.
var schema1, _ = filepath.Abs(filepath.Join("..", "..", "store", "testdata", "schema1.db"))

// readTestdata reads a file of test data.
func readTestdata(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// ttt upgrade brings a league of schema 1 up to date in place, keeping
// every agent and match. Its ratings, fitted with random at 0 alone, move
// to the game's scale, its built-in players anchored: perfect is then
// 494, as in every league of the game. The readers then read it, and a
// league goes on from its last round.
func TestUpgrade(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.Write(t, "league.db", readTestdata(t, schema1))
	if out := p.OK(t, "upgrade"); !movedScale.MatchString(out) || !strings.HasSuffix(out, "\nleague.db upgraded from schema 1, and is up to date: 19 agents\n") {
		t.Errorf("upgrade said %q", out)
	}
	if out := p.OK(t, "upgrade"); out != "league.db is up to date: 19 agents\n" {
		t.Errorf("a second upgrade said %q", out)
	}
	if out := p.OK(t, "ratings"); !strings.Contains(out, "baseline-15") || !strings.Contains(out, "five-again") || !regexp.MustCompile(`perfect +- +- +494\.0 `).MatchString(out) {
		t.Errorf("ratings of the upgraded league:\n%s", out)
	}
	if out := p.OK(t, "check", "--ratings"); !strings.Contains(out, "agrees with the 19 ratings within 0.1 Elo") || strings.Contains(out, "older") {
		t.Errorf("check --ratings of the upgraded league:\n%s", out)
	}
	if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, "\nround 16 ") {
		t.Errorf("the league after the upgrade said:\n%s", out)
	}
	p.OK(t, "check")
}

// movedScale is the line that says a league's ratings moved to the
// game's scale: here schema 1's league, whose perfect was rated 437.3.
var movedScale = regexp.MustCompile(`(^|\n)(ttt: )?the ratings moved from the scale of an older ttt \(random at 0 alone\) to the tic-tac-toe scale, by a refit of 171 stored matches: 19 agents, the furthest moved [0-9.]+ Elo \(agent 2, perfect: 437\.[0-9]+, now 494\.000\)\n`)

// A league of the schema before, whose ratings are on the older scale:
// the readers read it as it is, check --ratings refits it on that scale
// and says which it is, and a league run moves it to the game's scale
// and says so on stderr before it goes on.
func TestOlderScale(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.Write(t, "league.db", readTestdata(t, schema1))
	p.Write(t, "n.bin", readTestdata(t, filepath.Join("testdata", "unbeatable.bin")))
	p.OK(t, "import", "n.bin", "--name", "late") // a writer that brings the schema, not the scale, up to date
	out := p.OK(t, "check", "--ratings")
	if !strings.Contains(out, "league.db: its ratings are on the scale of an older ttt, random at 0 alone, and so is the refit: ttt upgrade moves them to the tic-tac-toe scale\n") ||
		!strings.Contains(out, "agrees with the 19 ratings within 0.1 Elo") {
		t.Errorf("check --ratings on the older scale:\n%s", out)
	}
	if out := p.OK(t, "ratings"); !regexp.MustCompile(`perfect +- +- +437\.3 `).MatchString(out) {
		t.Errorf("ratings on the older scale:\n%s", out)
	}
	out, errOut, code := p.Run(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	if code != 0 || !movedScale.MatchString(errOut) || !strings.Contains(out, "\nround 16 ") {
		t.Errorf("a league run on the older scale: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if out := p.OK(t, "check", "--ratings"); strings.Contains(out, "older") || !strings.Contains(out, "agrees with the 21 ratings within 0.1 Elo") {
		t.Errorf("check --ratings after the run:\n%s", out)
	}
}

// ttt upgrade brings an existing league up to date and never makes one:
// a mistyped --db, an empty file or an SQLite file with no league is
// refused as readers refuse it, and no file is made or changed.
func TestUpgradeNeedsALeague(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.Write(t, "empty.db", nil)
	raw := clitest.SQL(t, filepath.Join(p.Dir, "bare.db"))
	if _, err := raw.Exec("PRAGMA user_version = 0; VACUUM"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before := clitest.Snapshot(t, p.Dir)
	p.Refused(t, "no league database at typo.db (ttt league run makes one; choose another with --db or TTT_DB)", "upgrade", "--db", "typo.db")
	p.Refused(t, "empty.db: no league database: the file is empty", "upgrade", "--db", "empty.db")
	p.Refused(t, "bare.db: no league database: an SQLite file with no league in it yet", "upgrade", "--db", "bare.db")
	if after := clitest.Snapshot(t, p.Dir); after != before {
		t.Errorf("refused upgrades changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

// A league of schema 1 may hold an agent imported under a name of the
// form the league gives its own agents, which schema 2 refuses: here
// checkpoint-20, the name of the league's next checkpoint. The upgrade
// renames it, says so, and the league goes on.
func TestUpgradeRenames(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.Write(t, "league.db", readTestdata(t, schema1))
	raw := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	if _, err := raw.Exec("UPDATE agents SET name = 'checkpoint-20' WHERE name = 'five-again'"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	old := p.File(t, "league.db")
	renamed := `agent 16 renamed imported-16: bad agent name "checkpoint-20": names of the form kind-number are the league's own`
	if out := p.OK(t, "upgrade"); !strings.HasPrefix(out, renamed+"\n") || !movedScale.MatchString(out) {
		t.Errorf("upgrade said %q, want %q and the ratings moved to the scale", out, renamed)
	}
	if out := p.OK(t, "show", "16"); !strings.Contains(out, "imported-16") {
		t.Errorf("show 16 after the upgrade:\n%s", out)
	}
	if out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); !strings.Contains(out, "\nround 16  checkpoint-20 ") {
		t.Errorf("the league after the upgrade said:\n%s", out)
	}
	p.OK(t, "check")

	// The writers upgrade as well, and say what they renamed on stderr.
	q := clitest.New(t)
	q.Write(t, "league.db", old)
	if out, errOut, code := q.Run(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...); code != 0 || !strings.HasPrefix(errOut, "ttt: "+renamed+"\n") || !movedScale.MatchString(errOut) || !strings.Contains(out, "\nround 16  checkpoint-20 ") {
		t.Errorf("a league run on the old league: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// ttt check says a sound league is healthy; names the agent whose weights
// or move table a flipped bit damaged, the agent whose weights match
// their checksum but no longer read as a model, and the match whose
// record was changed, with a non-zero exit; and says a truncated file is
// damaged.
func TestCheck(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "6")...)
	if out := p.OK(t, "check", "--sample", "1"); !strings.Contains(out, "league.db is healthy: SQLite's checks pass, 7 stored blobs match their checksums, 6 models export and read back exactly") {
		t.Errorf("check of a sound league said %q", out)
	}
	healthy := p.File(t, "league.db")

	flip := func(column string, id int) {
		t.Helper()
		db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
		defer db.Close()
		var blob []byte
		if err := db.QueryRow("SELECT "+column+" FROM agents WHERE id = ?", id).Scan(&blob); err != nil {
			t.Fatal(err)
		}
		blob[len(blob)/3] ^= 0x10
		if _, err := db.Exec("UPDATE agents SET "+column+" = ? WHERE id = ?", blob, id); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		damage func()
		want   string
	}{
		{func() { flip("weights", 8) }, "agent 8 (checkpoint-8): its weights: damaged: its checksum does not match"},
		{func() { flip("moves", 7) }, "agent 7 (checkpoint-7): its move table: damaged: its checksum does not match"},
		{func() {
			// Half the weights, under a checksum of what is left: what a
			// bug that wrote a model wrong would leave.
			db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
			defer db.Close()
			if _, err := db.Exec("UPDATE agents SET weights = substr(weights, 1, length(weights) / 2) WHERE id = 9"); err != nil {
				t.Fatal(err)
			}
			var half []byte
			if err := db.QueryRow("SELECT weights FROM agents WHERE id = 9").Scan(&half); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec("UPDATE agents SET weights_crc = ? WHERE id = 9", crc32.Checksum(half, crc32.MakeTable(crc32.Castagnoli))); err != nil {
				t.Fatal(err)
			}
		}, "agent 9 (checkpoint-9): its stored policy does not read"},
		{func() {
			db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
			defer db.Close()
			if _, err := db.Exec("UPDATE matches SET wins = wins + 1, losses = losses - 1 WHERE a = 9 AND b = 1"); err != nil {
				t.Fatal(err)
			}
		}, "round 4, match 9 v 1: replays as"},
		{func() {
			db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
			defer db.Close()
			if _, err := db.Exec("UPDATE sides SET draws = draws + 1 WHERE a = 9 AND b = 1"); err != nil {
				t.Fatal(err)
			}
		}, "match 9 v 1: its record as X is not a part of its record"},
		{func() {
			// A game against the ladder that lost its last move.
			db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
			defer db.Close()
			res, err := db.Exec("UPDATE ladder_games SET games = substr(games, 1, length(games) - 1) WHERE (a, b) = (SELECT a, b FROM ladder_games LIMIT 1)")
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				t.Fatalf("%d matches against the ladder cut short, want 1", n)
			}
		}, "its stored games: damaged: its checksum does not match"},
	} {
		p.Write(t, "league.db", healthy)
		c.damage()
		out, errOut, code := p.Run(t, "check", "--sample", "1")
		if code != 1 || !strings.Contains(out, c.want) || !strings.Contains(out, " found\n") || errOut != "ttt: the league is damaged\n" {
			t.Errorf("check of a damaged league: exit %d, stdout %q, stderr %q; want %q", code, out, errOut, c.want)
		}
	}

	p.Write(t, "league.db", healthy[:len(healthy)/2])
	p.Refused(t, "league.db: the database file is damaged", "check")
}

// schemas is the number of the newest schema, the count of the
// migrations.
func schemas(t *testing.T) int {
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	return len(files)
}
