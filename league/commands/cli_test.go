package commands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"ttt/agents"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/league/commands"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// smallLeague is a league of one quick round in a new directory, with
// its latest checkpoint (agent 6) exported as net.bin.
func smallLeague(t *testing.T) clitest.TTT {
	t.Helper()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	p.OK(t, "export", "--checkpoint", "6", "-o", "net.bin")
	return p
}

// Every float flag of every command refuses NaN and the infinities, which
// strconv reads as numbers and range checks let through, before it does
// any work; and a duration without a unit says that it needs one.
func TestFlagValues(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	flags := commands.FloatFlags()
	if len(flags["train"]) < 4 || len(flags["league run"]) < 7 {
		t.Fatalf("float flags found: %v", flags) // the test must not pass on none
	}
	for cmd, names := range flags {
		for _, name := range names {
			for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity"} {
				args := append(strings.Fields(cmd), "--"+name, v, "--db", "league.db", "-o", "x.bin")
				if cmd == "league run" {
					args = append(strings.Fields(cmd), "--"+name, v, "--rounds", "1")
				}
				_, errOut, code := p.Run(t, args...)
				if code != 2 || !regexp.MustCompile(`^ttt: `+cmd+`: --`+name+` must be a finite number \(got [+-]?(NaN|Inf)\) \(see ttt `+cmd+` --help\)\n$`).MatchString(errOut) {
					t.Errorf("ttt %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
				}
			}
		}
	}
	p.Usage(t, "league run: --duration 8: a unit is needed, such as 8h or 30m (see ttt league run --help)", "league", "run", "--duration", "8")
	p.Usage(t, "league run: --duration 1.5: a unit is needed", "league", "run", "--duration", "1.5")
	if entries, _ := os.ReadDir(p.Dir); len(entries) > 0 {
		t.Errorf("refused flags left files: %v", entries)
	}
}

// Weight files are read with a size cap and only when regular: a device,
// a pipe or a huge file is refused at once, never read into memory.
func TestWeightFileLimits(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	huge := filepath.Join(p.Dir, "huge.bin")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	if err := syscall.Mkfifo(filepath.Join(p.Dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(p.Dir, "dir.bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	largest := agents.MaxFileSize()
	g, err := os.Create(filepath.Join(p.Dir, "onetoomany.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Truncate(largest + 4); err != nil { // sparse too
		t.Fatal(err)
	}
	g.Close()

	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, c := range []struct{ file, want string }{
		{"/dev/zero", "/dev/zero is a device, not a model's file"},
		{"fifo", "fifo is a named pipe, not a model's file"},
		{"dir.bin", "dir.bin is a directory, not a model's file"},
		{"huge.bin", fmt.Sprintf("huge.bin is larger than any model's file (at most %d bytes", largest)},
		{"onetoomany.bin", "onetoomany.bin is larger than any model's file"},
	} {
		p.Refused(t, c.want, "import", c.file)
		if c.file != "dir.bin" { // a directory is no file to verify: verify looks for an agent of that name
			p.Refused(t, c.want, "verify", c.file)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if read := after.TotalAlloc - before.TotalAlloc; read > 64<<20 {
		t.Errorf("refusing the files took %d MB", read>>20)
	}
	if _, err := os.Stat(filepath.Join(p.Dir, "league.db")); err == nil {
		t.Error("a refused import made a database")
	}
}

// ttt ratings of a league of 20 agents, two with long names, fits a
// terminal of 100 columns; CSV and JSON carry the verify figures as
// numbers, each in a field of its own.
func TestRatingsWidth(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	rng := rand.New(rand.NewPCG(1, 1))
	long := "an-imported-network-with-a-name-much-longer-than-the-column-of-the-table"
	for i := range 17 {
		name := fmt.Sprintf("net-%d", i)
		switch i {
		case 0:
			name = long
		case 1:
			name = long + "-2"
		}
		p.Write(t, "n.bin", nn.New(tictactoe.Game, 8, rng).Bytes())
		p.OK(t, "import", "n.bin", "--name", name)
	}
	p.OK(t, clitest.LeagueRun(bounded, "--openings", "1")...) // the built-in players, 17 imports, a checkpoint

	table := p.OK(t, "ratings")
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if len(lines) != 23 || !strings.HasPrefix(lines[21], "(the 20 best of ") || !strings.HasPrefix(lines[22], "best: ") {
		t.Fatalf("ratings has %d lines, want a header, 20 agents, the hint for more and the best:\n%s", len(lines), table)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	// Clipped in the middle, the two long names stay apart.
	if !strings.Contains(table, " an-import…-the-table ") || !strings.Contains(table, " an-import…he-table-2 ") {
		t.Errorf("the long names are not clipped in their middle:\n%s", table)
	}

	rows := csvRows(t, p.OK(t, "ratings", "--format", "csv"))
	var jsonRows []map[string]any
	if err := json.Unmarshal([]byte(p.OK(t, "ratings", "--format", "json")), &jsonRows); err != nil || len(jsonRows) != 20 || len(rows) != 20 {
		t.Fatalf("%d csv rows, %d json rows (%v)", len(rows), len(jsonRows), err)
	}
	names := map[string]bool{}
	for i, row := range rows {
		names[row["agent"]] = true
		j := jsonRows[i]
		for _, side := range []string{"x", "o"} {
			worst, lost, lines, opt := row[side+"_worst"], row[side+"_lost"], row[side+"_lines"], row[side+"_optimal_pct"]
			if row["agent"] == "random" || strings.HasPrefix(row["agent"], "mcts-") {
				if worst+lost+lines+opt != "" || j[side+"_worst"] != nil || j[side+"_lost"] != nil || j[side+"_lines"] != nil || j[side+"_optimal_pct"] != nil {
					t.Errorf("random has verify figures: %v, %v", row, j)
				}
				continue
			}
			nLost, err1 := strconv.Atoi(lost)
			nLines, err2 := strconv.Atoi(lines)
			pct, err3 := strconv.ParseFloat(opt, 64)
			if err1 != nil || err2 != nil || err3 != nil || nLost < 0 || nLost > nLines || nLines < 1 || pct < 0 || pct > 100 ||
				!slices.Contains([]string{"win", "draw", "loss"}, worst) || (worst == "loss") != (nLost > 0) {
				t.Errorf("%s: %s figures %q %q %q %q", row["agent"], side, worst, lost, lines, opt)
			}
			if j[side+"_lost"] != float64(nLost) || j[side+"_lines"] != float64(nLines) || j[side+"_worst"] != worst {
				t.Errorf("%s: json %s figures %v %v %v differ from csv", row["agent"], side, j[side+"_worst"], j[side+"_lost"], j[side+"_lines"])
			}
			if _, ok := j[side+"_optimal_pct"].(float64); !ok {
				t.Errorf("%s: json %s_optimal_pct is %T", row["agent"], side, j[side+"_optimal_pct"])
			}
		}
	}
	if !names[long] || !names["perfect"] || !names["random"] || !names["checkpoint-23"] {
		t.Errorf("csv agents: %v", names)
	}
	// The table's X OPT and O OPT are each side's share of optimal moves,
	// the CSV's, in that order.
	for i, row := range rows {
		if row["x_optimal_pct"] == "" {
			continue // random and the MCTS players have no single line to check
		}
		cells := strings.Fields(lines[1+i])
		for k, side := range []string{"x", "o"} {
			want, _ := strconv.ParseFloat(row[side+"_optimal_pct"], 64)
			got, err := strconv.ParseFloat(strings.TrimSuffix(cells[len(cells)-2+k], "%"), 64)
			if err != nil || math.Abs(got-want) > 0.051 {
				t.Errorf("%s: the table's %s OPT is %q, its share of optimal moves as %s %v", row["agent"], strings.ToUpper(side), cells[len(cells)-2+k], strings.ToUpper(side), want)
			}
		}
	}
}

// A stored setting that is out of range, NaN (which fails every
// comparison) or not a number is the file's fault: an edited or damaged
// file. It is refused with exit status 1, in the settings' stored names,
// whatever flags the command line gave besides. It is never blamed on a
// flag the user did not give, with the exit status of a wrong command
// line.
// (How a league resumes with its settings: the script resume.txtar.)
func TestStoredSettings(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(bounded)...)
	healthy := p.File(t, "league.db")
	for _, c := range []struct {
		name, value string
		flags       []string
		want        string
	}{
		{"epsilon_end", "NaN", nil, "the league's stored settings: epsilon and epsilon_end must be within 0..1 (got 0.1 and NaN)"},
		{"hidden", "-3", []string{"--lr", "0.05"}, "the league's stored settings: hidden must be within 1..4096 (got -3)"},
		{"games_per_round", "abc", []string{"--lr", "0.05"}, `the database file is damaged: the league's stored setting games_per_round is "abc", not a whole number`},
		{"seed", "-1", nil, `the database file is damaged: the league's stored setting seed is "-1", not a whole number from 0 to 18446744073709551615`},
	} {
		p.Write(t, "league.db", healthy)
		db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
		if _, err := db.Exec("UPDATE settings SET value = ? WHERE name = ?", c.value, c.name); err != nil {
			t.Fatal(err)
		}
		db.Close()
		p.Refused(t, c.want+" (ttt check says what is damaged)", append([]string{"league", "run", "--rounds", "1"}, c.flags...)...)
	}
}

// ttt rounds reads back what each round's line said: the snapshot, its
// first rating, its odds against random and class, the round's games and
// times; a round-robin's round has no snapshot. The table fits 100
// columns.
func TestRounds(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, "train", "--games", "100", "--hidden", "4", "--db", "norounds.db")
	p.Refused(t, "the league has played no round yet", "rounds", "--db", "norounds.db")
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "4")...)
	p.OK(t, "roundrobin", "best", "perfect", "random")

	table := p.OK(t, "rounds")
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "ROUND  SNAPSHOT ") || !strings.HasPrefix(lines[5], "5 ") {
		t.Errorf("rounds has %d lines, want a header and 5 rounds:\n%s", len(lines), table)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	if out := p.OK(t, "rounds", "--limit", "2"); !strings.Contains(out, "\n4 ") || strings.Contains(out, "\n3 ") ||
		!strings.HasSuffix(out, "(the newest 2 of 5 rounds: --limit N or --all for more)\n") {
		t.Errorf("rounds --limit 2 said:\n%s", out)
	}

	rows := csvRows(t, p.OK(t, "rounds", "--format", "csv"))
	if len(rows) != 5 {
		t.Fatalf("%d csv rows, want 5", len(rows))
	}
	for i, row := range rows[:4] {
		var show map[string]any
		p.OKJSON(t, &show, "show", row["snapshot_id"], "--format", "json")
		xScore := show["x_win"].(float64) + show["x_draw"].(float64)/2
		started, err1 := time.Parse(time.RFC3339Nano, row["started"])
		finished, err2 := time.Parse(time.RFC3339Nano, row["finished"])
		if row["round"] != strconv.Itoa(i+1) || row["kind"] != "league" || row["snapshot"] != show["name"] ||
			row["class"] != show["class"] || !near(row["x_score"], xScore) ||
			row["train_games"] != "500" || err1 != nil || err2 != nil || finished.Before(started) {
			t.Errorf("round %d: %v; ttt show of its snapshot: %v", i+1, row, show)
		}
	}
	if rr := rows[4]; rr["kind"] != "roundrobin" || rr["snapshot"] != "" || rr["train_games"] != "0" || rr["eval_games"] == "0" {
		t.Errorf("the round-robin's round: %v", rr)
	}
	var jsonRows []map[string]any
	p.OKJSON(t, &jsonRows, "rounds", "--all", "--format", "json")
	if len(jsonRows) != 5 || jsonRows[4]["snapshot"] != nil || jsonRows[0]["elo"] == nil {
		t.Errorf("rounds as json: %v", jsonRows)
	}
}

// Ctrl-C stops ttt verify however many games it was asked to sample: the
// sampling loop watches the command's context, and the command exits 130.
func TestVerifyStops(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, "train", "--games", "10", "--hidden", "4", "-o", "n.bin")
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	var stdout, stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- commands.Run(ctx, commands.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}, []string{"verify", "--games", "2000000000", filepath.Join(p.Dir, "n.bin")})
	}()
	// A verify that missed the cancellation would play its two billion
	// games: go test's -timeout would say where it hangs.
	if code := <-done; code != 130 || stderr.String() != "ttt: stopped: interrupted\n" {
		t.Errorf("verify cancelled: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// Every committed round, of the league and of a round-robin, stores when
// it finished: after it started, and just now.
func TestRoundsFinish(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	start := time.Now().Add(-time.Second) // the store keeps UTC text: allow for rounding
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "1")...)
	p.OK(t, "roundrobin", "random", "perfect", "6")
	end := time.Now().Add(time.Second)
	db, err := store.OpenRead(t.Context(), filepath.Join(p.Dir, "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rounds, err := db.Rounds(t.Context(), 1, 10)
	if err != nil || len(rounds) != 2 {
		t.Fatalf("%d rounds (%v), want 2", len(rounds), err)
	}
	for _, r := range rounds {
		if r.Started.Before(start) || r.Finished.Before(r.Started) || r.Finished.After(end) {
			t.Errorf("round %d (%s): started %v, finished %v; the test ran from %v to %v", r.ID, r.Kind, r.Started, r.Finished, start, end)
		}
	}
	if rounds[0].Kind != store.LeagueRound || rounds[1].Kind == store.LeagueRound {
		t.Errorf("rounds of kinds %s and %s, want a league round and a round-robin", rounds[0].Kind, rounds[1].Kind)
	}
}

// ttt --version says which commit a development build was made from, as
// go build records it in a git checkout, and whether its files differed.
func TestVersionRevision(t *testing.T) {
	t.Parallel()
	setting := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: setting(
			"vcs.revision", "e069bb5a1b2c3d4e5f60718293a4b5c6d7e8f901", "vcs.time", "2026-11-25T09:45:00Z", "vcs.modified", "false")},
			"devel e069bb5a1b2c 2026-11-25T09:45:00Z"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: setting(
			"vcs.revision", "e069bb5a1b2c3d4e5f60718293a4b5c6d7e8f901", "vcs.modified", "true")},
			"devel e069bb5a1b2c (modified)"},
	} {
		if got := commands.VersionOf(c.info); got != c.want {
			t.Errorf("version of %+v: %q, want %q", c.info, got, c.want)
		}
	}
}

// The smaller points a new user tripped on: the PGN Date tag is the day of the game's round; ratings history
// without --agent lists a page of rows, and says where the rest are.
func TestSmallerPoints(t *testing.T) {
	t.Parallel()
	p := smallLeague(t)
	pgn := p.OK(t, "games", "export", "--pgn", "-", "--rounds", "1")
	finished := csvRows(t, p.OK(t, "rounds", "--format", "csv"))[0]["finished"]
	day, err := time.Parse(time.RFC3339, finished)
	if err != nil {
		t.Fatalf("rounds: finished %q: %v", finished, err)
	}
	want := fmt.Sprintf("[Date %q]\n", day.UTC().Format("2006.01.02"))
	if n, games := strings.Count(pgn, want), strings.Count(pgn, "[Date "); n == 0 || n != games {
		t.Errorf("%d of %d games of round 1 have %q:\n%.400s", n, games, want, pgn)
	}

	all := csvRows(t, p.OK(t, "ratings", "history", "--format", "csv", "--all"))
	page := p.OK(t, "ratings", "history", "--limit", "2")
	if lines := strings.Split(strings.TrimSuffix(page, "\n"), "\n"); len(all) <= 2 || len(lines) != 4 ||
		lines[3] != "(the first 2 stored rows: --limit N, --all, or --agent for one agent's)" {
		t.Errorf("ratings history --limit 2 (of %d rows) said:\n%s", len(all), page)
	}
	if rows := csvRows(t, p.OK(t, "ratings", "history", "--format", "csv", "--limit", "2")); len(rows) != 2 || rows[1]["elo"] != all[1]["elo"] {
		t.Errorf("ratings history --format csv --limit 2: %v", rows)
	}
}

// near reports whether field, a CSV figure written to ten significant
// digits, is x.
func near(field string, x float64) bool {
	v, err := strconv.ParseFloat(field, 64)
	return err == nil && math.Abs(v-x) <= 1e-9*max(1, math.Abs(x))
}
