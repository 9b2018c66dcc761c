package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/agents/verify"
)

// Kind is what an agent is.
type Kind string

// The kinds of agents. Checkpoint, Baseline and Imported are networks,
// which SPEC calls checkpoints; Random and Perfect are the two built-in
// players every league has.
const (
	Random     Kind = "random"     // a uniformly random legal move: the rating anchor
	Perfect    Kind = "perfect"    // exact minimax: the ceiling
	Checkpoint Kind = "checkpoint" // a frozen snapshot of the league's learner
	Baseline   Kind = "baseline"   // a net from ttt train, ttt-rl's method
	Imported   Kind = "imported"   // a net read from a plain weight file
)

// IsNetwork reports whether agents of kind k are networks.
func (k Kind) IsNetwork() bool { return k == Checkpoint || k == Baseline || k == Imported }

// Words that name an agent by role rather than by id or name (Agent).
const (
	Best   = "best"
	Latest = "latest"
)

// Errors about agents.
var (
	// ErrNotFound: no agent has the id or name asked for.
	ErrNotFound = errors.New("no such agent")
	// ErrNoCheckpoints: best or latest was asked of a league that has no
	// network yet.
	ErrNoCheckpoints = errors.New("the league has no checkpoints yet")
	// ErrBadName: a name that would be confused with an id or a role.
	ErrBadName = errors.New("bad agent name")
	// ErrNameTaken: another agent already has the name.
	ErrNameTaken = errors.New("an agent with that name exists")
)

// Agent is a stored player.
type Agent struct {
	ID         int64
	Kind       Kind
	Name       string
	ParentID   int64 // the checkpoint it was trained on from; 0 for none
	Generation int   // the league round that made it; 0 outside the league
	TrainGames int64 // the training games behind the net
	Hidden     int   // hidden units; 0 for random and perfect
	CreatedAt  time.Time
	// Verify holds the exhaustive check of the agent as X and as O, made
	// when it was stored; nil for random.
	Verify []verify.Report
	// Rating is the agent's latest rating; nil while it is unrated.
	Rating *Rating
	// Net is the network. Agent fills it in for networks; Agents leaves it
	// nil, to list a large league without reading every blob.
	Net *nn.Net
}

// Rating is an agent's rating after a round.
type Rating struct {
	Agent  int64
	Round  int64
	Elo    float64
	Lo, Hi float64 // the 95% interval
	Games  int     // the games the rating rests on
}

// AddAgent stores the network a.Net as a new agent of kind a.Kind (a
// network kind) with a's name, parent, generation and training games. It
// runs the exhaustive check on the net first, and fills in a's ID, Name
// (kind-ID when it was empty), Hidden, CreatedAt and Verify. It returns
// ErrBadName or ErrNameTaken for a name that cannot be used.
func (db *DB) AddAgent(ctx context.Context, a *Agent) error {
	if err := a.prepare(); err != nil {
		return err
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return translate(err)
	}
	defer tx.Rollback()
	if err := addAgent(ctx, tx, a); err != nil {
		return translate(err)
	}
	return translate(tx.Commit())
}

// prepare checks a network agent's name and fills in what storing it
// computes: the exhaustive check, the hidden size and the time. The check
// takes milliseconds; done before the transaction, it never holds the
// write lock.
func (a *Agent) prepare() error {
	if !a.Kind.IsNetwork() || a.Net == nil {
		return fmt.Errorf("cannot store a %s agent: only networks are stored", a.Kind)
	}
	if a.Name != "" {
		if err := checkName(a.Name); err != nil {
			return err
		}
	}
	table := a.Net.Table()
	a.Verify = []verify.Report{verify.Check(table, game.X), verify.Check(table, game.O)}
	a.Hidden = a.Net.Hidden
	a.CreatedAt = time.Now().UTC().Truncate(time.Second)
	return nil
}

// checkName refuses names that `ttt show NAME` could not tell from an id
// or from best and latest, and names that do not print as one word.
func checkName(name string) error {
	switch {
	case name == Best || name == Latest:
		return fmt.Errorf("%w %q: it names a role", ErrBadName, name)
	case strings.Trim(name, "0123456789") == "":
		return fmt.Errorf("%w %q: all digits would read as an id", ErrBadName, name)
	case len(name) > 100:
		return fmt.Errorf("%w: %d bytes is too long (100 at most)", ErrBadName, len(name))
	case strings.IndexFunc(name, func(r rune) bool { return !unicode.IsGraphic(r) || unicode.IsSpace(r) }) >= 0:
		return fmt.Errorf("%w %q: use letters, digits and punctuation, no spaces", ErrBadName, name)
	}
	return nil
}

// addAgent inserts a with the id after the last one. An empty name becomes
// kind-id.
func addAgent(ctx context.Context, tx *sql.Tx, a *Agent) error {
	// Write transactions begin IMMEDIATE (dsnQuery), so the id read here
	// is still free at the insert.
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) + 1 FROM agents").Scan(&a.ID); err != nil {
		return err
	}
	if a.Name == "" {
		a.Name = fmt.Sprintf("%s-%d", a.Kind, a.ID)
	}
	var taken bool
	if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM agents WHERE name = ?)", a.Name).Scan(&taken); err != nil {
		return err
	}
	if taken {
		return fmt.Errorf("%w: %q", ErrNameTaken, a.Name)
	}

	var weights []byte
	var hidden, parent sql.Null[int64]
	if a.Net != nil {
		weights = a.Net.Bytes()
		hidden = sql.Null[int64]{V: int64(a.Net.Hidden), Valid: true}
	}
	if a.ParentID != 0 {
		parent = sql.Null[int64]{V: a.ParentID, Valid: true}
	}
	var figures [10]sql.Null[int64] // worst, lost, lines, optimal, positions for X, then O
	for i, r := range a.Verify {
		for k, v := range []int{int(r.Worst), r.LostLines, r.Lines, r.Optimal, r.Positions} {
			figures[5*i+k] = sql.Null[int64]{V: int64(v), Valid: true}
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO agents (id, kind, name, parent_id, generation, train_games, hidden, weights, created_at,
		x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.Kind, a.Name, parent, a.Generation, a.TrainGames, hidden, weights, a.CreatedAt.Format(time.RFC3339),
		figures[0], figures[1], figures[2], figures[3], figures[4],
		figures[5], figures[6], figures[7], figures[8], figures[9])
	return err
}

// addBuiltins adds random and perfect to a new league. Perfect's figures
// are checked like any agent's, which also shows the checker's ceiling.
func addBuiltins(ctx context.Context, tx *sql.Tx) error {
	now := time.Now().UTC().Truncate(time.Second)
	perfect := agents.Perfect()
	for _, a := range []*Agent{
		{Kind: Random, Name: string(Random), CreatedAt: now},
		{Kind: Perfect, Name: string(Perfect), CreatedAt: now,
			Verify: []verify.Report{verify.Check(perfect, game.X), verify.Check(perfect, game.O)}},
	} {
		if err := addAgent(ctx, tx, a); err != nil {
			return err
		}
	}
	return nil
}

// Agent returns the agent that ref names, with its network: an id, a
// name, best (the network with the highest latest rating, those that
// verify finds unbeatable on both sides first, or the latest network while
// none is rated) or latest (the newest network). It returns
// ErrNotFound for an unknown id or name, and ErrNoCheckpoints for best or
// latest in a league without networks.
func (db *DB) Agent(ctx context.Context, ref string) (a *Agent, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		a, err = findAgent(ctx, tx, ref)
		return err
	})
	return a, err
}

// findAgent resolves ref and reads the agent and its net.
func findAgent(ctx context.Context, tx *sql.Tx, ref string) (*Agent, error) {
	id, err := resolve(ctx, tx, ref)
	if err != nil {
		return nil, err
	}
	a, err := scanAgent(tx.QueryRowContext(ctx, selectAgents+" WHERE a.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, ref)
	}
	if err != nil || !a.Kind.IsNetwork() {
		return a, err
	}
	var weights []byte
	if err := tx.QueryRowContext(ctx, "SELECT weights FROM agents WHERE id = ?", id).Scan(&weights); err != nil {
		return nil, err
	}
	a.Net, err = parseWeights(id, weights)
	return a, err
}

// parseWeights reads a stored network's blob.
func parseWeights(id int64, weights []byte) (*nn.Net, error) {
	n, err := nn.Parse(weights, nn.Inputs)
	if err != nil {
		return nil, fmt.Errorf("agent %d: stored weights: %w", id, err)
	}
	return n, nil
}

// resolve turns an id, a name, best or latest into an id.
func resolve(ctx context.Context, tx *sql.Tx, ref string) (int64, error) {
	var id sql.Null[int64]
	switch ref {
	case Best:
		// Each network's latest rating; ties go to the newer network. A
		// network the exhaustive check finds unbeatable on both sides
		// comes before any that is not: the league's matches start from
		// fixed openings, and a hole that no member's line reaches costs
		// no rating (we have seen a net with 39 losing lines rated 0.2
		// Elo below the top), so the rating alone cannot promise that.
		err := tx.QueryRowContext(ctx, `SELECT a.id FROM agents a
			JOIN ratings r ON r.agent_id = a.id
				AND r.round_id = (SELECT max(round_id) FROM ratings WHERE agent_id = a.id)
			WHERE a.weights IS NOT NULL
			ORDER BY (a.x_worst >= 0 AND a.o_worst >= 0) DESC, r.elo DESC, a.id DESC LIMIT 1`).Scan(&id)
		if err == nil {
			return id.V, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
		return resolve(ctx, tx, Latest)
	case Latest:
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

// Agents returns every agent in id order, without their networks.
func (db *DB) Agents(ctx context.Context) (list []*Agent, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		list, err = listAgents(ctx, tx)
		return err
	})
	return list, err
}

// Nets returns every stored network by agent id: what a league needs to
// resume play against its members.
func (db *DB) Nets(ctx context.Context) (map[int64]*nn.Net, error) {
	nets := make(map[int64]*nn.Net)
	err := db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT id, weights FROM agents WHERE weights IS NOT NULL")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var weights []byte
			if err := rows.Scan(&id, &weights); err != nil {
				return err
			}
			if nets[id], err = parseWeights(id, weights); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	return nets, err
}

func listAgents(ctx context.Context, tx *sql.Tx) ([]*Agent, error) {
	rows, err := tx.QueryContext(ctx, selectAgents+" ORDER BY a.id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []*Agent
	for rows.Next() {
		a, err := scanAgent(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, a)
	}
	return list, rows.Err()
}

// Record returns the agent's wins, draws and losses over its matches.
// For every agent at once, Records is one query instead of one each.
func (db *DB) Record(ctx context.Context, id int64) (t verify.Tally, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		t, err = record(ctx, tx, id)
		return err
	})
	return t, err
}

// Records returns the wins, draws and losses of every agent that has
// played, by id, in one pass over the matches.
func (db *DB) Records(ctx context.Context) (map[int64]verify.Tally, error) {
	records := map[int64]verify.Tally{}
	err := db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT a, b, wins, draws, losses FROM matches")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a, b int64
			var w, d, l int
			if err := rows.Scan(&a, &b, &w, &d, &l); err != nil {
				return err
			}
			ra, rb := records[a], records[b]
			ra.Wins, ra.Draws, ra.Losses = ra.Wins+w, ra.Draws+d, ra.Losses+l
			rb.Wins, rb.Draws, rb.Losses = rb.Wins+l, rb.Draws+d, rb.Losses+w
			records[a], records[b] = ra, rb
		}
		return rows.Err()
	})
	return records, err
}

func record(ctx context.Context, tx *sql.Tx, id int64) (verify.Tally, error) {
	var t verify.Tally
	err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(w), 0), coalesce(sum(d), 0), coalesce(sum(l), 0) FROM (
		SELECT wins AS w, draws AS d, losses AS l FROM matches WHERE a = ?1
		UNION ALL
		SELECT losses, draws, wins FROM matches WHERE b = ?1)`, id).Scan(&t.Wins, &t.Draws, &t.Losses)
	return t, err
}

// selectAgents reads what scanAgent scans: every column but the weights,
// and the agent's latest rating, if any.
const selectAgents = `SELECT a.id, a.kind, a.name, coalesce(a.parent_id, 0), a.generation, a.train_games,
	coalesce(a.hidden, 0), a.created_at,
	a.x_worst, a.x_lost, a.x_lines, a.x_optimal, a.x_positions,
	a.o_worst, a.o_lost, a.o_lines, a.o_optimal, a.o_positions,
	r.round_id, r.elo, r.lo, r.hi, r.games
	FROM agents a LEFT JOIN ratings r ON r.agent_id = a.id
		AND r.round_id = (SELECT max(round_id) FROM ratings WHERE agent_id = a.id)`

// scanAgent reads one row of selectAgents.
func scanAgent(row interface{ Scan(...any) error }) (*Agent, error) {
	var (
		a       Agent
		created string
		figures [10]sql.Null[int64]
		round   sql.Null[int64]
		elo     [3]sql.Null[float64]
		games   sql.Null[int64]
	)
	err := row.Scan(&a.ID, &a.Kind, &a.Name, &a.ParentID, &a.Generation, &a.TrainGames, &a.Hidden, &created,
		&figures[0], &figures[1], &figures[2], &figures[3], &figures[4],
		&figures[5], &figures[6], &figures[7], &figures[8], &figures[9],
		&round, &elo[0], &elo[1], &elo[2], &games)
	if err != nil {
		return nil, err
	}
	if a.CreatedAt, err = time.Parse(time.RFC3339, created); err != nil {
		return nil, fmt.Errorf("agent %d: created_at: %w", a.ID, err)
	}
	if figures[0].Valid {
		for i, side := range []game.Side{game.X, game.O} {
			f := figures[5*i : 5*i+5]
			a.Verify = append(a.Verify, verify.Report{Side: side, Worst: game.Value(f[0].V),
				LostLines: int(f[1].V), Lines: int(f[2].V), Optimal: int(f[3].V), Positions: int(f[4].V)})
		}
	}
	if round.Valid {
		a.Rating = &Rating{Agent: a.ID, Round: round.V, Elo: elo[0].V, Lo: elo[1].V, Hi: elo[2].V, Games: int(games.V)}
	}
	return &a, nil
}
