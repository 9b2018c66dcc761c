package commands_test

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ttt/league"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// TestFileQueries: the SQL of docs/files.md, run as written through
// database/sql (the sqlite3 shell may not be installed), answers as the
// league run printed: the best each of its ladder lines names after its
// round, the Elo its round line gave a snapshot that became the best,
// and the class of each snapshot; and the best of every round is the
// best rule's own replay of the history (league.BestHistory).
func TestFileQueries(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	const rounds = 15
	out := p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", strconv.Itoa(rounds), "--heartbeat", "0")...)
	doc, err := os.ReadFile("../../docs/files.md")
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	for i, block := range strings.Split(string(doc), "```") {
		if sql, ok := strings.CutPrefix(block, "sql\n"); ok && i%2 == 1 {
			queries = append(queries, sql)
		}
	}
	if len(queries) != 3 {
		t.Fatalf("docs/files.md has %d SQL blocks, want the 3 questions", len(queries))
	}
	path := filepath.Join(p.Dir, "league.db")
	conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	query := func(q string) [][]string {
		t.Helper()
		rows, err := conn.QueryContext(t.Context(), q)
		if err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var list [][]string
		for rows.Next() {
			row := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range row {
				ptrs[i] = &row[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			text := make([]string, len(cols))
			for i, v := range row {
				text[i] = fmt.Sprint(v)
			}
			list = append(list, text)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return list
	}
	changes, bests, classes := query(queries[0]), query(queries[1]), query(queries[2])

	// The best rule's replay, round by round.
	db, err := store.OpenRead(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	history := league.NewBestHistory()
	if err := db.View(t.Context(), history.Update); err != nil {
		t.Fatal(err)
	}
	names := map[int64]string{}
	replay := make([]string, rounds+1) // by round
	for i, c := range history.Changes {
		a, err := db.Agent(t.Context(), strconv.FormatInt(c.Agent, 10))
		if err != nil {
			t.Fatal(err)
		}
		names[c.Agent] = a.Name
		until := int64(rounds + 1)
		if i+1 < len(history.Changes) {
			until = history.Changes[i+1].Round
		}
		for r := c.Round; r < until; r++ {
			replay[r] = a.Name
		}
	}

	// The second: a row per round, its best as the rule replays it.
	if len(bests) != rounds {
		t.Fatalf("the best after each round: %d rows, want %d", len(bests), rounds)
	}
	byRound := map[string][]string{}
	for i, row := range bests {
		if row[0] != strconv.Itoa(i+1) || row[1] != replay[i+1] {
			t.Errorf("the best after each round: row %v, want round %d's best %s", row, i+1, replay[i+1])
		}
		byRound[row[0]] = row
	}
	// The first: the rounds where the best changed, as the replay has them.
	if len(changes) != len(history.Changes) {
		t.Errorf("the changes of the best: %v, want %d as the replay %v", changes, len(history.Changes), history.Changes)
	}
	for i, row := range changes {
		if i < len(history.Changes) && (row[0] != strconv.FormatInt(history.Changes[i].Round, 10) || row[2] != names[history.Changes[i].Agent]) {
			t.Errorf("the changes of the best: row %v, want %v", row, history.Changes[i])
		}
	}

	// What the run printed: the best its ladder lines name, and the Elo
	// of each round's snapshot that became the best.
	ladder := regexp.MustCompile(`(?m)^round (\d+)  best (checkpoint-\d+): `)
	printed := ladder.FindAllStringSubmatch(out, -1)
	if len(printed) == 0 {
		t.Fatalf("no ladder line names a best:\n%s", out)
	}
	for _, m := range printed {
		if got := byRound[m[1]]; got == nil || got[1] != m[2] {
			t.Errorf("round %s: the run named %s the best, the query %v", m[1], m[2], got)
		}
	}
	roundLine := regexp.MustCompile(`(?m)^round (\d+)  (checkpoint-\d+)  Elo (-?\d+) .*  (beatable|unbeatable|perfect)  `)
	perClass := map[string]int{}
	firstOf := map[string]string{}
	for _, m := range roundLine.FindAllStringSubmatch(out, -1) {
		perClass[m[4]]++
		if firstOf[m[4]] == "" {
			firstOf[m[4]] = m[1]
		}
		row := byRound[m[1]]
		if row == nil || row[1] != m[2] {
			continue // its snapshot did not become the best
		}
		elo, _ := strconv.ParseFloat(row[2], 64)
		if want, _ := strconv.ParseFloat(m[3], 64); math.Abs(elo-want) > 0.5 {
			t.Errorf("round %s: the run printed %s at Elo %s, the query %v", m[1], m[2], m[3], row)
		}
	}
	// The third: the class of each snapshot, as the round lines said.
	for _, row := range classes {
		if row[1] != strconv.Itoa(perClass[row[0]]) || row[2] != firstOf[row[0]] {
			t.Errorf("the checkpoints of each class: row %v, the round lines %d, first in round %s", row, perClass[row[0]], firstOf[row[0]])
		}
		delete(perClass, row[0])
	}
	if len(perClass) > 0 {
		t.Errorf("the checkpoints of each class: %v, the round lines also %v", classes, perClass)
	}
	if t.Failed() {
		t.Logf("the run said:\n%s", out)
	}
}
