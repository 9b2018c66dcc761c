package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"ttt/agents/game"
	"ttt/migrations"
)

// upgrades are the Go steps of migrations, by schema version: what a
// migration's SQL cannot compute. Each runs right after its SQL, in the
// same transaction.
var upgrades = map[int]func(context.Context, *sql.Tx) error{
	2:  upgrade2,
	13: upgrade13,
	14: upgrade14,
	17: upgrade17,
}

// repairs are what a league stamped with a schema version may lack of it,
// or hold beyond it, because a migration was edited after a ttt had made
// files with it (git log --follow migrations/ shows which), each for the
// versions such a file may say it is: an older ttt upgraded it as it was.
// Each looks for its own case, and leaves any other file as it is.
// repairClaimed runs them, by the version the file says it is, before
// the migrations that follow it.
var repairs = []struct {
	first, last int
	repair      func(context.Context, *sql.Tx) error
}{
	{1, 1, learnerOfSchema1},
	{2, 11, upgrade12},
	{12, 13, roundCPUOfSchema12},
}

// repairClaimed checks that the league in tx is schema len(files), as it
// says, by its tables, columns and indexes rather than its version
// number, and repairs what an edited migration left out before the next
// migration is applied to it: a table or an index that the migration
// makes now is made as it makes it now (a league made while 0013 made
// no ladder_extra gets it, empty, as the league had no extra games then),
// and the repairs of its version move what its columns hold. A file that
// still lacks anything of what it says is refused, unchanged: the
// migrations after it were written for that schema. What it holds beyond
// it (a column of its own, columns in another order) may be what a later
// migration's rebuild of the table leaves behind; the exact check after
// the migrations (migrate) refuses it if it stays.
func repairClaimed(ctx context.Context, tx *sql.Tx, files []string) error {
	version := len(files)
	want, made, err := shapeAt(ctx, files)
	if err != nil {
		return fmt.Errorf("schema %d: %w", version, err)
	}
	got, err := shapes(ctx, tx)
	if err != nil {
		return err
	}
	// The tables first: an index needs its table.
	for _, kind := range []string{"table", "index"} {
		for _, name := range slices.Sorted(maps.Keys(want)) {
			if want[name].kind == kind && got[name].kind == "" {
				if _, err := tx.ExecContext(ctx, made[name]); err != nil {
					return fmt.Errorf("schema %d: making its %s %s: %w", version, kind, name, err)
				}
			}
		}
	}
	for _, r := range repairs {
		if r.first <= version && version <= r.last {
			if err := r.repair(ctx, tx); err != nil {
				return fmt.Errorf("schema %d: %w", version, err)
			}
		}
	}
	if got, err = shapes(ctx, tx); err != nil {
		return err
	}
	if diff := shapeDifferences(want, got, false); len(diff) > 0 {
		return fmt.Errorf("%w: it says it is schema %d, but %s; the file is left as it was", ErrCorrupt, version, strings.Join(diff, "; "))
	}
	return nil
}

// learnerOfSchema1 repairs a league of the first releases of schema 1,
// which kept the learner's state in a column of rounds, the last round's
// alone, where schema 1 as it shipped keeps it in a table of its own
// (learner, which repairClaimed has made): the state moves there, and the
// column goes.
func learnerOfSchema1(ctx context.Context, tx *sql.Tx) error {
	var has int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('rounds') WHERE name = 'learner'").Scan(&has); err != nil || has == 0 {
		return err
	}
	for _, statement := range []string{
		"INSERT INTO learner (round_id, state) SELECT id, learner FROM rounds WHERE learner IS NOT NULL ORDER BY id DESC LIMIT 1",
		"ALTER TABLE rounds DROP COLUMN learner",
	} {
		if _, err := tx.ExecContext(ctx, statement); err != nil {
			return fmt.Errorf("the learner's state of schema 1: %w", err)
		}
	}
	return nil
}

// roundCPUOfSchema12 repairs a league of the ttt that numbered the
// migration of the rounds' processor time 12 before it became 14: its
// rounds hold, at schema 12, the two columns that migration 14 adds,
// which it would add again and fail. Their figures are set aside in a
// table of the transaction's connection alone, the columns dropped, and
// upgrade14 gives them back.
func roundCPUOfSchema12(ctx context.Context, tx *sql.Tx) error {
	var has int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('rounds') WHERE name IN ('cpu_seconds', 'cores')").Scan(&has); err != nil || has != 2 {
		return err
	}
	for _, statement := range []string{
		"CREATE TEMP TABLE round_cpu_12 AS SELECT id, cpu_seconds, cores FROM rounds",
		"ALTER TABLE rounds DROP COLUMN cpu_seconds",
		"ALTER TABLE rounds DROP COLUMN cores",
	} {
		if _, err := tx.ExecContext(ctx, statement); err != nil {
			return fmt.Errorf("the rounds' processor time of schema 12: %w", err)
		}
	}
	return nil
}

// upgrade14 completes migration 0014: the rounds' processor time that
// roundCPUOfSchema12 set aside, where it did, goes back into its columns.
func upgrade14(ctx context.Context, tx *sql.Tx) error {
	var aside int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_temp_schema WHERE name = 'round_cpu_12'").Scan(&aside); err != nil || aside == 0 {
		return err
	}
	for _, statement := range []string{
		`UPDATE rounds SET (cpu_seconds, cores) = (SELECT c.cpu_seconds, c.cores FROM round_cpu_12 c WHERE c.id = rounds.id)
			WHERE id IN (SELECT id FROM round_cpu_12)`,
		"DROP TABLE temp.round_cpu_12",
	} {
		if _, err := tx.ExecContext(ctx, statement); err != nil {
			return err
		}
	}
	return nil
}

// upgrade12 was migration 0012's Go step, and is now a repair of the
// schemas before it (repairs), run before the next migration: a league
// whose rounds lack a_first and a_last (made by the release that shipped
// 0002 before it was edited, and upgraded as it was by the ttt of any
// schema up to 11) has the table rebuilt by the statement
// of 0002 that makes it, so that its schema is the migrations' to the
// letter, and the two columns computed from the matches: a round's
// matches are those stored with its id, and the range is their smallest
// and largest a, as the league writes it. Any other league is left as it
// is, without a pass over its matches.
func upgrade12(ctx context.Context, tx *sql.Tx) error {
	var has int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('rounds') WHERE name IN ('a_first', 'a_last')").Scan(&has); err != nil {
		return err
	}
	if has == 2 {
		return nil
	}
	script, err := fs.ReadFile(migrations.FS, "0002_night_scale.sql")
	if err != nil {
		return err
	}
	// 0002 makes the table as rounds_2, and renames it.
	at := bytes.Index(script, []byte("CREATE TABLE rounds_2 ("))
	if at < 0 {
		return fmt.Errorf("migration 0002 makes no table rounds_2")
	}
	create, _, _ := strings.Cut(string(script[at:]), "\n);") // its comments hold semicolons
	create += "\n)"
	const columns = "id, kind, started_at, finished_at, snapshot_id, elo, lo, hi, train_games, train_seconds, eval_games, eval_seconds, fit_steps, fit_pending"
	for _, statement := range []string{
		create,
		`INSERT INTO rounds_2 (` + columns + `, a_first, a_last)
			SELECT ` + columns + `, m.a_first, m.a_last FROM rounds
			LEFT JOIN (SELECT round_id, min(a) AS a_first, max(a) AS a_last FROM matches GROUP BY round_id) m ON m.round_id = rounds.id`,
		"DROP TABLE rounds",
		"ALTER TABLE rounds_2 RENAME TO rounds",
	} {
		if _, err := tx.ExecContext(ctx, statement); err != nil {
			return err
		}
	}
	return nil
}

// upgrade2 completes migration 0002: checksums of the stored networks and
// of the learner's state, the dense rating history of schema 1 compacted
// into the sparse one, and the standings.
func upgrade2(ctx context.Context, tx *sql.Tx) error {
	// STEP 1: checksums.
	if err := checksum(ctx, tx, "SELECT id, weights FROM agents WHERE weights IS NOT NULL",
		"UPDATE agents SET weights_crc = ? WHERE id = ?"); err != nil {
		return err
	}
	if err := checksum(ctx, tx, "SELECT round_id, state FROM learner",
		"UPDATE learner SET state_crc = ? WHERE round_id = ?"); err != nil {
		return err
	}

	// STEP 2: the history, keeping an agent's first row and every row
	// that moved by more than HistoryStep from the last one kept, as the
	// league writes it now; then the standings, the agent's last kept
	// row.
	rows, err := tx.QueryContext(ctx, "SELECT agent_id, round_id, elo, lo, hi, games FROM ratings ORDER BY agent_id, round_id")
	if err != nil {
		return err
	}
	var kept []HistoryRow
	fits := map[int64]float64{}
	for rows.Next() {
		var r HistoryRow
		if err := rows.Scan(&r.Agent, &r.Round, &r.Elo, &r.Lo, &r.Hi, &r.Games); err != nil {
			rows.Close()
			return err
		}
		fits[r.Agent] = r.Elo
		if n := len(kept); n == 0 || kept[n-1].Agent != r.Agent || r.MovedFrom(kept[n-1]) {
			kept = append(kept, r)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i, r := range kept {
		if _, err := tx.ExecContext(ctx, "INSERT INTO history (agent_id, round_id, elo, lo, hi, games) VALUES (?, ?, ?, ?, ?, ?)",
			r.Agent, r.Round, r.Elo, r.Lo, r.Hi, r.Games); err != nil {
			return err
		}
		if i+1 < len(kept) && kept[i+1].Agent == r.Agent {
			continue // not its last row
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO standings (agent_id, round_id, elo, lo, hi, wins, draws, losses, class)
			SELECT ?, ?, ?, ?, ?, 0, 0, 0, CASE WHEN kind IN ('random', 'perfect') THEN NULL ELSE class END
			FROM agents WHERE id = ?`, r.Agent, r.Round, r.Elo, r.Lo, r.Hi, r.Agent); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE standings SET (wins, draws, losses) = (
		SELECT coalesce(sum(w), 0), coalesce(sum(d), 0), coalesce(sum(l), 0) FROM (
			SELECT wins AS w, draws AS d, losses AS l FROM matches WHERE a = standings.agent_id
			UNION ALL
			SELECT losses, draws, wins FROM matches WHERE b = standings.agent_id))`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DROP TABLE ratings"); err != nil {
		return err
	}

	// STEP 3: the fit's ratings: schema 1 refitted every round, so each
	// agent's newest rating is an exact maximum, the one a league now goes
	// on from.
	var last sql.Null[int64]
	if err := tx.QueryRowContext(ctx, "SELECT max(id) FROM rounds").Scan(&last); err != nil {
		return err
	}
	if !last.Valid {
		return nil
	}
	full := &Fits{Full: true}
	for _, id := range slices.Sorted(maps.Keys(fits)) {
		full.Agents, full.Elo = append(full.Agents, id), append(full.Elo, fits[id])
	}
	return insertFits(ctx, tx, last.V, full)
}

// checksum sets the CRC-32C of a blob in every row that query returns as
// (id, blob), with update (crc, id).
func checksum(ctx context.Context, tx *sql.Tx, query, update string) error {
	type sum struct{ id, crc int64 }
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	var sums []sum
	for rows.Next() {
		var s sum
		var blob []byte
		if err := rows.Scan(&s.id, &blob); err != nil {
			rows.Close()
			return err
		}
		s.crc = int64(crc32.Checksum(blob, crc))
		sums = append(sums, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range sums {
		if _, err := tx.ExecContext(ctx, update, s.crc, s.id); err != nil {
			return err
		}
	}
	return nil
}

// Renamed is an agent that an upgrade renamed: a league of an older ttt
// may hold names that this one refuses.
type Renamed struct {
	ID       int64
	From, To string
	Why      error // what CheckName says of From
}

// Renamed returns the agents that the upgrade Open made renamed, none
// when it made no upgrade.
func (db *DB) Renamed() []Renamed { return db.renamed }

// UpgradedFrom returns the schema version that Open upgraded the league
// from, 0 when it made no upgrade (a league already up to date, or a new
// one).
func (db *DB) UpgradedFrom() int { return db.upgradedFrom }

// renameRefused gives every agent whose name CheckName refuses the name
// the league would have given it, kind-id. Schema 1 let ttt import take
// any name, checkpoint-7 included, and an agent holding the name of a
// checkpoint still to come would stop the league at that round for good.
// kind-id is free: CheckName keeps that form for the league, which gives
// it to the agent of that id alone. The renames go through names no agent
// can have (a space first), so that none meets a name another frees.
// The built-in players and the searched agents are named by ttt, not by
// a user, and keep their names.
func renameRefused(ctx context.Context, tx *sql.Tx) ([]Renamed, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, kind, name FROM agents WHERE kind IN ('checkpoint', 'baseline', 'imported') ORDER BY id")
	if err != nil {
		return nil, err
	}
	var list []Renamed
	for rows.Next() {
		var r Renamed
		var kind Kind
		if err := rows.Scan(&r.ID, &kind, &r.From); err != nil {
			rows.Close()
			return nil, err
		}
		r.To = fmt.Sprintf("%s-%d", kind, r.ID)
		if r.From != r.To {
			if r.Why = CheckName(r.From); r.Why != nil {
				list = append(list, r)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, prefix := range []string{" ", ""} {
		for _, r := range list {
			if _, err := tx.ExecContext(ctx, "UPDATE agents SET name = ? WHERE id = ?", prefix+r.To, r.ID); err != nil {
				return nil, err
			}
		}
	}
	return list, nil
}

// upgrade13 completes migration 0013: each match's games of schema 9, a
// byte of length and a byte a move, written again as EncodeGames writes
// them. The new form is read back before it is kept: a row whose games
// do not read back the same (damaged) is dropped, and its match is played
// again from its seed when its games are asked for, as the matches of a
// league before schema 9 are.
func upgrade13(ctx context.Context, tx *sql.Tx) error {
	var name string
	if err := tx.QueryRowContext(ctx, "SELECT game FROM league").Scan(&name); err != nil {
		return fmt.Errorf("the league's game: %w", err)
	}
	g, err := game.Named(name)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT m.a, m.b, m.plies, m.wins, m.draws, m.losses, l.moves
		FROM ladder_games_9 l JOIN matches m ON m.a = l.a AND m.b = l.b`)
	if err != nil {
		return err
	}
	var kept []Match
	var m Match
	dest := []any{&m.A, &m.B, &m.Plies, &m.Wins, &m.Draws, &m.Losses, &m.Moves}
	err = scanEach(ctx, rows, dest, func() error {
		old, ok := schema9Games(m.Moves)
		for _, moves := range old {
			if _, err := game.Replay(g, moves); err != nil {
				ok = false
			}
		}
		if !ok {
			return nil
		}
		m.Moves = EncodeGames(g, m.Plies, old)
		var again [][]int
		err := MatchGames(g, m, func(moves []int, _ bool, _ game.Result) error {
			again = append(again, moves)
			return nil
		})
		if err == nil && slices.EqualFunc(old, again, slices.Equal) {
			kept = append(kept, m)
		}
		return nil
	})
	rows.Close()
	if err != nil {
		return err
	}
	for _, m := range kept {
		if _, err := tx.ExecContext(ctx, "INSERT INTO ladder_games (a, b, games, games_crc) VALUES (?, ?, ?, ?)",
			m.A, m.B, m.Moves, int64(crc32.Checksum(m.Moves, crc))); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, "DROP TABLE ladder_games_9")
	return err
}

// schema9Games splits a match's games as schema 9 stored them: each a byte
// of its number of moves, then a byte a move. ok is false where the bytes
// end within a game.
func schema9Games(stored []byte) (games [][]int, ok bool) {
	for rest := stored; len(rest) > 0; {
		n := int(rest[0])
		if len(rest) < 1+n {
			return nil, false
		}
		moves := make([]int, n)
		for k, b := range rest[1 : 1+n] {
			moves[k] = int(b)
		}
		games, rest = append(games, moves), rest[1+n:]
	}
	return games, true
}
