package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"

	"ttt/agents/game"
)

// Agent returns the agent that ref names, with its network and standing:
// an id, a name or latest, the newest network. (Best is the league's
// rule: league.Agent names it.) It returns ErrNotFound for an unknown id
// or name, ErrNoCheckpoints for latest in a league without networks,
// and ErrChecksum for a network whose stored weights are damaged; for a
// checkpoint that ttt prune thinned out, the agent without its Net and
// ErrPruned.
func (db *DB) Agent(ctx context.Context, ref string) (a *Agent, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		a, err = findAgent(ctx, tx, db.game, ref)
		return err
	})
	return a, err
}

// findAgent resolves ref and reads the agent and its net.
func findAgent(ctx context.Context, tx *sql.Tx, g game.Game, ref string) (*Agent, error) {
	id, err := resolve(ctx, tx, ref)
	if err != nil {
		return nil, err
	}
	a, err := scanAgent(tx.QueryRowContext(ctx, selectAgents+" WHERE a.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, ref)
	}
	if err != nil || !a.Kind.PlaysModel() {
		return a, err
	}
	// A searched agent plays its parent's model.
	from := id
	if a.Kind == Searched {
		from = a.ParentID
	}
	var weights []byte
	var sum sql.Null[int64]
	if err := tx.QueryRowContext(ctx, "SELECT weights, weights_crc, coalesce(method, '') FROM agents WHERE id = ?", from).Scan(&weights, &sum, &a.Method); err != nil {
		return nil, err
	}
	if err := checkBlob(weights, sum); err != nil {
		return nil, fmt.Errorf("agent %d (%s): weights: %w", a.ID, a.Name, err)
	}
	if len(weights) == 0 {
		return a, fmt.Errorf("agent %d (%s): %w", a.ID, a.Name, ErrPruned)
	}
	a.Weights = weights
	return a, nil
}

// resolve turns an id, a name or latest into an id.
func resolve(ctx context.Context, tx *sql.Tx, ref string) (int64, error) {
	var id sql.Null[int64]
	if ref == Latest {
		if err := tx.QueryRowContext(ctx, "SELECT max(id) FROM agents WHERE weights IS NOT NULL").Scan(&id); err != nil {
			return 0, err
		}
		if !id.Valid {
			return 0, ErrNoCheckpoints
		}
		return id.V, nil
	}
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
		return n, nil // findAgent says when there is no such id
	}
	err := tx.QueryRowContext(ctx, "SELECT id FROM agents WHERE name = ?", ref).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: %q", ErrNotFound, ref)
	}
	return id.V, err
}

// Names returns the name of every agent, in id order: what a name that
// names none is held against, to suggest the one meant.
func (db *DB) Names(ctx context.Context) (list []string, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT name FROM agents ORDER BY id")
		if err != nil {
			return err
		}
		defer rows.Close()
		var name string
		return scanEach(ctx, rows, []any{&name}, func() error {
			list = append(list, name)
			return nil
		})
	})
	return list, err
}

// Agents returns up to limit agents with ids above after, in id order,
// without their networks; every such agent when limit is 0.
func (db *DB) Agents(ctx context.Context, after int64, limit int) (list []*Agent, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		q := selectAgents + " WHERE a.id > ? ORDER BY a.id"
		args := []any{after}
		if limit > 0 {
			q += " LIMIT ?"
			args = append(args, limit)
		}
		return queryAgents(ctx, tx, q, args, func(a *Agent) error {
			list = append(list, a)
			return nil
		})
	})
	return list, err
}

// Searched returns the searched agents, in id order, without their
// parents' models: a league adds one a round at most, the best with a
// search (ttt league run --search), so they are few.
func (db *DB) Searched(ctx context.Context) (list []*Agent, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		list, err = searched(ctx, tx)
		return err
	})
	return list, err
}

// Searched is DB.Searched, in the view.
func (v *View) Searched() ([]*Agent, error) { return searched(v.ctx, v.tx) }

func searched(ctx context.Context, tx *sql.Tx) (list []*Agent, err error) {
	err = queryAgents(ctx, tx, selectAgents+" WHERE a.kind = 'searched' ORDER BY a.id", nil, func(a *Agent) error {
		list = append(list, a)
		return nil
	})
	return list, err
}

// Count returns the number of agents, counted on the small index of
// their names (counting the networks would read every agent's row).
func (db *DB) Count(ctx context.Context) (n int, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, "SELECT count(*) FROM agents").Scan(&n)
	})
	return n, err
}

// SameAgent returns the first stored agent whose model is a's (their
// stored weights are the same bytes), by id, and false when none is. Its
// checksum narrows the search to the rare rows that share it.
func (db *DB) SameAgent(ctx context.Context, a *Agent) (same AgentName, found bool, err error) {
	weights := a.Weights
	err = db.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, "SELECT id, name, kind FROM agents WHERE weights_crc = ? AND weights = ? ORDER BY id LIMIT 1",
			int64(crc32.Checksum(weights, crc)), weights).Scan(&same.ID, &same.Name, &same.Kind)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	return same, found, err
}

// selectAgents reads what scanAgent scans: every column but the blobs,
// and the agent's standing, if any; a searched agent's method is its
// parent's.
const selectAgents = `SELECT a.id, a.kind, a.name, coalesce(a.parent_id, 0), a.generation, a.train_games,
	coalesce(a.hidden, 0), coalesce(a.method, (SELECT p.method FROM agents p WHERE a.kind = 'searched' AND p.id = a.parent_id), ''),
	coalesce(a.search, ''), a.created_at, a.class,
	a.x_worst, a.x_lost, a.x_lines, a.x_optimal, a.x_positions,
	a.o_worst, a.o_lost, a.o_lines, a.o_optimal, a.o_positions,
	a.x_win, a.x_draw, a.x_loss, a.o_win, a.o_draw, a.o_loss,
	a.set_optimal, a.set_positions, a.early_optimal, a.early_positions,
	a.middle_optimal, a.middle_positions, a.late_optimal, a.late_positions,
	a.random_optimal, a.random_positions,
	s.round_id, s.elo, s.lo, s.hi, s.wins, s.draws, s.losses
	FROM agents a LEFT JOIN standings s ON s.agent_id = a.id`

// scanAgent reads one row of selectAgents.
func scanAgent(row interface{ Scan(...any) error }) (*Agent, error) {
	var (
		a       Agent
		created string
		class   sql.Null[int64]
		figures [10]sql.Null[int64]
		odds    [6]sql.Null[float64]
		shares  [8]sql.Null[int64]
		random  [2]sql.Null[int64]
		round   sql.Null[int64]
		rating  [3]sql.Null[float64] // elo, lo, hi
		record  [3]sql.Null[int64]   // wins, draws, losses
	)
	err := row.Scan(&a.ID, &a.Kind, &a.Name, &a.ParentID, &a.Generation, &a.TrainGames, &a.Hidden, &a.Method, &a.Search, &created, &class,
		&figures[0], &figures[1], &figures[2], &figures[3], &figures[4],
		&figures[5], &figures[6], &figures[7], &figures[8], &figures[9],
		&odds[0], &odds[1], &odds[2], &odds[3], &odds[4], &odds[5],
		&shares[0], &shares[1], &shares[2], &shares[3], &shares[4], &shares[5], &shares[6], &shares[7],
		&random[0], &random[1],
		&round, &rating[0], &rating[1], &rating[2],
		&record[0], &record[1], &record[2])
	if err != nil {
		return nil, err
	}
	if a.CreatedAt, err = time.Parse(time.RFC3339, created); err != nil {
		return nil, fmt.Errorf("agent %d: created_at: %w", a.ID, err)
	}
	a.Class, a.Classed = game.Class(class.V), class.Valid
	if figures[0].Valid {
		for i, side := range []game.Side{game.X, game.O} {
			f := figures[5*i : 5*i+5]
			a.Verify = append(a.Verify, game.Report{Side: side, Worst: game.Value(f[0].V),
				LostLines: int(f[1].V), Lines: int(f[2].V), Optimal: int(f[3].V), Positions: int(f[4].V)})
		}
	}
	if odds[0].Valid {
		for i := range 2 {
			a.VsRandom = append(a.VsRandom, game.Expect{Win: odds[3*i].V, Draw: odds[3*i+1].V, Loss: odds[3*i+2].V})
		}
	}
	if shares[1].Valid {
		sc := func(i int) game.Score {
			return game.Score{Optimal: int(shares[i].V), Positions: int(shares[i+1].V)}
		}
		a.Shares = &game.Shares{All: sc(0), Early: sc(2), Middle: sc(4), Late: sc(6)}
	}
	if random[1].Valid {
		a.Random = &game.Score{Optimal: int(random[0].V), Positions: int(random[1].V)}
	}
	if round.Valid {
		rec := game.Record{Wins: int(record[0].V), Draws: int(record[1].V), Losses: int(record[2].V)}
		a.Standing = &Standing{
			HistoryRow: HistoryRow{Agent: a.ID, Round: round.V, Elo: rating[0].V, Lo: rating[1].V, Hi: rating[2].V, Games: rec.Games()},
			Record:     rec,
		}
	}
	return &a, nil
}

// queryAgents runs q (selectAgents and a tail) with args, and hands each
// agent it reads to each.
func queryAgents(ctx context.Context, tx *sql.Tx, q string, args []any, each func(*Agent) error) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		a, err := scanAgent(rows)
		if err != nil {
			return err
		}
		if err := each(a); err != nil {
			return err
		}
	}
	return rows.Err()
}
