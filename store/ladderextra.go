package store

import (
	"context"
	"database/sql"
	"fmt"
	"hash/crc32"

	"ttt/agents/game"
)

// AddLadderMatches stores extra matches of network agent against
// built-in players (the table ladder_extra): each m's A the network, B
// the built-in player, its games as EncodeGames writes them; Round is the
// round after which they were played, 0 for none. They count in the
// ladder rating alone (LadderResults), not in the league's fit. Each
// takes the next number of its pair. In the same transaction, agent owes
// no more games (ladder_owed): with no matches, that alone is written.
func (db *DB) AddLadderMatches(ctx context.Context, agent int64, ms []Match) error {
	return db.leagueWrite(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM ladder_owed WHERE agent_id = ?", agent); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO ladder_extra (a, b, n, round_id, plies, seed, wins, draws, losses, games, games_crc)
			VALUES (?1, ?2, (SELECT coalesce(max(n), 0) + 1 FROM ladder_extra WHERE a = ?1 AND b = ?2), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, m := range ms {
			if m.A != agent {
				return fmt.Errorf("extra match %d v %d: not a match of agent %d", m.A, m.B, agent)
			}
			round := sql.Null[int64]{V: m.Round, Valid: m.Round > 0}
			if _, err := stmt.ExecContext(ctx, m.A, m.B, round, m.Plies, int64(m.Seed), m.Wins, m.Draws, m.Losses,
				m.Moves, int64(crc32.Checksum(m.Moves, crc))); err != nil {
				return fmt.Errorf("extra match %d v %d: %w", m.A, m.B, err)
			}
		}
		return nil
	})
}

// LadderMatches hands the extra matches against the ladder that f
// chooses (its agent, either side, and its rounds) to each, with their
// games, checked against their checksums, in the order of their pairs.
func (db *DB) LadderMatches(ctx context.Context, f MatchFilter, each func(Match) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		where, args := "WHERE 1", []any{}
		if f.Agent != 0 {
			where, args = where+" AND (a = ? OR b = ?)", append(args, f.Agent, f.Agent)
		}
		if f.First != 0 {
			where, args = where+" AND round_id >= ?", append(args, f.First)
		}
		if f.Last != 0 {
			where, args = where+" AND round_id <= ?", append(args, f.Last)
		}
		rows, err := tx.QueryContext(ctx, `SELECT coalesce(round_id, 0), a, b, plies, seed, wins, draws, losses, games, games_crc
			FROM ladder_extra `+where+" ORDER BY a, b, n", args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		return scanMatches(ctx, rows, true, each)
	})
}

// LadderResult is an agent's record against one built-in player over
// all their games: the league's match and the extra ones.
type LadderResult struct {
	Agent   int64
	Builtin string // the built-in player's name
	game.Record
	Extra int // the extra matches among them
}

// LadderResults returns the records of each of the agents ids against
// the built-in players, by the agent's id: each agent's match with a
// built-in player and its extra matches read by key.
func (v *View) LadderResults(ids []int64) (map[int64][]LadderResult, error) {
	stmt, err := v.tx.PrepareContext(v.ctx, `SELECT p.name, sum(r.wins), sum(r.draws), sum(r.losses), sum(r.extra) FROM (
			SELECT b, wins, draws, losses, 0 AS extra FROM matches WHERE a = ?1 AND b IN `+builtinIDs+`
			UNION ALL
			SELECT b, wins, draws, losses, 1 FROM ladder_extra WHERE a = ?1) r
		JOIN agents p ON p.id = r.b GROUP BY r.b ORDER BY r.b`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	out := make(map[int64][]LadderResult, len(ids))
	for _, id := range ids {
		if _, done := out[id]; done {
			continue // named twice
		}
		rows, err := stmt.QueryContext(v.ctx, id)
		if err != nil {
			return nil, err
		}
		r := LadderResult{Agent: id}
		out[id] = nil
		err = scanEach(v.ctx, rows, []any{&r.Builtin, &r.Wins, &r.Draws, &r.Losses, &r.Extra}, func() error {
			out[id] = append(out[id], r)
			return nil
		})
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// LadderResults is View.LadderResults on its own.
func (db *DB) LadderResults(ctx context.Context, ids []int64) (out map[int64][]LadderResult, err error) {
	err = db.View(ctx, func(v *View) error {
		out, err = v.LadderResults(ids)
		return err
	})
	return out, err
}

// LadderOwed returns the networks that owe extra games against the
// ladder (see CommitRound's Round.Owes), each with the round after which
// it owes them: their ladder ratings are provisional until those games
// are stored.
func (v *View) LadderOwed() (map[int64]int64, error) {
	rows, err := v.tx.QueryContext(v.ctx, "SELECT agent_id, round_id FROM ladder_owed ORDER BY agent_id")
	if err != nil {
		return nil, err
	}
	out := map[int64]int64{}
	var agent, round int64
	err = scanEach(v.ctx, rows, []any{&agent, &round}, func() error {
		out[agent] = round
		return nil
	})
	rows.Close()
	return out, err
}

// LadderOwed is View.LadderOwed on its own.
func (db *DB) LadderOwed(ctx context.Context) (out map[int64]int64, err error) {
	err = db.View(ctx, func(v *View) error {
		out, err = v.LadderOwed()
		return err
	})
	return out, err
}
