package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/store"
)

// testdata/schema1.db is a league made by the release with schema 1: 15
// rounds of `ttt league run --hidden 8`, a net of ttt train --db and an
// imported one between them. Open upgrades it in place: every agent and
// match kept, the dense history compacted, and the standings, checksums
// and rounds' facts filled in.
func TestUpgradeSchema1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	writeFile(t, path, readFile(t, filepath.Join("testdata", "schema1.db")))

	// What schema 1 holds, read as it is.
	type old struct {
		agents, matches, ratings, rounds int
		last                             map[int64]store.HistoryRow // each agent's newest rating
		records                          map[int64]game.Record
	}
	var before old
	raw := rawDB(t, path)
	count := func(db *sql.DB, q string) int {
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before.agents = count(raw, "SELECT count(*) FROM agents")
	before.matches = count(raw, "SELECT count(*) FROM matches")
	before.ratings = count(raw, "SELECT count(*) FROM ratings")
	before.rounds = count(raw, "SELECT count(*) FROM rounds")
	before.last = map[int64]store.HistoryRow{}
	rows, err := raw.Query("SELECT agent_id, round_id, elo, lo, hi, games FROM ratings ORDER BY round_id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r store.HistoryRow
		if err := rows.Scan(&r.Agent, &r.Round, &r.Elo, &r.Lo, &r.Hi, &r.Games); err != nil {
			t.Fatal(err)
		}
		before.last[r.Agent] = r
	}
	rows.Close()
	before.records = map[int64]game.Record{}
	rows, err = raw.Query("SELECT a, b, wins, draws, losses FROM matches")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a, b int64
		var rec game.Record
		if err := rows.Scan(&a, &b, &rec.Wins, &rec.Draws, &rec.Losses); err != nil {
			t.Fatal(err)
		}
		before.records[a] = before.records[a].Plus(rec)
		before.records[b] = before.records[b].Plus(rec.Reversed())
	}
	rows.Close()
	raw.Close()

	db := mustOpen(t, path)
	fits, _, err := db.Fits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	raw = rawDB(t, path)
	if got, want := pragma[int](t, raw, "user_version"), knownVersion(t); got != want {
		t.Fatalf("schema %d after the upgrade, want %d", got, want)
	}
	if pragma[string](t, raw, "integrity_check") != "ok" || count(raw, "SELECT count(*) FROM pragma_foreign_key_check") != 0 {
		t.Fatal("the upgraded file fails SQLite's checks")
	}
	if got := count(raw, "SELECT count(*) FROM agents"); got != before.agents {
		t.Errorf("%d agents, want %d", got, before.agents)
	}
	if got := count(raw, "SELECT count(*) FROM matches"); got != before.matches {
		t.Errorf("%d matches, want %d", got, before.matches)
	}
	if got := count(raw, "SELECT count(*) FROM rounds"); got != before.rounds {
		t.Errorf("%d rounds, want %d", got, before.rounds)
	}
	history := count(raw, "SELECT count(*) FROM history")
	if history >= before.ratings || history < len(before.last) {
		t.Errorf("%d history rows from %d ratings of %d agents", history, before.ratings, len(before.last))
	}
	t.Logf("history compacted from %d rows to %d", before.ratings, history)

	for id, last := range before.last {
		a, err := db.Agent(ctx, fmtID(id))
		if err != nil {
			t.Fatal(err) // the checksums of the weights hold, too
		}
		// Schema 1 knew one learner, ttt-rl's: its networks are policy
		// nets.
		if want := map[bool]string{true: "policy", false: ""}[a.Kind.Learned()]; a.Method != want {
			t.Errorf("agent %d (%s): method %q, want %q", id, a.Kind, a.Method, want)
		}
		s := a.Standing
		if s == nil {
			t.Fatalf("agent %d has no standing", id)
		}
		if fits[id] != last.Elo || s.Record != before.records[id] {
			t.Errorf("agent %d: fit %v and record %v, want %v and %v", id, fits[id], s.Record, last.Elo, before.records[id])
		}
		// The rating shown is the agent's last history row: within
		// HistoryStep of its newest.
		if math.Abs(s.Elo-last.Elo) > store.HistoryStep || math.Abs(s.Lo-last.Lo) > store.HistoryStep || math.Abs(s.Hi-last.Hi) > store.HistoryStep {
			t.Errorf("agent %d shows %+v, its newest rating was %+v", id, s.HistoryRow, last)
		}
		// And the history read back carries forward to the same.
		h, err := db.History(ctx, id)
		if err != nil || len(h) == 0 || h[len(h)-1].Elo != s.Elo {
			t.Errorf("agent %d: history ends %v, standing %v (%v)", id, h, s.HistoryRow, err)
		}
	}
	rounds, err := db.Rounds(ctx, 1, int64(before.rounds))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rounds {
		if !r.Finished.IsZero() || r.Kind != store.LeagueRound || r.Snapshot == 0 || r.Rating == nil {
			t.Errorf("round %d: %+v", r.ID, r)
		}
		// Each round's matches are found again by the range of their
		// newer agents that the upgrade gave the round.
		want := count(raw, fmt.Sprintf("SELECT count(*) FROM matches WHERE round_id = %d", r.ID))
		if got, err := db.MatchCount(ctx, store.MatchFilter{First: r.ID, Last: r.ID}); got != want || want == 0 || err != nil {
			t.Errorf("round %d: %d matches read, %d stored (%v)", r.ID, got, want, err)
		}
	}
	if _, learner, err := db.LastRound(ctx); err != nil || learner == nil {
		t.Errorf("the learner's state: %d bytes, %v", len(learner), err)
	}
}

func fmtID(id int64) string { return strconv.FormatInt(id, 10) }

// A league of every schema before this ttt's, each made from schema 1's
// league by the migrations up to it, as the ttt of that schema left it,
// is upgraded in place: the schema becomes the one the migrations make of
// a new league, ttt check finds nothing wrong, every agent and match is
// kept, and every agent that has played has its standing and its fit.
func TestUpgradeEverySchema(t *testing.T) {
	ctx := context.Background()
	for version := 1; version < knownVersion(t); version++ {
		t.Run(fmt.Sprintf("Schema%d", version), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "league.db")
			writeFile(t, path, readFile(t, filepath.Join("testdata", "schema1.db")))
			if err := store.MigrateTo(ctx, path, version); err != nil {
				t.Fatal(err)
			}
			raw := rawDB(t, path)
			if got := pragma[int](t, raw, "user_version"); got != version {
				t.Fatalf("schema %d before the upgrade, want %d", got, version)
			}
			var agents, matches int
			if err := raw.QueryRow("SELECT (SELECT count(*) FROM agents), (SELECT count(*) FROM matches)").Scan(&agents, &matches); err != nil {
				t.Fatal(err)
			}
			raw.Close()

			db := mustOpen(t, path)
			if got := pragma[int](t, rawDB(t, path), "user_version"); got != knownVersion(t) {
				t.Fatalf("schema %d after the upgrade, want %d", got, knownVersion(t))
			}
			if _, err := db.Check(ctx, func(line string) { t.Errorf("check: %s", line) }); err != nil {
				t.Fatal(err)
			}
			n, err := db.Count(ctx)
			if err != nil || n != agents {
				t.Errorf("%d agents (%v), want %d", n, err, agents)
			}
			if got, err := db.MatchCount(ctx, store.MatchFilter{}); err != nil || got != matches {
				t.Errorf("%d matches (%v), want %d", got, err, matches)
			}
			fits, _, err := db.Fits(ctx)
			if err != nil {
				t.Fatal(err)
			}
			list, _, err := db.Standings(ctx, 0)
			if err != nil || len(list) != agents {
				t.Fatalf("%d agents rated (%v), want all %d", len(list), err, agents)
			}
			for _, a := range list {
				if _, ok := fits[a.ID]; a.Standing == nil || !ok {
					t.Errorf("agent %d (%s): standing %v, fit %v", a.ID, a.Name, a.Standing, ok)
				}
			}
		})
	}
}

// The upgrade renames every agent whose name this ttt refuses to the
// league's own name for it, kind-id, even where two agents hold each
// other's due names, and reports each; the names it allows stay.
func TestUpgradeRenamesRefusedNames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	writeFile(t, path, readFile(t, filepath.Join("testdata", "schema1.db")))
	raw := rawDB(t, path)
	for _, q := range []string{
		// 15 (a baseline) and 16 (imported) hold each other's names.
		"UPDATE agents SET name = 'imported-16' WHERE id = 15",
		"UPDATE agents SET name = 'baseline-15' WHERE id = 16",
		"UPDATE agents SET name = '42' WHERE id = 17",
		"UPDATE agents SET name = 'my net' WHERE id = 18",
		"UPDATE agents SET name = 'keeper' WHERE id = 19",
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	db := mustOpen(t, path)
	var got []string
	for _, r := range db.Renamed() {
		got = append(got, fmt.Sprintf("%d %s -> %s", r.ID, r.From, r.To))
		if !errors.Is(r.Why, store.ErrBadName) {
			t.Errorf("agent %d: reason %v", r.ID, r.Why)
		}
	}
	want := []string{"15 imported-16 -> baseline-15", "16 baseline-15 -> imported-16", "17 42 -> checkpoint-17", "18 my net -> checkpoint-18"}
	if !slices.Equal(got, want) {
		t.Errorf("renamed %q, want %q", got, want)
	}
	for id, name := range map[int64]string{1: "random", 2: "perfect", 3: "checkpoint-3", 16: "imported-16", 19: "keeper"} {
		if a, err := db.Agent(ctx, fmtID(id)); err != nil || a.Name != name {
			t.Errorf("agent %d: %v (%v), want %s", id, a, err, name)
		}
	}
	db.Close()
	if again := mustOpen(t, path); again.Renamed() != nil {
		t.Errorf("a second open renamed %v", again.Renamed())
	}
}

// schemaFile returns a league of schema version, made from schema 1's
// (testdata/schema1.db) by the migrations up to it, and open with SQLite
// alone to write into it what that schema held.
func schemaFile(t *testing.T, version int) (string, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "league.db")
	writeFile(t, path, readFile(t, filepath.Join("testdata", "schema1.db")))
	if err := store.MigrateTo(context.Background(), path, version); err != nil {
		t.Fatal(err)
	}
	return path, rawDB(t, path)
}

// Schema 6 stores a league's settings under keys of their own: a league
// of schema 5, whose settings are named as the flags are spelt, is
// upgraded with every value kept under its new key.
func TestUpgradeSettingKeys(t *testing.T) {
	ctx := context.Background()
	path, raw := schemaFile(t, 5)
	if _, err := raw.Exec(`INSERT INTO settings (name, value) VALUES ('games-per-round', '500'), ('self-play', '0.2'), ('lr', '0.1')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err := openWrite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"games_per_round": "500", "self_play": "0.2", "lr": "0.1"}; !maps.Equal(got, want) {
		t.Errorf("settings after the upgrade: %v, want %v", got, want)
	}
}

// Schema 7 stores each agent's method. A league of schema 6 had one
// learner, its setting `learner`: its checkpoints are that learner's,
// and a baseline or an imported net is a value net (tdlambda) or a policy
// net by its shape.
func TestUpgradeLearners(t *testing.T) {
	ctx := context.Background()
	// The networks as this ttt stores them, in a league of their own,
	// whose rows then go into a league of schema 6 as it stored them.
	db := mustOpen(t, filepath.Join(t.TempDir(), "nets.db"))
	value := func(seed uint64) *nn.Net {
		return nn.NewValue(tictactoe.Game, 7, rand.New(rand.NewPCG(seed, 0)))
	}
	methods := map[string]string{}
	for i, tc := range []struct {
		kind   store.Kind
		net    *nn.Net
		method string
	}{
		{store.Checkpoint, value(1), "tdlambda"},
		{store.Baseline, testNet(5, 2), "policy"},
		{store.Imported, value(3), "tdlambda"},
		{store.Imported, testNet(7, 4), "policy"},
	} {
		a := network(tc.kind, tc.net, 1)
		a.Name = fmt.Sprintf("net-%d", i)
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
		methods[a.Name] = tc.method
	}
	nets := store.SQLOf(db)
	path, raw := schemaFile(t, 6)
	if _, err := raw.Exec("INSERT INTO settings (name, value) VALUES ('learner', 'tdlambda')"); err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{}
	for name, method := range methods {
		var kind string
		var hidden int
		var weights []byte
		var crc int64
		if err := nets.QueryRow("SELECT kind, hidden, weights, weights_crc FROM agents WHERE name = ?", name).Scan(&kind, &hidden, &weights, &crc); err != nil {
			t.Fatal(err)
		}
		res, err := raw.Exec("INSERT INTO agents (kind, name, hidden, weights, weights_crc, created_at) VALUES (?, ?, ?, ?, ?, '2026-11-27T06:00:00Z')",
			kind, name, hidden, weights, crc)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		want[id] = method
	}
	raw.Close()
	db, err := openWrite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, method := range want {
		if a, err := db.Agent(ctx, strconv.FormatInt(id, 10)); err != nil || a.Method != method {
			t.Errorf("agent %d: method %q (%v), want %q", id, a.Method, err, method)
		}
	}
	settings, err := db.Settings(ctx)
	if err != nil || settings["learners"] != "tdlambda" || settings["learner"] != "" {
		t.Errorf("settings %v (%v), want learners tdlambda", settings, err)
	}
}

// testdata/schema11.db is a league made by the release with schema 11: 4
// rounds of `ttt league run --games-per-round 100`, whose matches against
// the MCTS players kept their games a byte a move. The upgrade writes
// them in their compact form: every game the same, in fewer bytes, and
// check finds nothing; the games of a match that no longer read are
// dropped.
func TestUpgradeLadderGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	writeFile(t, path, readFile(t, filepath.Join("testdata", "schema11.db")))

	// The games as schema 9 stored them: a byte of length, a byte a move.
	raw := rawDB(t, path)
	before := map[[2]int64][][]int{}
	oldBytes := 0
	rows, err := raw.Query("SELECT a, b, moves FROM ladder_games")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var pair [2]int64
		var blob []byte
		if err := rows.Scan(&pair[0], &pair[1], &blob); err != nil {
			t.Fatal(err)
		}
		oldBytes += len(blob)
		for len(blob) > 0 {
			n := int(blob[0])
			moves := make([]int, n)
			for i := range n {
				moves[i] = int(blob[1+i])
			}
			before[pair], blob = append(before[pair], moves), blob[1+n:]
		}
	}
	if err := rows.Err(); err != nil || len(before) < 2 {
		t.Fatalf("%d matches keep their games (%v), want several", len(before), err)
	}
	// One match's games cut short: they cannot be written again, and the
	// upgrade drops them (the match is played again from its seed).
	var cut [2]int64
	if err := raw.QueryRow("SELECT a, b FROM ladder_games LIMIT 1").Scan(&cut[0], &cut[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("UPDATE ladder_games SET moves = substr(moves, 1, length(moves) - 1) WHERE a = ? AND b = ?", cut[0], cut[1]); err != nil {
		t.Fatal(err)
	}
	delete(before, cut)
	raw.Close()

	db, err := openWrite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	after := map[[2]int64][][]int{}
	newBytes := 0
	err = db.Matches(ctx, store.MatchFilter{Moves: true}, func(m store.Match) error {
		if m.Moves == nil {
			return nil
		}
		newBytes += len(m.Moves)
		return store.MatchGames(db.Game(), m, func(moves []int, _ bool, _ game.Result) error {
			after[[2]int64{m.A, m.B}] = append(after[[2]int64{m.A, m.B}], moves)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(before, after, func(a, b [][]int) bool { return slices.EqualFunc(a, b, slices.Equal) }) {
		t.Errorf("the games of %d matches read back as %d matches' games, not the same", len(before), len(after))
	}
	if newBytes*4 > oldBytes {
		t.Errorf("the games take %d bytes after the upgrade, %d before: want at most a quarter", newBytes, oldBytes)
	}
	var found []string
	if _, err := db.Check(ctx, func(s string) { found = append(found, s) }); err != nil || len(found) > 0 {
		t.Errorf("check after the upgrade: %v (%v), want nothing found", found, err)
	}
	if n := pragma[int](t, store.SQLOf(db), "user_version"); n != knownVersion(t) {
		t.Errorf("schema %d after the upgrade, want %d", n, knownVersion(t))
	}
}

// madeBy returns the leagues of testdata/made, by the commit whose ttt
// made each, unpacked into files of a temporary directory: a league of
// two rounds of tic-tac-toe made by the ttt of every commit that added or
// changed a migration (testdata/made/README.md).
func madeBy(t *testing.T) map[string]string {
	t.Helper()
	packed, err := filepath.Glob(filepath.Join("testdata", "made", "*.db.gz"))
	if err != nil || len(packed) == 0 {
		t.Fatalf("no leagues in testdata/made (%v)", err)
	}
	dir := t.TempDir()
	leagues := map[string]string{}
	for _, p := range packed {
		commit := strings.TrimSuffix(filepath.Base(p), ".db.gz")
		r, err := gzip.NewReader(bytes.NewReader(readFile(t, p)))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		data, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		leagues[commit] = filepath.Join(dir, commit+".db")
		writeFile(t, leagues[commit], data)
	}
	return leagues
}

// Every league that a ttt of any commit that added or changed a
// migration made is upgraded in place: its schema becomes the one the
// migrations make of a new league whatever that commit's migration of
// the same number made (a table it lacked, such as 438818e's
// ladder_extra, made; the columns of a migration numbered otherwise then,
// such as 45df3ec's processor time at 12, kept), check finds nothing,
// and every agent, match and round is kept.
func TestUpgradeEveryRelease(t *testing.T) {
	ctx := context.Background()
	for commit, path := range madeBy(t) {
		t.Run(commit, func(t *testing.T) {
			raw := rawDB(t, path)
			counts := func() [3]int {
				var n [3]int
				if err := raw.QueryRow("SELECT (SELECT count(*) FROM agents), (SELECT count(*) FROM matches), (SELECT count(*) FROM rounds)").Scan(&n[0], &n[1], &n[2]); err != nil {
					t.Fatal(err)
				}
				return n
			}
			before, version := counts(), pragma[int](t, raw, "user_version")
			db, err := openWrite(ctx, path)
			if err != nil {
				t.Fatalf("schema %d: %v", version, err)
			}
			defer db.Close()
			if got := pragma[int](t, raw, "user_version"); got != knownVersion(t) {
				t.Errorf("schema %d after the upgrade, want %d", got, knownVersion(t))
			}
			if after := counts(); after != before {
				t.Errorf("agents, matches and rounds: %v after the upgrade, %v before", after, before)
			}
			if _, err := db.Check(ctx, func(line string) { t.Errorf("check: %s", line) }); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A file whose tables are not those of the schema it says it is, in a way
// that no edited migration explains, is refused before any migration
// touches it, naming what is wrong, and left as it was: the migrations
// after its version were written for that schema and no other.
func TestUpgradeRefusesAFileNotItsSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	mustOpen(t, path).Close()
	raw := rawDB(t, path)
	if _, err := raw.Exec("ALTER TABLE rounds DROP COLUMN cores; DROP TABLE runs; PRAGMA user_version = 15"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before := readFile(t, path)
	_, err := openWrite(ctx, path)
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "it says it is schema 15, but the table rounds lacks cores REAL") {
		t.Errorf("a schema 15 without rounds.cores: %v", err)
	}
	if !bytes.Equal(readFile(t, path), before) {
		t.Error("the refused file changed")
	}
}
