package commands_test

import (
	"bytes"
	"compress/gzip"
	"database/sql"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"ttt/league/commands/clitest"
)

// A league made by the last release of every schema, 1 to the newest
// (testdata/schemas, whose README says how each was made), and one made
// by the ttt of every commit that added or changed a migration
// (store/testdata/made: the migrations edited after they shipped left
// files stamped with a version whose tables they lack, or hold beyond),
// upgrades, checks healthy and plays on. schema02-deeff81.db was made by
// the release that shipped schema 2 before its migration was edited: it
// has no range of matches in its rounds, which the upgrade computes again.
func TestEverySchemaUpgrades(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "schemas", "*.db"))
	if err != nil || len(files) < 12 {
		t.Fatalf("testdata/schemas: %d leagues (%v), want one of each schema and deeff81's", len(files), err)
	}
	made, err := filepath.Glob(filepath.Join("..", "..", "store", "testdata", "made", "*.db.gz"))
	if err != nil || len(made) < 12 {
		t.Fatalf("store/testdata/made: %d leagues (%v)", len(made), err)
	}
	for _, file := range append(files, made...) {
		t.Run(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), func(t *testing.T) {
			t.Parallel()
			p := clitest.New(t)
			data := readTestdata(t, file)
			if strings.HasSuffix(file, ".gz") {
				data = gunzip(t, data)
			}
			p.Write(t, "league.db", data)
			path := filepath.Join(p.Dir, "league.db")
			var rounds int
			db := clitest.SQL(t, path)
			if err := db.QueryRow("SELECT count(*) FROM rounds").Scan(&rounds); err != nil {
				t.Fatal(err)
			}
			db.Close()
			if out := p.OK(t, "upgrade"); !strings.Contains(out, "league.db upgraded from schema ") {
				t.Errorf("upgrade said %q", out)
			}
			if out := p.OK(t, "check"); strings.Contains(out, "damage") {
				t.Errorf("check of the upgraded league:\n%s", out)
			}
			roundRanges(t, path)
			neverGrows(t, path)
			// No extra ladder games: the Connect Four league's would be
			// most of the test's CPU, and the point is that it plays on.
			if out := p.OK(t, "league", "run", "--db", "league.db", "--rounds", "1", "--ladder-interval", "200"); !strings.Contains(out, fmt.Sprintf("\nround %d ", rounds+1)) {
				t.Errorf("the league after the upgrade said:\n%s", out)
			}
			p.OK(t, "check")
			roundRanges(t, path)
		})
	}
}

// gunzip returns what data, gzip's, holds.
func gunzip(t *testing.T, data []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
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
