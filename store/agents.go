package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"ttt/agents/game"
)

// Kind is what an agent is: one of the kinds below, which the store keeps
// in their own ways (a model's weights, a searched agent's parent), or a
// game's built-in player, whose kind the game names (agents.Builtin) and
// the store keeps as it is given.
type Kind string

// The kinds of agents that play a model. Checkpoint, Baseline and
// Imported learned theirs (networks, tables of values, n-tuple
// networks), and Searched plays another agent's model with a search.
const (
	Checkpoint Kind = "checkpoint" // a frozen snapshot of the league's learner
	Baseline   Kind = "baseline"   // a net from ttt train, ttt-rl's method
	Imported   Kind = "imported"   // a net read from a plain weight file
	Searched   Kind = "searched"   // another agent's model, played with a search
)

// kinds are the kinds that the schema's agents table admits: the games'
// built-in players' and the four above. A name of the league's own
// (ownName) may begin with any of them. A test holds this list to the
// schema's and to the games' built-in players.
var kinds = []Kind{"random", "perfect", "tactician", "mcts", "solver", Checkpoint, Baseline, Imported, Searched}

// Learned reports whether agents of kind k learned their model (a
// network, a table of values, an n-tuple network): checkpoints,
// baselines and imported models.
func (k Kind) Learned() bool { return k == Checkpoint || k == Baseline || k == Imported }

// PlaysModel reports whether agents of kind k play a learned model: the
// learned kinds, and the searched agents, which play their parent's.
func (k Kind) PlaysModel() bool { return k.Learned() || k == Searched }

// Words that name an agent by role rather than by id or name: no agent
// may take them as its name. The store resolves latest (Agent); the
// league resolves best, by its rule (league.Agent).
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
	// with it: the file was damaged under SQLite. It is ErrCorrupt too.
	ErrChecksum error = checksumError{}
)

// checksumError is ErrChecksum: a damaged file, which says what of it is
// damaged after the blob's name.
type checksumError struct{}

func (checksumError) Error() string        { return "damaged: its checksum does not match" }
func (checksumError) Is(target error) bool { return target == ErrCorrupt }

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
	game.Facts
	// Classed keeps Facts.Class with the agent; without it the agent
	// has no class. The league says which agents have one.
	Classed bool

	// Standing is its rating and record now; nil while it is unrated.
	Standing *Standing

	// Weights is the model as its method stores it (the league reads it
	// back with the method's decoder): Agent fills it in, listings leave
	// it nil.
	Weights []byte
	// Compiled is the model compiled into a table of its moves, its move
	// in every position where a move is due, in the order the league
	// numbers them (agents.Kit.Compile; the store keeps the bytes as
	// they are given), where its game is small enough. AddAgent stores
	// it; Compiled reads it back.
	Compiled []byte
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
	if err := markJournal(ctx, tx); err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
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
// It is made from kinds, so that it names every kind there is.
var ownName = func() *regexp.Regexp {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = regexp.QuoteMeta(string(k))
	}
	return regexp.MustCompile(`^(` + strings.Join(names, "|") + `)-[0-9]+$`)
}()

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
	if a.Compiled != nil {
		moves = deflate(a.Compiled)
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
	if a.Classed {
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
		for i, sc := range []game.Score{s.All, s.Early, s.Middle, s.Late} {
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
