package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"time"

	"ttt/agents/game"
)

// RoundKind is what made a round.
type RoundKind string

// The kinds of rounds.
const (
	LeagueRound RoundKind = "league"     // ttt league run: a snapshot and its matches
	RobinRound  RoundKind = "roundrobin" // ttt roundrobin: matches among chosen agents
)

// Match is the record of agent A against agent B over every opening of
// Plies moves, each played once with A as X and once with A as O. Seed
// seeds the random player's games when one of the two is random, and is
// 0 when neither is. A is the newer agent (the larger id). Round is the
// round that played it, filled in by CommitRound.
type Match struct {
	Round int64
	A, B  int64
	Plies int
	Seed  uint64
	game.Record
	// First is A's record in the games it moved first, where the league
	// keeps it: in a match against a built-in player, which is always B
	// (the built-in players have the first ids). Nil elsewhere, and in
	// what Results and Matches read.
	First *game.Record
	// Moves are the match's games as EncodeGames writes them, where the
	// league keeps them: in a match against a slow built-in player, whose
	// games would take seconds to play again. Nil elsewhere, and in what
	// Matches reads unless its filter asks for them.
	Moves []byte
}

// Round is what a round adds, all in one transaction: the snapshot of the
// learner, the state the learner needs to go on, the matches played, the
// standings they change and the history rows of the ratings that moved.
// Everything is computed before: the commit only writes.
type Round struct {
	ID                int64 // filled in by CommitRound
	Kind              RoundKind
	Started, Finished time.Time
	// Snapshot is the league round's checkpoint, stored with the round;
	// its ID, given by the commit, replaces 0 wherever the round's
	// matches, updates and history name it.
	Snapshot *Agent
	Learner  []byte // replaces the stored learner state; nil leaves it
	Matches  []Match
	Updates  []Update
	History  []HistoryRow // new history rows; their Round is filled in
	Fits     *Fits        // the fit's ratings that changed; nil for none
	Stats    RoundStats
	// Owes, if not nil, is asked after the round's writes, in its
	// transaction, which network owes extra games against the ladder
	// now (0: none): the commit records it in ladder_owed, so that its
	// ladder rating reads as provisional until those games are stored
	// (AddLadderMatches), even if the process dies between the two.
	Owes func(*View) (int64, error)
}

// Update is what a round changes in an agent's standing: the games it
// played, and its Elo when the fit has moved it by more than
// StandingStep. The standing shows the fit's Elo, while the history only
// gets a row when it has moved by more than HistoryStep: the leaderboard
// is then the fit, not up to half an Elo behind it. The interval, which
// the best's order reads, changes only with a history row: rewriting it
// would move the agent in one more index. Every agent that played, whose
// Elo changes, or that has a history row in the round, needs one.
type Update struct {
	Agent  int64
	Played game.Record
	Elo    *float64 // the fit's Elo now; nil takes the round's history row, if any
	// Ranked puts the agent among Ranked's: its first standing keeps
	// the agent's class, by which Ranked orders. The league says which
	// agents its best rule ranks; a standing without a class is left
	// out.
	Ranked bool
}

// RoundStats are the facts of a round's line in the log.
type RoundStats struct {
	TrainGames int
	TrainTime  time.Duration
	EvalGames  int
	EvalTime   time.Duration
	FitSteps   int // agents the rating fit moved
	FitPending int // agents it left pending for the next round (0: converged)
	// CPU is the processor time the league used from the commit of the
	// round before (or the start of its run) to this one's, on every core
	// together, and Cores that divided by the same wall time; both 0
	// where they were not measured.
	CPU   time.Duration
	Cores float64
}

// CommitRound stores a round atomically: either the whole round is in the
// database afterwards, or none of it. It fills in r.ID and r.Snapshot's
// ID, Name and CreatedAt.
func (db *DB) CommitRound(ctx context.Context, r *Round) error {
	if r.Snapshot != nil {
		if err := r.Snapshot.prepare(); err != nil {
			return err
		}
	}
	return db.leagueWrite(ctx, func(tx *sql.Tx) error {
		if err := commitRound(ctx, tx, r); err != nil {
			return err
		}
		if r.Owes == nil {
			return nil
		}
		agent, err := r.Owes(&View{ctx: ctx, tx: tx, game: db.game})
		if err != nil || agent == 0 {
			return err
		}
		_, err = tx.ExecContext(ctx, "INSERT OR REPLACE INTO ladder_owed (agent_id, round_id) VALUES (?, ?)", agent, r.ID)
		return err
	})
}

func commitRound(ctx context.Context, tx *sql.Tx, r *Round) error {
	// STEP 1: the round, and its snapshot, which takes the next id.
	res, err := tx.ExecContext(ctx, `INSERT INTO rounds (kind, started_at, finished_at,
		train_games, train_seconds, eval_games, eval_seconds, fit_steps, fit_pending, cpu_seconds, cores) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Kind, timeText(r.Started), timeText(r.Finished),
		r.Stats.TrainGames, r.Stats.TrainTime.Seconds(), r.Stats.EvalGames, r.Stats.EvalTime.Seconds(),
		r.Stats.FitSteps, r.Stats.FitPending, sql.Null[float64]{V: r.Stats.CPU.Seconds(), Valid: r.Stats.CPU > 0},
		sql.Null[float64]{V: r.Stats.Cores, Valid: r.Stats.Cores > 0})
	if err != nil {
		return err
	}
	if r.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	var snapshot int64
	if r.Snapshot != nil {
		r.Snapshot.Generation = int(r.ID)
		if err := addAgent(ctx, tx, r.Snapshot); err != nil {
			return err
		}
		snapshot = r.Snapshot.ID
	}
	id := func(agent int64) int64 {
		if agent == 0 {
			return snapshot
		}
		return agent
	}

	// STEP 2: the learner: only the last round's is kept (see the
	// schema); the pages of the one before go back to SQLite's free list,
	// and this one takes them.
	if r.Learner != nil {
		if _, err := tx.ExecContext(ctx, "DELETE FROM learner"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO learner (round_id, state, state_crc) VALUES (?, ?, ?)",
			r.ID, r.Learner, int64(crc32.Checksum(r.Learner, crc))); err != nil {
			return err
		}
	}

	// STEP 3: the matches.
	match, err := tx.PrepareContext(ctx, `INSERT INTO matches (round_id, a, b, plies, seed, wins, draws, losses)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer match.Close()
	side, err := tx.PrepareContext(ctx, "INSERT INTO sides (a, b, wins, draws, losses) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer side.Close()
	games, err := tx.PrepareContext(ctx, "INSERT INTO ladder_games (a, b, games, games_crc) VALUES (?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer games.Close()
	for i := range r.Matches {
		m := &r.Matches[i]
		m.Round, m.A, m.B = r.ID, id(m.A), id(m.B)
		if _, err := match.ExecContext(ctx, r.ID, m.A, m.B, m.Plies, int64(m.Seed), m.Wins, m.Draws, m.Losses); err != nil {
			return fmt.Errorf("match %d-%d: %w", m.A, m.B, err)
		}
		if f := m.First; f != nil {
			if _, err := side.ExecContext(ctx, m.A, m.B, f.Wins, f.Draws, f.Losses); err != nil {
				return fmt.Errorf("match %d-%d, by side: %w", m.A, m.B, err)
			}
		}
		if m.Moves != nil {
			if _, err := games.ExecContext(ctx, m.A, m.B, m.Moves, int64(crc32.Checksum(m.Moves, crc))); err != nil {
				return fmt.Errorf("match %d-%d, its games: %w", m.A, m.B, err)
			}
		}
	}

	// The range of the matches' newer agents, by which they are read
	// back (see MatchFilter).
	if len(r.Matches) > 0 {
		first, last := r.Matches[0].A, r.Matches[0].A
		for _, m := range r.Matches {
			first, last = min(first, m.A), max(last, m.A)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE rounds SET a_first = ?, a_last = ? WHERE id = ?", first, last, r.ID); err != nil {
			return err
		}
	}

	// STEP 4: the history rows, and the round's point of the learning
	// curve: its snapshot's first rating.
	rated := make(map[int64]*HistoryRow, len(r.History))
	history, err := tx.PrepareContext(ctx, "INSERT INTO history (agent_id, round_id, elo, lo, hi, games) VALUES (?, ?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer history.Close()
	for i := range r.History {
		h := &r.History[i]
		h.Round, h.Agent = r.ID, id(h.Agent)
		if _, err := history.ExecContext(ctx, h.Agent, r.ID, h.Elo, h.Lo, h.Hi, h.Games); err != nil {
			return fmt.Errorf("rating of %d: %w", h.Agent, err)
		}
		rated[h.Agent] = h
	}
	if h := rated[snapshot]; snapshot != 0 && h != nil {
		if _, err := tx.ExecContext(ctx, "UPDATE rounds SET snapshot_id = ?, elo = ?, lo = ?, hi = ? WHERE id = ?",
			snapshot, h.Elo, h.Lo, h.Hi, r.ID); err != nil {
			return err
		}
	}

	// STEP 5: the standings, and the fit's exact ratings.
	if err := updateStandings(ctx, tx, r.ID, r.Updates, rated, id); err != nil {
		return err
	}
	if r.Fits == nil {
		return nil
	}
	fits := *r.Fits
	fits.Agents = make([]int64, len(r.Fits.Agents))
	for i, a := range r.Fits.Agents {
		fits.Agents[i] = id(a)
	}
	return insertFits(ctx, tx, r.ID, &fits)
}

// updateStandings applies a round's updates: the games played, and the
// rating, where an update or the round's history row has one. A
// standing's round is that of its agent's last history row. An agent's
// first update, which makes its standing, must come with its first
// history row.
func updateStandings(ctx context.Context, tx *sql.Tx, round int64, updates []Update, rated map[int64]*HistoryRow, id func(int64) int64) error {
	// Each statement changes only what it must: a round rewrites the Elo
	// of hundreds of agents that did not play, and each column of an
	// index that changes moves the agent in that index, a page of it.
	set := map[string]string{
		"games": "",
		"elo":   ", elo = ?",
		"row":   ", round_id = ?, elo = ?, lo = ?, hi = ?",
	}
	stmts := map[string]*sql.Stmt{}
	for k, cols := range set {
		st, err := tx.PrepareContext(ctx, "UPDATE standings SET wins = wins + ?, draws = draws + ?, losses = losses + ?"+cols+" WHERE agent_id = ?")
		if err != nil {
			return err
		}
		defer st.Close()
		stmts[k] = st
	}
	insert, err := tx.PrepareContext(ctx, `INSERT INTO standings (agent_id, round_id, elo, lo, hi, wins, draws, losses, class, share)
		SELECT id, ?, ?, ?, ?, ?, ?, ?, CASE WHEN ? THEN class END, NULL
		FROM agents WHERE id = ?`)
	if err != nil {
		return err
	}
	defer insert.Close()
	for _, u := range updates {
		agent := id(u.Agent)
		h := rated[agent]
		kind, args := "games", []any{u.Played.Wins, u.Played.Draws, u.Played.Losses}
		switch {
		case h != nil:
			kind, args = "row", append(args, round, h.Elo, h.Lo, h.Hi)
		case u.Elo != nil:
			kind, args = "elo", append(args, *u.Elo)
		}
		res, err := stmts[kind].ExecContext(ctx, append(args, agent)...)
		if err != nil {
			return fmt.Errorf("standing of %d: %w", agent, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			if err != nil {
				return fmt.Errorf("standing of %d: %w", agent, err)
			}
			continue
		}
		if h == nil {
			return fmt.Errorf("standing of %d: a first standing needs a history row", agent)
		}
		if _, err := insert.ExecContext(ctx, round, h.Elo, h.Lo, h.Hi, u.Played.Wins, u.Played.Draws, u.Played.Losses, u.Ranked, agent); err != nil {
			return fmt.Errorf("standing of %d: %w", agent, err)
		}
	}
	return nil
}

// ErrNoRounds is the error of a league that has not committed a round
// yet.
var ErrNoRounds = errors.New("the league has played no round yet")

// LastRound returns the id of the newest round, and the stored state of
// the learner (nil when no league round stored one), checked against its
// checksum. It returns ErrNoRounds in a league that has played none, and
// ErrCorrupt where the rounds are not numbered from 1 without a gap, as
// their commits number them: a league keeps a place for each.
func (db *DB) LastRound(ctx context.Context) (id int64, learner []byte, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		var last sql.Null[int64]
		var n int64
		if err := tx.QueryRowContext(ctx, "SELECT max(id), count(*) FROM rounds").Scan(&last, &n); err != nil {
			return err
		}
		switch {
		case !last.Valid:
			return ErrNoRounds
		case last.V != n || tx.QueryRowContext(ctx, "SELECT 1 FROM rounds WHERE id < 1").Scan(new(int)) == nil:
			return fmt.Errorf("%w: the league's %d rounds are numbered up to %d, not 1 to %[1]d", ErrCorrupt, n, last.V)
		}
		id = last.V
		var sum sql.Null[int64]
		err := tx.QueryRowContext(ctx, "SELECT state, state_crc FROM learner").Scan(&learner, &sum)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err == nil {
			if err = checkBlob(learner, sum); err != nil {
				err = fmt.Errorf("the learner's state: %w", err)
			}
		}
		return err
	})
	return id, learner, err
}

// RoundInfo is a stored round as its line in the log told it.
type RoundInfo struct {
	ID                int64
	Kind              RoundKind
	Started, Finished time.Time   // Finished is zero where it is unknown (rounds of schema 1)
	Snapshot          int64       // 0 for none
	Agent             *Agent      // the snapshot with its facts, without its network; nil for none
	Rating            *HistoryRow // the snapshot's first rating; nil for none
	Stats             *RoundStats
}

// Rounds returns the rounds from first to last (ids), in order.
func (db *DB) Rounds(ctx context.Context, first, last int64) (list []RoundInfo, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		if list, err = readRounds(ctx, tx, first, last); err != nil {
			return err
		}
		// The snapshots, in one pass over their range of ids.
		bySnapshot := map[int64]*RoundInfo{}
		lo, hi := int64(math.MaxInt64), int64(0)
		for i := range list {
			if id := list[i].Snapshot; id != 0 {
				bySnapshot[id] = &list[i]
				lo, hi = min(lo, id), max(hi, id)
			}
		}
		if len(bySnapshot) == 0 {
			return nil
		}
		return queryAgents(ctx, tx, selectAgents+" WHERE a.id BETWEEN ? AND ? AND a.kind = ?", []any{lo, hi, Checkpoint}, func(a *Agent) error {
			if r := bySnapshot[a.ID]; r != nil {
				r.Agent = a
			}
			return nil
		})
	})
	return list, err
}

// readRounds reads the rounds from first to last, in order.
func readRounds(ctx context.Context, tx *sql.Tx, first, last int64) (list []RoundInfo, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, kind, started_at, finished_at, snapshot_id, elo, lo, hi,
		train_games, train_seconds, eval_games, eval_seconds, fit_steps, fit_pending, cpu_seconds, cores
		FROM rounds WHERE id BETWEEN ? AND ? ORDER BY id`, first, last)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			r              RoundInfo
			started        string
			finished       sql.Null[string]
			snapshot       sql.Null[int64]
			elo            [3]sql.Null[float64]
			trainS, evalS  sql.Null[float64]
			cpu, cores     sql.Null[float64]
			train, eval    sql.Null[int64]
			steps, pending sql.Null[int64]
		)
		if err := rows.Scan(&r.ID, &r.Kind, &started, &finished, &snapshot, &elo[0], &elo[1], &elo[2],
			&train, &trainS, &eval, &evalS, &steps, &pending, &cpu, &cores); err != nil {
			return nil, err
		}
		if r.Started, err = time.Parse(time.RFC3339Nano, started); err != nil {
			return nil, fmt.Errorf("round %d: started_at: %w", r.ID, err)
		}
		if finished.Valid {
			if r.Finished, err = time.Parse(time.RFC3339Nano, finished.V); err != nil {
				return nil, fmt.Errorf("round %d: finished_at: %w", r.ID, err)
			}
		}
		r.Snapshot = snapshot.V
		if elo[0].Valid {
			r.Rating = &HistoryRow{Agent: snapshot.V, Round: r.ID, Elo: elo[0].V, Lo: elo[1].V, Hi: elo[2].V}
			if err := r.Rating.check(); err != nil {
				return nil, err
			}
		}
		if train.Valid {
			r.Stats = &RoundStats{TrainGames: int(train.V), TrainTime: seconds(trainS.V),
				EvalGames: int(eval.V), EvalTime: seconds(evalS.V), FitSteps: int(steps.V), FitPending: int(pending.V),
				CPU: seconds(cpu.V), Cores: cores.V}
		}
		list = append(list, r)
	}
	return list, rows.Err()
}

// seconds turns stored seconds into a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// Settings returns the league's stored settings (see SetSettings).
func (db *DB) Settings(ctx context.Context) (settings map[string]string, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		settings, err = readSettings(ctx, tx)
		return err
	})
	return settings, err
}

// Settings is DB.Settings, in the view.
func (v *View) Settings() (map[string]string, error) { return readSettings(v.ctx, v.tx) }

func readSettings(ctx context.Context, tx *sql.Tx) (map[string]string, error) {
	settings := map[string]string{}
	rows, err := tx.QueryContext(ctx, "SELECT name, value FROM settings")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return nil, err
		}
		settings[name] = value
	}
	return settings, rows.Err()
}

// SetSettings stores the settings a league was started with, the ones it
// has none of yet; those it has keep their value.
func (db *DB) SetSettings(ctx context.Context, settings map[string]string) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
	defer tx.Rollback()
	if err := markJournal(ctx, tx); err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
	for name, value := range settings {
		if _, err := tx.ExecContext(ctx, "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING", name, value); err != nil {
			return db.secondLook(ctx, translate(err), false)
		}
	}
	return db.secondLook(ctx, translate(tx.Commit()), false)
}
