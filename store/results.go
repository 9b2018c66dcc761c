package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"

	"ttt/agents/game"
)

// Results hands every stored match to each, in no particular order, in
// one read: what a league loads to rate its members. It checks ctx every
// few thousand rows, so that a league of millions of matches can be left
// at once.
func (db *DB) Results(ctx context.Context, each func(Match) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT round_id, a, b, plies, seed, wins, draws, losses FROM matches")
		if err != nil {
			return err
		}
		defer rows.Close()
		return scanMatches(ctx, rows, false, each)
	})
}

// MatchFilter chooses matches: those of one agent, of a range of rounds,
// or both. The zero value chooses every match.
type MatchFilter struct {
	Agent       int64 // 0: any
	First, Last int64 // rounds; 0: no bound
	Moves       bool  // read each match's stored games (Match.Moves) too
	// Ladder: only the matches against the built-in players; the extra
	// ones (LadderMatches) are theirs too.
	Ladder bool
}

// matchRead is a read of matches: one or two statements whose rows come
// one after the other, each in the order of an index, so that the rows
// stream, however many there are, with nothing to sort.
type matchRead []matchPart

// matchPart is one statement of a matchRead: its WHERE and ORDER BY
// clauses, and the WHERE's arguments.
type matchPart struct {
	where, order string
	args         []any
}

// read plans the read of the matches f chooses, in key order: by their
// newer agent (a), then the older (b), which is the order in which the
// league played them but for the matches of ttt roundrobin, which come
// with their newer agent. An agent's matches come as the newer agent
// (those of the round it joined, and any round-robin), then as the older,
// by the agent that met it. Rounds are found by the range of newer agents
// that each round's row keeps, not by an index of their own. It returns
// no statement when no match can be chosen.
func (f MatchFilter) read(ctx context.Context, tx *sql.Tx) (matchRead, error) {
	var where []string
	var args []any
	if f.First != 0 || f.Last != 0 {
		last := f.Last
		if last == 0 {
			last = math.MaxInt64
		}
		var lo, hi sql.Null[int64]
		err := tx.QueryRowContext(ctx, "SELECT min(a_first), max(a_last) FROM rounds WHERE id BETWEEN ? AND ?", f.First, last).Scan(&lo, &hi)
		if err != nil || !lo.Valid {
			return nil, err // no round of the range has a match
		}
		where = append(where, "a BETWEEN ? AND ?", "round_id BETWEEN ? AND ?")
		args = append(args, lo.V, hi.V, f.First, last)
	}
	if f.Ladder {
		where = append(where, "b IN "+builtinIDs)
	}
	// with is where, with cond first.
	with := func(cond string, arg any) (string, []any) {
		return " WHERE " + strings.Join(append([]string{cond}, where...), " AND "), append([]any{arg}, args...)
	}
	switch {
	case f.Agent != 0:
		newer, newerArgs := with("a = ?", f.Agent)
		older, olderArgs := with("b = ?", f.Agent)
		return matchRead{{newer, " ORDER BY b", newerArgs}, {older, " ORDER BY a", olderArgs}}, nil
	case len(where) > 0:
		return matchRead{{" WHERE " + strings.Join(where, " AND "), " ORDER BY a, b", args}}, nil
	}
	return matchRead{{"", " ORDER BY a, b", nil}}, nil
}

// MatchCount returns the number of matches f chooses.
func (db *DB) MatchCount(ctx context.Context, f MatchFilter) (n int, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		r, err := f.read(ctx, tx)
		for _, part := range r {
			var count int
			if err == nil {
				err = tx.QueryRowContext(ctx, "SELECT count(*) FROM matches"+part.where, part.args...).Scan(&count)
			}
			n += count
		}
		return err
	})
	return n, err
}

// Matches hands the matches f chooses to each, in the order that read
// says, streaming: memory stays the same however many there are.
func (db *DB) Matches(ctx context.Context, f MatchFilter, each func(Match) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		r, err := f.read(ctx, tx)
		if err != nil {
			return err
		}
		columns := "round_id, a, b, plies, seed, wins, draws, losses"
		if f.Moves {
			columns += `, (SELECT games FROM ladder_games g WHERE g.a = matches.a AND g.b = matches.b),
				(SELECT games_crc FROM ladder_games g WHERE g.a = matches.a AND g.b = matches.b)`
		}
		for _, part := range r {
			rows, err := tx.QueryContext(ctx, "SELECT "+columns+" FROM matches"+part.where+part.order, part.args...)
			if err != nil {
				return err
			}
			err = scanMatches(ctx, rows, f.Moves, each)
			rows.Close()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// scanMatches hands each row of a matches query to each; with games, the
// row's last two columns are the match's stored games and their
// checksum, checked here.
func scanMatches(ctx context.Context, rows *sql.Rows, games bool, each func(Match) error) error {
	var m Match
	var seed int64
	var sum sql.Null[int64]
	dest := []any{&m.Round, &m.A, &m.B, &m.Plies, &seed, &m.Wins, &m.Draws, &m.Losses}
	if games {
		dest = append(dest, &m.Moves, &sum)
	}
	return scanEach(ctx, rows, dest, func() error {
		m.Seed = uint64(seed)
		if m.Moves != nil {
			if err := checkBlob(m.Moves, sum); err != nil {
				return fmt.Errorf("match %d v %d, its stored games: %w", m.A, m.B, err)
			}
		}
		return each(m)
	})
}

// scanEach scans each row of rows into dest and then calls each. A league
// loads millions of rows, so they are scanned into one place made once
// (Scan's pointers would otherwise escape, and allocate, for every row),
// and a cancelled ctx stops the reading within a few thousand rows.
func scanEach(ctx context.Context, rows *sql.Rows, dest []any, each func() error) error {
	for n := 0; rows.Next(); n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if err := each(); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PairRecords returns the records of those of the pairs (a, b), a the
// newer agent, that have played, a's record; pairs not in the map have
// not played.
func (db *DB) PairRecords(ctx context.Context, pairs [][2]int64) (map[[2]int64]game.Record, error) {
	records := map[[2]int64]game.Record{}
	err := db.read(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, "SELECT wins, draws, losses FROM matches WHERE a = ? AND b = ?")
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, p := range pairs {
			var rec game.Record
			switch err := stmt.QueryRowContext(ctx, p[0], p[1]).Scan(&rec.Wins, &rec.Draws, &rec.Losses); {
			case err == nil:
				records[p] = rec
			case !errors.Is(err, sql.ErrNoRows):
				return err
			}
		}
		return nil
	})
	return records, err
}

// Standings returns up to limit rated agents (all with limit 0), the
// highest rating first, ties by id: the leaderboard, read from the
// standings_by_elo index. It also returns how many agents are rated.
func (db *DB) Standings(ctx context.Context, limit int) (list []*Agent, rated int, err error) {
	err = db.View(ctx, func(v *View) (err error) {
		list, rated, err = v.Standings(limit)
		return err
	})
	return list, rated, err
}

// Standings is DB.Standings, in the view.
func (v *View) Standings(limit int) (list []*Agent, rated int, err error) {
	if err := v.tx.QueryRowContext(v.ctx, "SELECT count(*) FROM standings").Scan(&rated); err != nil {
		return nil, 0, err
	}
	list, err = standings(v.ctx, v.tx, "ORDER BY s.elo DESC, s.agent_id", limit)
	return list, rated, err
}

// Ranked returns up to limit rated agents whose standing has a class
// (the networks), in the order of the standings_best index from its
// end: the higher class, then the higher low end of the interval, then
// the newer. It is the order the league's best rule reads (league.Best);
// the index keeps it so that the first rows cost a few pages at any
// size. (The share column, which schema 3 ordered by after the class, is
// NULL since schema 8.)
func (db *DB) Ranked(ctx context.Context, limit int) (list []*Agent, err error) {
	err = db.View(ctx, func(v *View) (err error) {
		list, err = v.Ranked(limit)
		return err
	})
	return list, err
}

// Ranked is DB.Ranked, in the view.
func (v *View) Ranked(limit int) ([]*Agent, error) {
	return standings(v.ctx, v.tx, "WHERE s.class IS NOT NULL ORDER BY s.class DESC, s.share DESC, s.lo DESC, s.agent_id DESC", limit)
}

// standings reads up to limit (all with 0) rated agents in the order that
// tail (a WHERE and an ORDER BY of standings s and agents a, with args)
// gives.
func standings(ctx context.Context, tx *sql.Tx, tail string, limit int, args ...any) (list []*Agent, err error) {
	q := strings.Replace(selectAgents, "FROM agents a LEFT JOIN standings s ON s.agent_id = a.id",
		"FROM standings s JOIN agents a ON a.id = s.agent_id", 1) + " " + tail
	if limit > 0 {
		q += " LIMIT ?"
		args = append(args, limit)
	}
	err = queryAgents(ctx, tx, q, args, func(a *Agent) error {
		if err := a.Standing.HistoryRow.check(); err != nil {
			return err
		}
		list = append(list, a)
		return nil
	})
	return list, err
}

// History returns the stored rating history of agent, oldest first: a row
// where it was first rated and one wherever its rating or interval had
// moved by more than HistoryStep since the row before. Its rating after
// any round is its last row at or before that round.
func (db *DB) History(ctx context.Context, agent int64) (list []HistoryRow, err error) {
	err = db.View(ctx, func(v *View) (err error) {
		list, err = v.History(agent)
		return err
	})
	return list, err
}

// History is DB.History, in the view.
func (v *View) History(agent int64) (list []HistoryRow, err error) {
	rows, err := v.tx.QueryContext(v.ctx, "SELECT round_id, elo, lo, hi, games FROM history WHERE agent_id = ? ORDER BY round_id", agent)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		r := HistoryRow{Agent: agent}
		if err := rows.Scan(&r.Round, &r.Elo, &r.Lo, &r.Hi, &r.Games); err != nil {
			return nil, err
		}
		if err := r.check(); err != nil {
			return nil, err
		}
		list = append(list, r)
	}
	return list, rows.Err()
}

// AllHistory hands every stored history row to each, with the name of
// its agent, by agent and then round, streaming.
func (db *DB) AllHistory(ctx context.Context, each func(r HistoryRow, name string) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT h.agent_id, a.name, h.round_id, h.elo, h.lo, h.hi, h.games
			FROM history h JOIN agents a ON a.id = h.agent_id ORDER BY h.agent_id, h.round_id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var r HistoryRow
		var name string
		return scanEach(ctx, rows, []any{&r.Agent, &name, &r.Round, &r.Elo, &r.Lo, &r.Hi, &r.Games}, func() error {
			if err := r.check(); err != nil {
				return err
			}
			return each(r, name)
		})
	})
}

// check returns ErrCorrupt when a number of r is not finite: no fit
// writes one, so the file was damaged or made so, and a reader must not
// hand it on (JSON has no infinity: ttt serve would answer an empty 200).
// ttt check names every such agent.
func (r HistoryRow) check() error {
	for _, v := range []float64{r.Elo, r.Lo, r.Hi} {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("%w: agent %d's rating after round %d is %v, not a finite number (ttt check names every such agent)", ErrCorrupt, r.Agent, r.Round, v)
		}
	}
	return nil
}

// HistoryStep is how far, in Elo, an agent's rating or either end of its
// interval must move before the history gets a row for it. A rating read
// from the history is therefore never further than this from the one the
// fit held after that round: half a point, for ratings whose 95%
// intervals are rarely narrower than ±5 Elo in a league, and well inside
// the agreement between rating programs. Writing every agent after every
// round, as schema 1 did, made the history grow with the square of the
// league; most of those rows repeated the one before to the tenth of a
// point.
const HistoryStep = 0.5

// StandingStep is how far, in Elo, the fit must move an agent's rating
// before its standing's Elo, what the leaderboard, show and the API
// show, is rewritten. The fit moves a thousand agents or more a round by
// thousandths of an Elo each, all over the league. Each standing
// rewritten is a page of the standings and of an index: written at every
// move, they would double a round's time at 100,000 checkpoints. The
// fit's own error and this step keep the leaderboard within a tenth of
// an Elo of a full fit, which ttt check --ratings checks. The figures of
// both: BENCHMARKS.md, "ttt check --ratings: the leaderboard against a
// cold fit, on a league of 1,000 checkpoints".
const StandingStep = 0.05

// MovedFrom reports whether rating r has moved by more than HistoryStep
// from last, in its value or either end of its interval: whether the
// history needs a row for it.
func (r HistoryRow) MovedFrom(last HistoryRow) bool {
	return math.Abs(r.Elo-last.Elo) > HistoryStep || math.Abs(r.Lo-last.Lo) > HistoryStep || math.Abs(r.Hi-last.Hi) > HistoryStep
}
