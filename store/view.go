package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"ttt/agents/game"
)

// The reads of ttt serve, which answers a browser every few hundred
// milliseconds while a league runs and must stay fast at 100,000 rounds:
// each reads a handful of rows by key, never a whole table.

// View reads the league as it is at one moment: every read through it is
// in one read transaction, so that an answer made of several reads (the
// newest round and the standings, an agent and which agent is best) is of
// one state of the league, whatever a league run commits meanwhile.
type View struct {
	ctx  context.Context
	tx   *sql.Tx
	game game.Game
}

// View runs fn on a View of the league, in one read transaction, which in
// WAL mode never waits for the league's writer. The View is good only
// until fn returns.
func (db *DB) View(ctx context.Context, fn func(*View) error) error {
	return db.read(ctx, func(tx *sql.Tx) error { return fn(&View{ctx: ctx, tx: tx, game: db.game}) })
}

// Game is the league's game.
func (v *View) Game() game.Game { return v.game }

// Agent is DB.Agent, in the view: a checkpoint that ttt prune thinned
// out comes with ErrPruned, without its network.
func (v *View) Agent(ref string) (*Agent, error) {
	a, err := findAgent(v.ctx, v.tx, v.game, ref)
	if (err == nil || errors.Is(err, ErrPruned)) && a.Standing != nil {
		if bad := a.Standing.HistoryRow.check(); bad != nil {
			err = bad
		}
	}
	if err != nil && !errors.Is(err, ErrPruned) {
		return nil, err
	}
	return a, err
}

// Pruned returns which of the agents ids are checkpoints whose weights
// ttt prune dropped: what a listing that offers to play them must know.
// It reads each agent's row by key, and the length of its weights, not
// the weights.
func (v *View) Pruned(ids []int64) (map[int64]bool, error) {
	pruned := map[int64]bool{}
	if len(ids) == 0 {
		return pruned, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := v.tx.QueryContext(v.ctx, "SELECT id FROM agents WHERE length(weights) = 0 AND id IN (?"+strings.Repeat(", ?", len(ids)-1)+")", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		pruned[id] = true
	}
	return pruned, rows.Err()
}

// AgentName is what names an agent: its id, its name and its kind.
type AgentName struct {
	ID   int64
	Name string
	Kind Kind
}

// Name resolves ref as Agent does (an id, a name or latest) and
// reads only the agent's name and kind: a page that names an agent (its
// parent, the best one) need not read its network. It returns
// ErrNotFound and ErrNoCheckpoints as Agent does.
func (v *View) Name(ref string) (AgentName, error) {
	id, err := resolve(v.ctx, v.tx, ref)
	if err != nil {
		return AgentName{}, err
	}
	n := AgentName{ID: id}
	err = v.tx.QueryRowContext(v.ctx, "SELECT name, kind FROM agents WHERE id = ?", id).Scan(&n.Name, &n.Kind)
	if errors.Is(err, sql.ErrNoRows) {
		return AgentName{}, fmt.Errorf("%w: %q", ErrNotFound, ref)
	}
	return n, err
}

// NewestRound returns the id of the newest committed round, 0 when the
// league has played none. It reads only the end of the rounds table's
// key, so that pages can ask it often to see a new round (LastRound
// reads and checks the learner's state besides).
func (db *DB) NewestRound(ctx context.Context) (id int64, err error) {
	err = db.View(ctx, func(v *View) (err error) {
		id, err = v.NewestRound()
		return err
	})
	return id, err
}

// NewestRound is DB.NewestRound, in the view.
func (v *View) NewestRound() (int64, error) {
	var last sql.Null[int64]
	err := v.tx.QueryRowContext(v.ctx, "SELECT max(id) FROM rounds").Scan(&last)
	return last.V, err
}

// Opponent is an agent's record against one of its opponents, from the
// agent's side: Record.Wins are the games the agent won. First is its
// record in the games it moved first, where the league keeps it (a match
// with a built-in player, see Match.First), nil elsewhere.
type Opponent struct {
	AgentName
	Record game.Record
	First  *game.Record
}

// Second is o's record in the games the agent moved second, where First
// is known.
func (o Opponent) Second() game.Record { return o.Record.Minus(*o.First) }

// Opponents returns up to limit of agent's opponents with ids above
// after, in id order, each with agent's record against it. A pair's
// match is one row, keyed by its newer agent (a > b, a's record), so
// the opponents older than agent are its rows as a, in the order of the
// matches key, and the newer ones its rows as b, in the order of
// matches_by_b, their records reversed: two range scans that stop at
// limit rows, however many opponents agent has (perfect plays every
// snapshot: 100,000 of them in a league of a night). A page goes on from
// the last id of the page before. The built-in players, which have the
// first ids, are the first page of a network's opponents.
func (v *View) Opponents(agent, after int64, limit int) ([]Opponent, error) {
	// CROSS JOIN keeps matches the outer loop, read in key order with
	// LIMIT; SQLite might otherwise walk the agents and look each up. The
	// sides row, where there is one, is A's record moving first.
	scans := []struct {
		query string
		asB   bool
	}{
		{`SELECT g.id, g.name, g.kind, m.wins, m.draws, m.losses, s.wins, s.draws, s.losses
			FROM matches m CROSS JOIN agents g ON g.id = m.b LEFT JOIN sides s ON s.a = m.a AND s.b = m.b
			WHERE m.a = ? AND m.b > ? ORDER BY m.b LIMIT ?`, false},
		{`SELECT g.id, g.name, g.kind, m.wins, m.draws, m.losses, s.wins, s.draws, s.losses
			FROM matches m CROSS JOIN agents g ON g.id = m.a LEFT JOIN sides s ON s.a = m.a AND s.b = m.b
			WHERE m.b = ? AND m.a > ? ORDER BY m.a LIMIT ?`, true},
	}
	list := []Opponent{}
	for _, scan := range scans {
		if len(list) >= limit {
			break
		}
		rows, err := v.tx.QueryContext(v.ctx, scan.query, agent, after, limit-len(list))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var o Opponent
			var first [3]sql.Null[int64]
			if err := rows.Scan(&o.ID, &o.Name, &o.Kind, &o.Record.Wins, &o.Record.Draws, &o.Record.Losses,
				&first[0], &first[1], &first[2]); err != nil {
				rows.Close()
				return nil, err
			}
			if first[0].Valid {
				o.First = &game.Record{Wins: int(first[0].V), Draws: int(first[1].V), Losses: int(first[2].V)}
			}
			if scan.asB {
				// Rows of the newer agent: the agent moved first where A
				// moved second.
				if o.First != nil {
					*o.First = o.Record.Minus(*o.First).Reversed()
				}
				o.Record = o.Record.Reversed()
			}
			list = append(list, o)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// Sides returns agent's records by side against the built-in players,
// where the league kept them (see Match.First), in the order of their
// ids. The built-in players have the first ids (at most 32 of them, as
// Builtins reads them), so they are the first of a network's opponents.
func (v *View) Sides(agent int64) ([]Opponent, error) {
	list, err := v.Opponents(agent, 0, 32)
	if err != nil {
		return nil, err
	}
	var out []Opponent
	for _, o := range list {
		if o.First != nil && !o.Kind.Learned() {
			out = append(out, o)
		}
	}
	return out, nil
}

// OpponentCount returns how many opponents agent has played: a count of
// its rows in the matches key and in matches_by_b, each a range of the
// index that SQLite counts without reading the rows.
func (v *View) OpponentCount(agent int64) (n int, err error) {
	err = v.tx.QueryRowContext(v.ctx, "SELECT (SELECT count(*) FROM matches WHERE a = ?) + (SELECT count(*) FROM matches WHERE b = ?)",
		agent, agent).Scan(&n)
	return n, err
}

// RoundTimes returns when each of the newest n rounds started and
// finished, the newest first: what serve's league health reckons its
// pace from, the end of the rounds key whatever the league's size. A
// round of schema 1, which did not store its end, has a zero Finished.
func (v *View) RoundTimes(n int) ([]RoundTime, error) {
	rows, err := v.tx.QueryContext(v.ctx, "SELECT started_at, finished_at FROM rounds ORDER BY id DESC LIMIT ?", n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RoundTime
	for rows.Next() {
		var started string
		var finished sql.Null[string]
		if err := rows.Scan(&started, &finished); err != nil {
			return nil, err
		}
		var rt RoundTime
		if rt.Started, err = time.Parse(time.RFC3339Nano, started); err != nil {
			return nil, fmt.Errorf("a round's start %q: %w", started, err)
		}
		if finished.Valid {
			if rt.Finished, err = time.Parse(time.RFC3339Nano, finished.V); err != nil {
				return nil, fmt.Errorf("a round's end %q: %w", finished.V, err)
			}
		}
		out = append(out, rt)
	}
	return out, rows.Err()
}

// RoundTime is when a round started and finished.
type RoundTime struct{ Started, Finished time.Time }

// Writer returns the pid of the process that holds the league lock of
// db's file, a ttt league run or roundrobin at work, or 0 when none does
// (LockHolder). It only reads the system's list of locks.
func (db *DB) Writer() int { return LockHolder(db.abs) }

// Listing is a view of the leaderboard: which rated agents, in which
// order, which page of them.
type Listing struct {
	// Sort is a column of LeaderboardSorts; "" is elo. Desc puts the
	// largest first.
	Sort string
	Desc bool
	// Name keeps the agents whose name holds it (any case); Class the
	// networks of that class (a tic-tac-toe check); MinGames those that
	// have played that many games at least.
	Name     string
	Class    *game.Class
	MinGames int
	// NoSearched leaves out the searched agents (a model with a search
	// around it), which can fill the top of a league run with --search.
	NoSearched bool
	Offset     int
	Limit      int
}

// notSearched is the filter of Listing.NoSearched: the few searched
// agents, found once, rather than a look-up of every standing's agent.
const notSearched = "s.agent_id NOT IN (SELECT id FROM agents WHERE kind = 'searched')"

// LeaderboardSorts are the columns a Listing sorts by, and their SQL.
var LeaderboardSorts = map[string]string{
	"id": "s.agent_id", "name": "a.name", "class": "s.class", "share": "s.share",
	"elo": "s.elo", "lo": "s.lo", "hi": "s.hi", "games": "s.wins + s.draws + s.losses",
	"wins": "s.wins", "draws": "s.draws", "losses": "s.losses",
}

// Leaderboard returns the page of rated agents that l asks for, how
// many agents l's filters keep, and how many are rated. The default order, Elo from the top
// without filters, reads the standings_by_elo index, and a page deep in
// it skips index entries only; another order or a filter reads every
// standing (a few tens of milliseconds at 100,000).
func (v *View) Leaderboard(l Listing) (list []*Agent, matched, rated int, err error) {
	col, ok := LeaderboardSorts[cmp.Or(l.Sort, "elo")]
	if !ok {
		return nil, 0, 0, fmt.Errorf("cannot sort by %q", l.Sort)
	}
	var where []string
	var args []any
	if l.Name != "" {
		escaped := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(l.Name)
		where, args = append(where, `a.name LIKE ? ESCAPE '\'`), append(args, "%"+escaped+"%")
	}
	if l.Class != nil {
		where, args = append(where, "s.class = ?"), append(args, int(*l.Class))
	}
	if l.MinGames > 0 {
		where, args = append(where, "s.wins + s.draws + s.losses >= ?"), append(args, l.MinGames)
	}
	if l.NoSearched {
		where = append(where, notSearched)
	}
	filter := ""
	if len(where) > 0 {
		filter = "WHERE " + strings.Join(where, " AND ")
	}
	// The agents are joined only where the name is asked for, and then
	// read first, through the index of their names (CROSS JOIN keeps
	// that order): a look-up of each agent's row, with its network,
	// would take a second at 100,000.
	from := "standings s"
	if l.Name != "" || col == "a.name" {
		from = "agents a CROSS JOIN standings s ON s.agent_id = a.id"
	}
	if err := v.tx.QueryRowContext(v.ctx, "SELECT count(*) FROM standings").Scan(&rated); err != nil {
		return nil, 0, 0, err
	}
	matched = rated
	if filter != "" {
		if err := v.tx.QueryRowContext(v.ctx, "SELECT count(*) FROM "+from+" "+filter, args...).Scan(&matched); err != nil {
			return nil, 0, 0, err
		}
	}
	dir := "ASC"
	if l.Desc {
		dir = "DESC"
	}
	// Ties by id, in the direction of the sort; NULLs (the built-in
	// players' class and share) last either way. The order of the Elo
	// index is kept as it is, so that a page deep in it skips entries
	// instead of sorting.
	order := fmt.Sprintf("ORDER BY %s %s, s.agent_id %s", col, dir, dir)
	switch col {
	case "s.elo":
		order = fmt.Sprintf("ORDER BY s.elo %s, s.agent_id", dir)
	case "s.class", "s.share":
		order = fmt.Sprintf("ORDER BY %s IS NULL, %s %s, s.agent_id %s", col, col, dir, dir)
	case "a.name":
		// Names in the order people count: checkpoint-9 before
		// checkpoint-10, by the name without its trailing digits, then
		// its length (the number's digits), then the name.
		order = fmt.Sprintf("ORDER BY rtrim(a.name, '0123456789') %s, length(a.name) %s, a.name %s", dir, dir, dir)
	}
	// The page's ids first, skipping rows of ids alone (for the default
	// order, entries of the standings_by_elo index), then their rows.
	page := "SELECT s.agent_id FROM " + from + " " + filter + " " + order + " LIMIT ? OFFSET ?"
	list, err = standings(v.ctx, v.tx, "WHERE s.agent_id IN ("+page+") "+order, 0, append(args, l.Limit, max(l.Offset, 0))...)
	return list, matched, rated, err
}

// EloRank is the place of rated agent a in the order of Elo, from the
// top, ties by id, as Leaderboard's default order and Standings have it:
// among every rated agent, or without the searched ones.
func (v *View) EloRank(a *Agent, noSearched bool) (int, error) {
	if a.Standing == nil {
		return 0, fmt.Errorf("%s is not rated", a.Name)
	}
	q := "SELECT count(*) FROM standings s WHERE (s.elo > ? OR (s.elo = ? AND s.agent_id < ?))"
	if noSearched {
		q += " AND " + notSearched
	}
	var above int
	if err := v.tx.QueryRowContext(v.ctx, q, a.Standing.Elo, a.Standing.Elo, a.ID).Scan(&above); err != nil {
		return 0, err
	}
	return above + 1, nil
}

// Rounds returns the rounds from first to last (ids), in order, without
// their snapshots' facts (Agent is nil): the table of rounds of ttt
// serve's dashboard.
func (v *View) Rounds(first, last int64) ([]RoundInfo, error) {
	return readRounds(v.ctx, v.tx, first, last)
}

// Finished returns when each of the rounds ids finished, by id; a round
// whose end is not known (schema 1's) is left out.
func (v *View) Finished(ids []int64) (map[int64]time.Time, error) {
	out := make(map[int64]time.Time, len(ids))
	stmt, err := v.tx.PrepareContext(v.ctx, "SELECT finished_at FROM rounds WHERE id = ?")
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	for _, id := range ids {
		var at sql.Null[string]
		if err := stmt.QueryRowContext(v.ctx, id).Scan(&at); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if !at.Valid {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, at.V)
		if err != nil {
			return nil, fmt.Errorf("round %d's end %q: %w", id, at.V, err)
		}
		out[id] = t
	}
	return out, nil
}
