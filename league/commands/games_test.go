package commands_test

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/league/commands/clitest"
)

// TestGamesExport exports a real league's games as PGN, reads them with a
// parser of its own, and rates them with a maximum-likelihood fit of its
// own (Hunter's MM iteration, not Newton as in league/elo), the built-in
// players anchored at their values on the game's scale: every game is in
// the file, and the ratings agree with ttt's within 5 Elo, as they must
// with Ordo's or BayesElo's given the same anchors (Ordo's -m).
func TestGamesExport(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	// Beside the league's own snapshots, a baseline and an import whose
	// name needs escaping in PGN; both join the matches of the first round.
	p.OK(t, "train", "--games", "2000", "--hidden", "20", "--db", "league.db")
	p.OK(t, "export", "--checkpoint", "latest", "-o", "b.bin")
	const odd = `q"uote\back`
	// --inputs says which network the headerless file holds.
	p.OK(t, "import", "--name", odd, "--inputs", "19", "b.bin")
	p.OK(t, "league", "run", "--rounds", "3", "--games-per-round", "2000", "--hidden", "20")

	out := p.OK(t, "games", "export", "--pgn", "league.pgn")
	games := readPGN(t, filepath.Join(p.Dir, "league.pgn"))
	if want := fmt.Sprintf("%d games of ", len(games)); !strings.HasPrefix(out, want) {
		t.Errorf("games export said %q, want %q...", out, want)
	}
	if stdout := p.OK(t, "games", "export", "--pgn", "-"); stdout != string(p.File(t, "league.pgn")) {
		t.Error("--pgn - wrote other games than --pgn FILE")
	}

	// Every agent's games and record, from the PGN and from ttt.
	type record struct{ wins, draws, losses int }
	records := map[string]*record{}
	for _, g := range games {
		for _, name := range []string{g.white, g.black} {
			if records[name] == nil {
				records[name] = &record{}
			}
		}
		w, b := records[g.white], records[g.black]
		switch g.score {
		case 1:
			w.wins++
			b.losses++
		case 0:
			w.losses++
			b.wins++
		default:
			w.draws++
			b.draws++
		}
	}
	scale := map[string]float64{}
	for _, b := range agents.TicTacToe.Builtins {
		scale[b.Name] = b.Elo
	}
	elo := fitMM(t, games, scale)
	rows := csvRows(t, p.OK(t, "ratings", "--format", "csv"))
	if len(rows) != len(records) || records[odd] == nil {
		t.Fatalf("ttt rates %d agents, the PGN has %d: %v", len(rows), len(records), records)
	}
	for _, row := range rows {
		name := row["agent"]
		r := records[name]
		if r == nil {
			t.Errorf("%s: no games in the PGN", name)
			continue
		}
		if got, want := fmt.Sprintf("%d %d/%d/%d", r.wins+r.draws+r.losses, r.wins, r.draws, r.losses),
			row["games"]+" "+row["wins"]+"/"+row["draws"]+"/"+row["losses"]; got != want {
			t.Errorf("%s: PGN has %s games/W/D/L, ttt %s", name, got, want)
		}
		if r.wins+r.draws == 0 || r.draws+r.losses == 0 {
			continue // all wins or all losses: the weak prior decides (league/elo)
		}
		mm, ok := elo[name]
		if !ok {
			t.Logf("%s: left out of the MM fit, its only other results being against agents with all wins or losses", name)
			continue
		}
		ttt, err := strconv.ParseFloat(row["elo"], 64)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(ttt - mm); d > 5 {
			t.Errorf("%s: ttt %.1f Elo, MM fit of the PGN %.1f", name, ttt, mm)
		}
	}

	// The anchor: random at 0 in every round, from its first.
	history := csvRows(t, p.OK(t, "ratings", "history", "--agent", "random", "--format", "csv"))
	for _, row := range history {
		if row["elo"] != "0.0" || row["lo"] != "0.0" || row["hi"] != "0.0" {
			t.Errorf("round %s: random %s [%s, %s], want 0", row["round"], row["elo"], row["lo"], row["hi"])
		}
	}
	if len(history) != 3 || history[0]["stored"] != "true" || history[1]["stored"] != "false" {
		t.Errorf("random's history: %v, want one row per round (3), stored in the first only", history)
	}

	// Refusals leave no file behind.
	p.Refused(t, "cannot write", "games", "export", "--pgn", filepath.Join("no", "such", "dir", "g.pgn"))
	p.Refused(t, "no league database at none.db", "games", "export", "--db", "none.db", "--pgn", "none.pgn")
	p.Refused(t, "cannot write league.db: it is the league database itself", "games", "export", "--pgn", "league.db")
	p.Usage(t, "--pgn FILE", "games", "export")
	if _, err := os.Stat(filepath.Join(p.Dir, "none.pgn")); err == nil {
		t.Error("a refused export left none.pgn")
	}
}

// pgnGame is what the test reads of a PGN game: the players and White's
// score.
type pgnGame struct {
	white, black string
	score        float64
}

// readPGN parses a PGN file as the standard describes it: tag pairs, one
// per line, whose values escape `"` and `\` with a backslash; then the
// movetext, which must end with the Result tag's token. It checks the
// seven-tag roster and ttt's Moves tag.
func readPGN(t *testing.T, path string) []pgnGame {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var games []pgnGame
	tags := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			name, quoted, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"), " ")
			value, err := strconv.Unquote(quoted) // Go's escapes include PGN's two
			if !ok || err != nil || !strings.HasSuffix(line, `"]`) {
				t.Fatalf("line %d: bad tag %q", n, line)
			}
			tags[name] = value
		default:
			for _, tag := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "Moves"} {
				if _, ok := tags[tag]; !ok {
					t.Fatalf("line %d: a game without a %s tag", n, tag)
				}
			}
			fields := strings.Fields(line)
			if fields[len(fields)-1] != tags["Result"] {
				t.Fatalf("line %d: movetext %q does not end with the result %q", n, line, tags["Result"])
			}
			score, ok := map[string]float64{"1-0": 1, "1/2-1/2": 0.5, "0-1": 0}[tags["Result"]]
			if !ok {
				t.Fatalf("line %d: result %q", n, tags["Result"])
			}
			games = append(games, pgnGame{white: tags["White"], black: tags["Black"], score: score})
			clear(tags)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(tags) > 0 {
		t.Fatal("the file ends inside a game")
	}
	return games
}

// fitMM returns the maximum-likelihood Elo of the players (logistic,
// base 10, 400 scale, a draw half a win and half a loss) with the anchors
// at their values, by Hunter's MM iteration for the Bradley-Terry model:
// each player's strength γ but the anchors' becomes its score over
// Σ n/(γ + γ') over its opponents.
//
// A player with all wins (or all losses) has no finite rating: the
// likelihood keeps growing as it moves away, and in the limit its games
// say nothing about the others. So such players are left out, again and
// again until none is left, and the rest are fitted without them; the
// players left out have no rating in the map.
func fitMM(t *testing.T, games []pgnGame, anchors map[string]float64) map[string]float64 {
	t.Helper()
	type pair struct{ a, b string }
	out := map[string]bool{}
	var n map[pair]float64 // games per pair, both ways, among the players fitted
	var score map[string]float64
	for {
		n, score = map[pair]float64{}, map[string]float64{}
		played := map[string]float64{}
		for _, g := range games {
			if out[g.white] || out[g.black] {
				continue
			}
			n[pair{g.white, g.black}]++
			n[pair{g.black, g.white}]++
			score[g.white] += g.score
			score[g.black] += 1 - g.score
			played[g.white]++
			played[g.black]++
		}
		dropped := false
		for name, s := range score {
			if s == 0 || s == played[name] {
				out[name], dropped = true, true
			}
		}
		if !dropped {
			break
		}
	}
	strength := map[string]float64{}
	fixed := 0
	for name := range score {
		strength[name] = 1
		if v, ok := anchors[name]; ok {
			strength[name] = math.Pow(10, v/400)
			fixed++
		}
	}
	if fixed == 0 {
		t.Fatal("MM fit: every anchor has all wins or all losses")
	}
	for it := 0; ; it++ {
		next := map[string]float64{}
		for name := range strength {
			if _, ok := anchors[name]; ok {
				next[name] = strength[name]
				continue
			}
			sum := 0.0
			for p, k := range n {
				if p.a == name {
					sum += k / (strength[name] + strength[p.b])
				}
			}
			next[name] = score[name] / sum
		}
		moved := 0.0
		for name := range next {
			moved = max(moved, math.Abs(400*math.Log10(next[name]/strength[name])))
		}
		strength = next
		if moved < 1e-6 {
			break
		}
		if it == 100000 {
			t.Fatalf("MM fit: no convergence (last move %g Elo)", moved)
		}
	}
	elo := map[string]float64{}
	for name, g := range strength {
		elo[name] = 400 * math.Log10(g)
	}
	return elo
}

// csvRows parses ttt's CSV output into rows keyed by column.
func csvRows(t *testing.T, text string) []map[string]string {
	t.Helper()
	all, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(all) == 0 {
		t.Fatalf("csv %q: %v", text, err)
	}
	var rows []map[string]string
	for _, rec := range all[1:] {
		row := map[string]string{}
		for i, col := range all[0] {
			row[col] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}
