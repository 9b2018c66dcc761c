package commands_test

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// A league made by the last release of every schema, 1 to the newest
// (testdata/schemas, whose README says how each was made), upgrades,
// checks healthy and plays on. schema02-deeff81.db was made by the
// release that shipped schema 2 before its migration was edited: it has
// no range of matches in its rounds, which the upgrade computes again.
func TestEverySchemaUpgrades(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "schemas", "*.db"))
	if err != nil || len(files) < 12 {
		t.Fatalf("testdata/schemas: %d leagues (%v), want one of each schema and deeff81's", len(files), err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".db"), func(t *testing.T) {
			t.Parallel()
			p := clitest.New(t)
			p.Write(t, "league.db", readTestdata(t, file))
			if out := p.OK(t, "upgrade"); !strings.Contains(out, "league.db is up to date") {
				t.Errorf("upgrade said %q", out)
			}
			if out := p.OK(t, "check"); strings.Contains(out, "damage") {
				t.Errorf("check of the upgraded league:\n%s", out)
			}
			roundRanges(t, filepath.Join(p.Dir, "league.db"))
			neverGrows(t, filepath.Join(p.Dir, "league.db"))
			if out := p.OK(t, "league", "run", "--db", "league.db", "--rounds", "1"); !strings.Contains(out, "\nround 4 ") {
				t.Errorf("the league after the upgrade said:\n%s", out)
			}
			p.OK(t, "check")
			roundRanges(t, filepath.Join(p.Dir, "league.db"))
		})
	}
}

// roundRanges checks that every round of the league at path keeps the
// range of its matches' newer agents, as the league writes it.
func roundRanges(t *testing.T, path string) {
	t.Helper()
	db := clitest.SQL(t, path)
	defer db.Close()
	var rounds, wrong int
	err := db.QueryRow(`SELECT count(*), coalesce(sum(r.a_first IS NOT m.lo OR r.a_last IS NOT m.hi), 0)
		FROM rounds r LEFT JOIN (SELECT round_id, min(a) AS lo, max(a) AS hi FROM matches GROUP BY round_id) m ON m.round_id = r.id`).Scan(&rounds, &wrong)
	if err != nil {
		t.Fatal(err)
	}
	if rounds == 0 || wrong > 0 {
		t.Errorf("%d of %d rounds keep a range other than their matches'", wrong, rounds)
	}
}

// neverGrows checks that the n-tuple network of a league made before
// networks grew, if it has one, never grows: the upgrade stored grow_at
// 0, where the default would grow it.
func neverGrows(t *testing.T, path string) {
	t.Helper()
	db := clitest.SQL(t, path)
	defer db.Close()
	var ntuple bool
	var growAt sql.NullString
	if err := db.QueryRow(`SELECT EXISTS (SELECT 1 FROM settings WHERE name = 'tuple_length'), (SELECT value FROM settings WHERE name = 'grow_at')`).Scan(&ntuple, &growAt); err != nil {
		t.Fatal(err)
	}
	if ntuple != (growAt.Valid && growAt.String == "0") || !ntuple && growAt.Valid {
		t.Errorf("an n-tuple league: %v; its grow_at after the upgrade: %v, want 0 for an n-tuple league, none for another", ntuple, growAt)
	}
}

// A file whose schema lacks what its version promises (a column dropped
// by hand, as an edited migration once left leagues): the command that
// meets it says in one line that the file is damaged and where to look,
// not SQLite's "SQL logic error: no such column".
func TestMissingColumnInTTTsWords(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "2")...)
	db := clitest.SQL(t, filepath.Join(p.Dir, "league.db"))
	if _, err := db.Exec("ALTER TABLE rounds DROP COLUMN a_last"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, args := range [][]string{clitest.LeagueRun(clitest.Quick, "--rounds", "1"), {"games", "export", "--rounds", "1-2", "--pgn", "-"}} {
		_, errOut, code := p.Run(t, args...)
		if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "the database file is damaged: its tables are not those the migrations make") ||
			!strings.HasSuffix(errOut, "(ttt check says what is damaged)\n") {
			t.Errorf("ttt %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
		}
	}
}
