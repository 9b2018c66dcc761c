package store

import (
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"ttt/agents/game"
	"ttt/agents/verify"
)

// Kind is what an agent is.
type Kind string

// The kinds of agents. Checkpoint, Baseline and Imported are networks;
// the others are the built-in players of a game's leagues: random in
// every one, perfect in tic-tac-toe's, the tactician, the MCTS ladder and
// the solver in Connect Four's.
const (
	Random     Kind = "random"     // a uniformly random legal move: the scale's 0
	Perfect    Kind = "perfect"    // exact minimax: the ceiling
	Tactician  Kind = "tactician"  // wins at once, else blocks, else the centre
	MCTS       Kind = "mcts"       // Monte Carlo tree search with random playouts
	Solver     Kind = "solver"     // the exact solver, within a budget
	Checkpoint Kind = "checkpoint" // a frozen snapshot of the league's learner
	Baseline   Kind = "baseline"   // a net from ttt train, ttt-rl's method
	Imported   Kind = "imported"   // a net read from a plain weight file
	Searched   Kind = "searched"   // another agent's model, played with a search
)

// Learned reports whether agents of kind k learned their model (a
// network, a table of values, an n-tuple network): checkpoints,
// baselines and imported models.
func (k Kind) Learned() bool { return k == Checkpoint || k == Baseline || k == Imported }

// PlaysModel reports whether agents of kind k play a learned model: the
// learned kinds, and the searched agents, which play their parent's.
func (k Kind) PlaysModel() bool { return k.Learned() || k == Searched }

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
	// ErrBadName: a name that would be confused with an id, a role or a
	// name the league gives its own agents.
	ErrBadName = errors.New("bad agent name")
	// ErrNameTaken: another agent already has the name.
	ErrNameTaken = errors.New("an agent with that name exists")
	// ErrChecksum: a stored blob no longer matches the checksum stored
	// with it: the file was damaged under SQLite.
	ErrChecksum = errors.New("damaged: its checksum does not match")
)

// Agent is a stored player.
type Agent struct {
	ID         int64
	Kind       Kind
	Name       string
	ParentID   int64 // the agent it was trained on from; 0 for none
	Generation int   // the league round that made it; 0 outside the league
	TrainGames int64 // the training games behind the model
	Hidden     int   // a network's hidden units; 0 for the built-in players and other models
	// Method is how it learned (policy, tdlambda, table,
	// selfplay-table, ntuple), which says how to read its Weights;
	// empty for the built-in players. A searched agent's are its
	// parent's.
	Method string
	// Search is a searched agent's search (ab4, mcts800), empty for the
	// others: it plays the model of its parent (ParentID) with it.
	Search    string
	CreatedAt time.Time

	// The facts the league reads about a player, computed before it is
	// stored: frozen agents never change.
	verify.Facts

	// Standing is its rating and record now; nil while it is unrated.
	Standing *Standing

	// Weights is the model as its method stores it (the league reads it
	// back with the method's decoder): Agent fills it in, listings leave
	// it nil.
	Weights []byte
	// Moves is the model's move in every position where a move is due,
	// in the order the league numbers them (the store keeps the bytes as
	// they are given). AddAgent stores it; Moves reads it back.
	Moves []byte
}

// Standing is an agent's rating and record after the latest round.
type Standing struct {
	HistoryRow             // Elo the fit's (within StandingStep), round and interval its last history row's; Games: all it has played
	Record     game.Record // over all its matches
}

// HistoryRow is an agent's rating after a round: a row of the history.
type HistoryRow struct {
	Agent  int64
	Round  int64
	Elo    float64
	Lo, Hi float64 // the 95% interval
	Games  int     // the games the rating rests on
}

// AddAgent stores the model a.Weights of method a.Method as a new agent
// of kind a.Kind (a kind that learns: checkpoint, baseline or imported)
// with a's name, parent, generation, training games, hidden units and
// facts, which the caller computes (a.Verify, a.Class, a.VsRandom,
// a.Moves). It fills in a's ID, Name (kind-ID when it was empty) and
// CreatedAt. It returns ErrBadName or ErrNameTaken for a name that
// cannot be used.
func (db *DB) AddAgent(ctx context.Context, a *Agent) error {
	if err := a.prepare(); err != nil {
		return err
	}
	if a.Name != "" {
		if err := CheckName(a.Name); err != nil {
			return err
		}
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
	defer tx.Rollback()
	if err := addAgent(ctx, tx, a); err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
	return db.secondLook(ctx, translate(tx.Commit()), false)
}

// prepare checks that an agent that learns comes with its model, its
// method and its facts, and stamps the time.
func (a *Agent) prepare() error {
	switch {
	case a.Kind == Searched && (a.ParentID == 0 || a.Search == "" || a.Weights != nil):
		return fmt.Errorf("cannot store a searched agent without its parent and its search, or with weights")
	case a.Kind == Searched && len(a.Verify) != 2 && a.Shares == nil:
		return fmt.Errorf("cannot store a searched agent without the facts of its check")
	case a.Kind == Searched:
	case !a.Kind.Learned() || len(a.Weights) == 0:
		return fmt.Errorf("cannot store a %s agent: only models that learned are stored", a.Kind)
	case a.Method == "":
		return fmt.Errorf("cannot store a model without its method")
	case (len(a.Verify) != 2 || len(a.VsRandom) != 2) && a.Shares == nil:
		return fmt.Errorf("cannot store a model without the facts of its check")
	}
	a.CreatedAt = time.Now().UTC().Truncate(time.Second)
	return nil
}

// ownName matches the names the league gives its agents (kind-id), which
// only the league may give, or a name could block the agent it is due to.
var ownName = regexp.MustCompile(`^(random|perfect|tactician|mcts|solver|checkpoint|baseline|imported|searched)-[0-9]+$`)

// CheckName refuses names that `ttt show NAME` could not tell from an id
// or from best and latest, names that look like a flag, names the league
// gives its own agents, and names that do not print as one word.
func CheckName(name string) error {
	_, errInt := strconv.ParseInt(name, 10, 64)
	switch {
	case name == "":
		return fmt.Errorf("%w: empty", ErrBadName)
	case name == Best || name == Latest:
		return fmt.Errorf("%w %q: it names a role", ErrBadName, name)
	case errInt == nil || strings.Trim(name, "0123456789") == "":
		return fmt.Errorf("%w %q: it would read as an id", ErrBadName, name)
	case strings.HasPrefix(name, "-"):
		return fmt.Errorf("%w %q: it would read as a flag", ErrBadName, name)
	case strings.Contains(name, "@"):
		return fmt.Errorf("%w %q: @ is how a search is named (best@ab4)", ErrBadName, name)
	case ownName.MatchString(name):
		return fmt.Errorf("%w %q: names of the form kind-number are the league's own", ErrBadName, name)
	case len(name) > 100:
		return fmt.Errorf("%w: %d bytes is too long (100 at most)", ErrBadName, len(name))
	case strings.IndexFunc(name, func(r rune) bool { return !unicode.IsGraphic(r) || unicode.IsSpace(r) }) >= 0:
		return fmt.Errorf("%w %q: use letters, digits and punctuation, no spaces", ErrBadName, name)
	}
	return nil
}

// crc is the checksum of blobs: CRC-32C, which the CPU computes.
var crc = crc32.MakeTable(crc32.Castagnoli)

// addAgent inserts a with the id after the last one. An empty name becomes
// kind-id, which no other agent can have: CheckName keeps that form for
// the league, and ids are never reused.
func addAgent(ctx context.Context, tx *sql.Tx, a *Agent) error {
	// Write transactions begin IMMEDIATE (dsnQuery), so the id read here
	// is still free at the insert.
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) + 1 FROM agents").Scan(&a.ID); err != nil {
		return err
	}
	var search sql.Null[string]
	switch {
	case a.Kind == Searched:
		// Named after what it plays: its parent's name and the search.
		var parent string
		if err := tx.QueryRowContext(ctx, "SELECT name FROM agents WHERE id = ? AND weights IS NOT NULL", a.ParentID).Scan(&parent); err != nil {
			return fmt.Errorf("the parent of a searched agent, agent %d: %w", a.ParentID, err)
		}
		a.Name, search = parent+"@"+a.Search, sql.Null[string]{V: a.Search, Valid: true}
	case a.Name == "":
		a.Name = fmt.Sprintf("%s-%d", a.Kind, a.ID)
	}
	var taken bool
	if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM agents WHERE name = ?)", a.Name).Scan(&taken); err != nil {
		return err
	}
	if taken {
		return fmt.Errorf("%w: %q", ErrNameTaken, a.Name)
	}

	var moves []byte
	var hidden, parent, class, weightsCRC, movesCRC sql.Null[int64]
	var method sql.Null[string]
	weights := a.Weights
	if a.Hidden != 0 {
		hidden = sql.Null[int64]{V: int64(a.Hidden), Valid: true}
	}
	if weights != nil {
		weightsCRC = sql.Null[int64]{V: int64(crc32.Checksum(weights, crc)), Valid: true}
		method = sql.Null[string]{V: a.Method, Valid: true}
	}
	if a.Moves != nil {
		moves = deflate(a.Moves)
		movesCRC = sql.Null[int64]{V: int64(crc32.Checksum(moves, crc)), Valid: true}
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
	if a.Verify != nil {
		class = sql.Null[int64]{V: int64(a.Class), Valid: true}
	}
	var odds [6]sql.Null[float64] // win, draw and loss for X, then O
	for i, o := range a.VsRandom {
		for k, v := range []float64{o.Win, o.Draw, o.Loss} {
			odds[3*i+k] = sql.Null[float64]{V: v, Valid: true}
		}
	}
	var shares [8]sql.Null[int64] // optimal and positions: all, early, middle, late
	var random [2]sql.Null[int64] // optimal and positions
	if r := a.Random; r != nil {
		random[0], random[1] = sql.Null[int64]{V: int64(r.Optimal), Valid: true}, sql.Null[int64]{V: int64(r.Positions), Valid: true}
	}
	if s := a.Shares; s != nil {
		if a.Kind.PlaysModel() {
			class = sql.Null[int64]{V: int64(verify.Beatable), Valid: true}
		}
		for i, sc := range []verify.Score{s.All, s.Early, s.Middle, s.Late} {
			shares[2*i] = sql.Null[int64]{V: int64(sc.Optimal), Valid: true}
			shares[2*i+1] = sql.Null[int64]{V: int64(sc.Positions), Valid: true}
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO agents (id, kind, name, parent_id, generation, train_games, hidden, method, created_at, class,
		x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
		x_win, x_draw, x_loss, o_win, o_draw, o_loss,
		set_optimal, set_positions, early_optimal, early_positions, middle_optimal, middle_positions, late_optimal, late_positions,
		random_optimal, random_positions, moves_crc, weights_crc, moves, weights, search)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.Kind, a.Name, parent, a.Generation, a.TrainGames, hidden, method, a.CreatedAt.Format(time.RFC3339), class,
		figures[0], figures[1], figures[2], figures[3], figures[4],
		figures[5], figures[6], figures[7], figures[8], figures[9],
		odds[0], odds[1], odds[2], odds[3], odds[4], odds[5],
		shares[0], shares[1], shares[2], shares[3], shares[4], shares[5], shares[6], shares[7],
		random[0], random[1], movesCRC, weightsCRC, moves, weights, search)
	return err
}

// deflate compresses a move table: a net plays one of a few squares in
// most positions, and the 4,520 bytes shrink to about 1.5 KB.
func deflate(data []byte) []byte {
	var buf bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&buf)
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

// deflaters keeps flate writers for reuse: a new one allocates most of a
// megabyte, and a league stores a table every round all night.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestCompression) // the level is valid
	return w
}}

// maxMoves bounds an inflated move table, so that a damaged or hostile
// blob cannot inflate to gigabytes: a table is 4,520 bytes.
const maxMoves = 1 << 16

// inflate undoes deflate.
func inflate(data []byte) ([]byte, error) {
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(data), nil); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	_, err := out.ReadFrom(io.LimitReader(r, maxMoves+1))
	if err == nil && out.Len() > maxMoves {
		err = errors.New("too long")
	}
	return out.Bytes(), err
}

// inflaters keeps flate readers for reuse: a new one allocates its 32 KB
// window, and a round reads the tables of the members its cache misses.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// Setup is what a new league starts with: its game, and the game's
// built-in players, named, with the facts of their checks. Random must be
// among them: it is the ratings' 0.
type Setup struct {
	Game     game.Game
	Builtins []*Agent
}

// setUp stores the game of a new league and its built-in players.
func setUp(ctx context.Context, tx *sql.Tx, s Setup) error {
	if _, err := tx.ExecContext(ctx, "UPDATE league SET game = ?", s.Game.Name()); err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Second)
	for _, a := range s.Builtins {
		a.CreatedAt = now
		if err := addAgent(ctx, tx, a); err != nil {
			return err
		}
	}
	return nil
}

// Agent returns the agent that ref names, with its network and standing:
// an id, a name, best or latest. Best is the rated network first by the
// best rule (bestOrder: class, share, the lower end of its interval, the
// newest); the latest network while none is rated. Latest
// is the newest network. It returns ErrNotFound for an unknown id or
// name, ErrNoCheckpoints for best or latest in a league without networks,
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

// checkBlob checks a blob against its stored checksum.
func checkBlob(blob []byte, sum sql.Null[int64]) error {
	if !sum.Valid {
		return fmt.Errorf("%w: none is stored", ErrChecksum)
	}
	if got := int64(crc32.Checksum(blob, crc)); got != sum.V {
		return ErrChecksum
	}
	return nil
}

// resolve turns an id, a name, best or latest into an id.
func resolve(ctx context.Context, tx *sql.Tx, ref string) (int64, error) {
	var id sql.Null[int64]
	switch ref {
	case Best:
		err := tx.QueryRowContext(ctx, "SELECT agent_id FROM standings s WHERE class IS NOT NULL "+bestOrder+" LIMIT 1").Scan(&id)
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

// Moves returns the stored move tables of the networks ids, by id, after
// checking their checksums. A network stored without one (an agent of
// schema 1) has none in the map: the caller computes it from the net.
func (db *DB) Moves(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	tables := make(map[int64][]byte, len(ids))
	err := db.blobs(ctx, "moves", "move table", ids, func(id int64, _ string, blob []byte, _ string) (err error) {
		if tables[id], err = inflate(blob); err != nil {
			return fmt.Errorf("%w: %v", ErrChecksum, err)
		}
		return nil
	})
	return tables, err
}

// Stored is a model as the store keeps it: its method and its bytes,
// and for a searched agent, which plays its parent's model, the search.
type Stored struct {
	Method  string
	Weights []byte
	Search  string
}

// Models returns the stored models of the agents ids, by id, after
// checking their checksums; an agent whose weights were pruned, or that
// has none (a built-in player), has none in the map.
func (db *DB) Models(ctx context.Context, ids []int64) (map[int64]Stored, error) {
	models := make(map[int64]Stored, len(ids))
	err := db.blobs(ctx, "weights", "stored weights", ids, func(id int64, method string, blob []byte, search string) error {
		if len(blob) > 0 {
			models[id] = Stored{Method: method, Weights: blob, Search: search}
		}
		return nil
	})
	return models, err
}

// EachModel hands each to every stored model, in the order of the
// agents' ids, with the agent's name; a model whose checksum does not
// match is skipped (Check says so), and so is a checkpoint whose weights
// ttt prune dropped.
func (db *DB) EachModel(ctx context.Context, each func(id int64, name string, m Stored) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, name, coalesce(method, ''), weights, weights_crc FROM agents
			WHERE length(weights) > 0 ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var (
			id   int64
			name string
			m    Stored
			sum  sql.Null[int64]
		)
		return scanEach(ctx, rows, []any{&id, &name, &m.Method, &m.Weights, &sum}, func() error {
			if checkBlob(m.Weights, sum) != nil {
				return nil
			}
			return each(id, name, m)
		})
	})
}

// blobs reads the blob column (moves or weights) of the agents ids, checks
// each against its checksum (column_crc) and hands it to each; an agent
// with none (random, perfect, or a schema-1 agent's moves) is skipped.
// each also gets the agent's method, which says how to read its weights,
// and its search: a searched agent's weights and method are its
// parent's, its moves its own. Errors name the agent and the blob as
// what.
func (db *DB) blobs(ctx context.Context, column, what string, ids []int64, each func(id int64, method string, blob []byte, search string) error) error {
	from := "a.id"
	if column == "weights" {
		from = "CASE WHEN a.kind = 'searched' THEN a.parent_id ELSE a.id END"
	}
	return db.read(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, "SELECT b."+column+", b."+column+"_crc, coalesce(b.method, ''), coalesce(a.search, '') "+
			"FROM agents a JOIN agents b ON b.id = "+from+" WHERE a.id = ?")
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, id := range ids {
			var blob []byte
			var sum sql.Null[int64]
			var method, search string
			if err := stmt.QueryRowContext(ctx, id).Scan(&blob, &sum, &method, &search); err != nil {
				return fmt.Errorf("agent %d: %w", id, err)
			}
			if blob == nil {
				continue
			}
			if err := checkBlob(blob, sum); err != nil {
				return fmt.Errorf("agent %d: %s: %w", id, what, err)
			}
			if err := each(id, method, blob, search); err != nil {
				return fmt.Errorf("agent %d: %s: %w", id, what, err)
			}
		}
		return nil
	})
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
	a.Class = verify.Class(class.V)
	if figures[0].Valid {
		for i, side := range []game.Side{game.X, game.O} {
			f := figures[5*i : 5*i+5]
			a.Verify = append(a.Verify, verify.Report{Side: side, Worst: game.Value(f[0].V),
				LostLines: int(f[1].V), Lines: int(f[2].V), Optimal: int(f[3].V), Positions: int(f[4].V)})
		}
	}
	if odds[0].Valid {
		for i := range 2 {
			a.VsRandom = append(a.VsRandom, verify.Expect{Win: odds[3*i].V, Draw: odds[3*i+1].V, Loss: odds[3*i+2].V})
		}
	}
	if shares[1].Valid {
		sc := func(i int) verify.Score {
			return verify.Score{Optimal: int(shares[i].V), Positions: int(shares[i+1].V)}
		}
		a.Shares = &verify.Shares{All: sc(0), Early: sc(2), Middle: sc(4), Late: sc(6)}
	}
	if random[1].Valid {
		a.Random = &verify.Score{Optimal: int(random[0].V), Positions: int(random[1].V)}
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

// Member is what a league keeps of an agent between rounds: its id, kind
// and the round that made it, its last history row (Round 0 while it is
// unrated), from which the league decides its next one, and the Elo its
// standing shows, the fit's.
type Member struct {
	ID     int64
	Kind   Kind
	Method string // empty for the built-in players
	Round  int64
	Shown  HistoryRow
	Elo    float64
}

// Members hands every agent with an id above after to each, in id order,
// as a league keeps it: the load of a league of 100,000 agents reads no
// more of them than that, into one place made once.
func (db *DB) Members(ctx context.Context, after int64, each func(Member) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		// A standing's round is that of its agent's last history row.
		rows, err := tx.QueryContext(ctx, `SELECT a.id, a.kind, coalesce(a.method, ''), a.generation,
			coalesce(h.round_id, 0), coalesce(h.elo, 0), coalesce(h.lo, 0), coalesce(h.hi, 0), coalesce(h.games, 0),
			coalesce(s.elo, 0)
			FROM agents a LEFT JOIN standings s ON s.agent_id = a.id
			LEFT JOIN history h ON h.agent_id = s.agent_id AND h.round_id = s.round_id
			WHERE a.id > ? ORDER BY a.id`, after)
		if err != nil {
			return err
		}
		defer rows.Close()
		var m Member
		return scanEach(ctx, rows, []any{&m.ID, &m.Kind, &m.Method, &m.Round, &m.Shown.Round, &m.Shown.Elo, &m.Shown.Lo, &m.Shown.Hi, &m.Shown.Games, &m.Elo}, func() error {
			m.Shown.Agent = m.ID
			return each(m)
		})
	})
}

// Builtins returns the names of the league's built-in players (every
// agent that is not a network), by id. They are made with the league, so
// they are among its first agents: reading those is enough.
func (db *DB) Builtins(ctx context.Context) (map[int64]string, error) {
	names := map[int64]string{}
	err := db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, name FROM (SELECT id, name, kind FROM agents ORDER BY id LIMIT 32)
			WHERE kind NOT IN ('checkpoint', 'baseline', 'imported', 'searched')`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var id int64
		var name string
		return scanEach(ctx, rows, []any{&id, &name}, func() error {
			names[id] = name
			return nil
		})
	})
	return names, err
}

// SetShares are an agent's scores on the position sets: the tactical
// set's, and the random-ply set's, nil for an agent measured before that
// set.
type SetShares struct {
	Tactical verify.Score
	Random   *verify.Score
}

// Shares returns the position-set scores of the agents ids that have
// them, by id: a learning curve's second measure, read without the
// networks.
func (db *DB) Shares(ctx context.Context, ids []int64) (map[int64]SetShares, error) {
	var out map[int64]SetShares
	err := db.View(ctx, func(v *View) (err error) {
		out, err = v.Shares(ids)
		return err
	})
	return out, err
}

// Shares is DB.Shares, in the view: both sets' columns in one read of
// each agent's row.
func (v *View) Shares(ids []int64) (map[int64]SetShares, error) {
	out := map[int64]SetShares{}
	stmt, err := v.tx.PrepareContext(v.ctx, `SELECT set_optimal, set_positions, random_optimal, random_positions
		FROM agents WHERE id = ? AND set_positions IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	for _, id := range ids {
		var (
			s      SetShares
			random [2]sql.Null[int64] // optimal and positions
		)
		switch err := stmt.QueryRowContext(v.ctx, id).Scan(&s.Tactical.Optimal, &s.Tactical.Positions, &random[0], &random[1]); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, fmt.Errorf("agent %d: %w", id, err)
		default:
			if random[1].Valid {
				s.Random = &verify.Score{Optimal: int(random[0].V), Positions: int(random[1].V)}
			}
			out[id] = s
		}
	}
	return out, nil
}
