package web

import (
	"cmp"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"math/rand/v2"
	"mime"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/nn"
	"ttt/agents/search"
	"ttt/agents/table"
	"ttt/agents/verify"
	"ttt/league"
	"ttt/store"
)

// The API: JSON over GET (and POST for a move), every answer a JSON
// object, every error one too ({"status": 404, "message": "..."}) with a
// 4xx status for a request that cannot be answered, and 500 only when the
// database fails. docs/serve.md, "The API", documents each endpoint.
//
// Each answer is read in one store.View: one read transaction, so that
// what it says (the newest round, the standings, which agent is best) is
// of one state of the league while a league run commits.

// Leaderboard sizes: the pages show the top 20; a script may ask for up
// to maxLimit rows, which stays well under 100 ms at any league size.
const (
	defaultLimit = 20
	maxLimit     = 1000
)

// maxPoints bounds the points of the learning curve: more than a chart's
// width in pixels shows nothing more.
const maxPoints = 2000

// maxRoundRows bounds the rows of a history carried forward round by
// round in one answer; next_from says where the next answer starts. A
// variable for the tests only.
var maxRoundRows int64 = 10000

// apiError is the answer to a request that failed.
type apiError struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

// writeJSON answers v with status 200. The API's answers change with
// every round, so a browser must ask again each time (no-cache); but an
// answer carries a hash of itself (its ETag), so that one that has not
// changed since the copy the browser holds is 304, with no body. An
// answer of more than gzipAbove bytes goes compressed to a client that
// takes gzip, as browsers do: JSON's names repeat in every row.
func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	body, _ := json.Marshal(v) // the answer types always encode
	body = append(body, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	sum := fnv.New64a()
	sum.Write(body)
	etag := fmt.Sprintf(`W/"%x"`, sum.Sum64())
	h.Set("ETag", etag)
	if strings.Contains(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if len(body) <= gzipAbove || !acceptsGzip(r) {
		w.Write(body) // a write error is the client's
		return
	}
	h.Set("Content-Encoding", "gzip")
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // a valid level
	zw.Write(body)
	zw.Close()
}

// gzipAbove is the size of an answer above which it is compressed: below
// it, the few bytes saved are not worth the work.
const gzipAbove = 1 << 10

// acceptsGzip reports whether r's client takes gzip-encoded answers.
func acceptsGzip(r *http.Request) bool {
	for _, e := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if name, q, _ := strings.Cut(strings.TrimSpace(e), ";"); strings.EqualFold(name, "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// writeError answers an error: status and a message.
func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(apiError{Status: status, Message: fmt.Sprintf(format, args...)})
}

// fail answers an error of the store: 404 for an agent that is not
// there, 410 for a checkpoint whose weights ttt prune dropped, 503 when
// the database is busy or its file was replaced or removed under the
// server, and 500, logged, for the rest, which are the database's
// failures rather than the request's.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrNoCheckpoints):
		writeError(w, http.StatusNotFound, "%v", err)
	case errors.Is(err, store.ErrPruned):
		writeError(w, http.StatusGone, "%v", err)
	case errors.Is(err, search.ErrSpec), errors.Is(err, league.ErrNoModel):
		writeError(w, http.StatusBadRequest, "%v", err)
	case errors.Is(err, store.ErrBusy), errors.Is(err, errReplaced), errors.Is(err, store.ErrReplaced), errors.Is(err, errGone), errors.Is(err, errClosed):
		// store.ErrReplaced is the store noticing the replacement in the
		// middle of a read, before the server's own look at the file.
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	case r.Context().Err() != nil:
		// The client has gone: nobody reads the answer.
		writeError(w, http.StatusServiceUnavailable, "the request was cancelled")
	default:
		if s.errLog != nil {
			s.errLog.Printf("%s %s: %v", r.Method, r.URL.Path, err)
		}
		writeError(w, http.StatusInternalServerError, "%v", err)
	}
}

// intParam reads the query parameter name as a whole number within
// lo..hi, def when it is absent; an error says it must be what.
func intParam(r *http.Request, name, what string, def, lo, hi int64) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be %s (got %q)", name, what, v)
	}
	return n, nil
}

// limitParam reads the query parameter limit: 1 to maxLimit rows,
// defaultLimit when it is absent.
func limitParam(r *http.Request) (int, error) {
	n, err := intParam(r, "limit", fmt.Sprintf("a whole number from 1 to %d", maxLimit), defaultLimit, 1, maxLimit)
	return int(n), err
}

// view reads the answer to r in one store.View of o, and answers the
// store's error if it fails, or errReplaced if the league's path named
// another file by the end: ok is false then, and the handler has
// answered.
func (s *Server) view(w http.ResponseWriter, r *http.Request, o *opened, fn func(*store.View) error) (ok bool) {
	err := o.db.View(r.Context(), fn)
	if err == nil {
		err = o.current() // every read was of one file
	}
	if err != nil {
		s.fail(w, r, err)
		return false
	}
	return true
}

// moveTime is the longest a searched agent thinks a move for a page.
const moveTime = time.Second

// storedAgent reads the agent that ref names in o, with its network, as
// league.Agent does (a model with a search after its name too): a
// pruned checkpoint comes with store.ErrPruned.
func storedAgent(r *http.Request, o *opened, ref string) (*store.Agent, error) {
	a, err := league.Agent(r.Context(), o.db, ref)
	if cur := o.current(); cur != nil {
		return nil, cur
	}
	return a, err
}

// The types below are the API's answers and their parts, as JSON writes
// them, each named for what it holds (agentRef, record, verifyFigures,
// opponentRow): every one is JSON, so none says so in its name.

// agentRef names an agent.
type agentRef struct {
	ID   int64      `json:"id"`
	Name string     `json:"name"`
	Kind store.Kind `json:"kind"`
}

func refOf(a *store.Agent) *agentRef { return &agentRef{ID: a.ID, Name: a.Name, Kind: a.Kind} }

// isPruned reports whether a, as the store read it, is a network or a
// table whose weights ttt prune dropped: the store read neither.
func isPruned(a *store.Agent) bool { return a.Kind.Learned() && len(a.Weights) == 0 }

// bestOf is the agent that best names in v (store.Agent), nil in a
// league without networks.
func bestOf(v *store.View) (*agentRef, error) {
	n, err := v.Name(store.Best)
	switch {
	case errors.Is(err, store.ErrNoCheckpoints):
		return nil, nil
	case err != nil:
		return nil, err
	}
	ref := agentRef(n)
	return &ref, nil
}

// interval is a rating with its 95% interval, as every answer gives it.
type interval struct {
	Elo float64 `json:"elo"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
}

func intervalOf(r store.HistoryRow) interval { return interval{Elo: r.Elo, Lo: r.Lo, Hi: r.Hi} }

// record is a win/draw/loss record, from the side of the agent it is
// about.
type record struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

func recordOf(r game.Record) record { return record(r) }

// sides holds a figure as X and as O.
type sides[T any] struct {
	X T `json:"x"`
	O T `json:"o"`
}

// verifyFigures is the exhaustive check of one side (ttt verify): the worst
// result an opponent can force, the opponent lines that beat the agent
// out of all lines, and the positions where its move keeps the game's
// value out of those it reaches.
type verifyFigures struct {
	Worst      string  `json:"worst"`
	Lost       int     `json:"lost"`
	Lines      int     `json:"lines"`
	Optimal    int     `json:"optimal"`
	Positions  int     `json:"positions"`
	OptimalPct float64 `json:"optimal_pct"`
}

// verifyOf is a's exhaustive check, nil for random.
func verifyOf(a *store.Agent) *sides[verifyFigures] {
	if len(a.Verify) < 2 {
		return nil
	}
	v := func(r verify.Report) verifyFigures {
		return verifyFigures{Worst: r.Worst.String(), Lost: r.LostLines, Lines: r.Lines,
			Optimal: r.Optimal, Positions: r.Positions, OptimalPct: r.OptimalPercent()}
	}
	return &sides[verifyFigures]{X: v(a.Verify[0]), O: v(a.Verify[1])}
}

// classOf is a's class (perfect, unbeatable, beatable), nil for random,
// whose play has no fixed line to check.
func classOf(a *store.Agent) *string {
	if len(a.Verify) == 0 {
		return nil
	}
	c := a.Class.String()
	return &c
}

// methodOf is how a learned (store.Agent.Method), nil for a built-in
// player.
func methodOf(a *store.Agent) *string {
	if a.Method == "" {
		return nil
	}
	return &a.Method
}

// shareFigure is a score on a game's position set: the positions where the
// agent's move keeps the value, of those it moved in, and their share in
// percent.
type shareFigure struct {
	Optimal   int     `json:"optimal"`
	Positions int     `json:"positions"`
	Pct       float64 `json:"pct"`
}

// curveShares reads the position-set shares of the agents of curve, by
// agent; none for a game without a position set.
func curveShares(v *store.View, kit *agents.Kit, curve []store.CurvePoint) (map[int64]store.SetShares, error) {
	if kit.Positions == nil {
		return nil, nil
	}
	ids := make([]int64, len(curve))
	for i, c := range curve {
		ids[i] = c.Agent
	}
	return v.Shares(ids)
}

// shareFigures is the position-set check (Connect Four's): the share of
// optimal moves overall and by phase of the game.
type shareFigures struct {
	// Random is the share of the set of positions reached by random
	// moves, absent for an agent measured before that set; the others
	// are the tactical set's.
	Random *shareFigure `json:"random,omitempty"`
	All    shareFigure  `json:"all"`
	Early  shareFigure  `json:"early"`
	Middle shareFigure  `json:"middle"`
	Late   shareFigure  `json:"late"`
}

// sharesOf is a's position-set check, nil where its game has none or it
// was not measured.
func sharesOf(a *store.Agent) *shareFigures {
	if a.Shares == nil {
		return nil
	}
	sc := func(s verify.Score) shareFigure {
		return shareFigure{Optimal: s.Optimal, Positions: s.Positions, Pct: s.Percent()}
	}
	out := &shareFigures{All: sc(a.Shares.All), Early: sc(a.Shares.Early), Middle: sc(a.Shares.Middle), Late: sc(a.Shares.Late)}
	if a.Random != nil {
		r := sc(*a.Random)
		out.Random = &r
	}
	return out
}

// floorFigures is what a uniformly random player is expected to keep of the
// position sets, in percent: the floor of the shares, as shareFigures
// has them.
type floorFigures struct {
	Random *float64 `json:"random,omitempty"` // absent for a game without a random-ply set
	All    float64  `json:"all"`
	Early  float64  `json:"early"`
	Middle float64  `json:"middle"`
	Late   float64  `json:"late"`
}

// floorOf is the floor of kit's position sets, nil for a game without
// one.
func floorOf(kit *agents.Kit) *floorFigures {
	if kit.Positions == nil {
		return nil
	}
	all, ph := verify.RandomShare(kit.Positions())
	out := &floorFigures{All: 100 * all, Early: 100 * ph[0], Middle: 100 * ph[1], Late: 100 * ph[2]}
	if kit.Random != nil {
		random, _ := verify.RandomShare(kit.Random())
		random *= 100
		out.Random = &random
	}
	return out
}

// leaderboardRow is a rated agent on the leaderboard.
type leaderboardRow struct {
	Rank int `json:"rank"`
	agentRef
	// Generation is the round that made it, 0 for an agent made outside
	// the rounds: the number beside its name, which carries its id.
	Generation int     `json:"generation"`
	Method     *string `json:"method"` // how it learned; null for a built-in player
	Class      *string `json:"class"`
	Best       bool    `json:"best"`
	Pruned     bool    `json:"pruned"` // its weights dropped by ttt prune: it cannot play
	interval
	Games int `json:"games"`
	record
	Verify *sides[verifyFigures] `json:"verify"`
	Shares *shareFigures         `json:"shares"`
}

// leaderboard answers GET /api/leaderboard?limit=N: the N best-rated
// agents (20 unless said), as ttt ratings lists them; or another view of
// the rated agents (listingOf): another order, filters, a page further.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request, o *opened) {
	l, err := listingOf(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	var (
		round          int64
		list           []*store.Agent
		matched, rated int
		best           *agentRef
		pruned         map[int64]bool
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if round, err = v.NewestRound(); err != nil {
			return err
		}
		if list, matched, rated, err = v.Leaderboard(l); err != nil {
			return err
		}
		ids := make([]int64, len(list))
		for i, a := range list {
			ids[i] = a.ID
		}
		if pruned, err = v.Pruned(ids); err != nil {
			return err
		}
		best, err = bestOf(v)
		return err
	})
	if !ok {
		return
	}
	out := struct {
		Game  string `json:"game"`
		Round int64  `json:"round"`
		Rated int    `json:"rated"`
		// Matched is how many rated agents the filters keep; Offset the
		// place of the first row among them.
		Matched int              `json:"matched"`
		Offset  int              `json:"offset"`
		Best    *agentRef        `json:"best"`
		Agents  []leaderboardRow `json:"agents"`
	}{Game: o.db.Game().Name(), Round: round, Rated: rated, Matched: matched, Offset: l.Offset, Best: best, Agents: make([]leaderboardRow, 0, len(list))}
	for i, a := range list {
		st := a.Standing
		out.Agents = append(out.Agents, leaderboardRow{
			Rank: l.Offset + i + 1, agentRef: *refOf(a), Generation: a.Generation, Method: methodOf(a), Class: classOf(a), Best: best != nil && best.ID == a.ID,
			Pruned: pruned[a.ID], interval: intervalOf(st.HistoryRow), Games: st.Games, record: recordOf(st.Record), Verify: verifyOf(a), Shares: sharesOf(a),
		})
	}
	writeJSON(w, r, out)
}

// listingOf reads the view of the leaderboard that r asks for: limit
// (1-1000, 20), offset (0 on), sort (a column of store.LeaderboardSorts,
// elo), order (desc, the default, or asc), q (a part of the name),
// class (perfect, unbeatable or beatable) and min_games.
func listingOf(r *http.Request) (store.Listing, error) {
	q := r.URL.Query()
	l := store.Listing{Sort: q.Get("sort"), Name: q.Get("q"), Desc: true}
	var err error
	if l.Limit, err = limitParam(r); err != nil {
		return l, err
	}
	offset, err := intParam(r, "offset", "a whole number, 0 or more", 0, 0, math.MaxInt32)
	if err != nil {
		return l, err
	}
	games, err := intParam(r, "min_games", "a whole number, 0 or more", 0, 0, math.MaxInt32)
	if err != nil {
		return l, err
	}
	l.Offset, l.MinGames = int(offset), int(games)
	if _, ok := store.LeaderboardSorts[cmp.Or(l.Sort, "elo")]; !ok {
		return l, fmt.Errorf("sort must be one of %s (got %q)", strings.Join(slices.Sorted(maps.Keys(store.LeaderboardSorts)), ", "), l.Sort)
	}
	switch o := q.Get("order"); o {
	case "", "desc":
	case "asc":
		l.Desc = false
	default:
		return l, fmt.Errorf("order must be asc or desc (got %q)", o)
	}
	if c := q.Get("class"); c != "" {
		for _, k := range []verify.Class{verify.Beatable, verify.Unbeatable, verify.Perfect} {
			if k.String() == c {
				l.Class = &k
			}
		}
		if l.Class == nil {
			return l, fmt.Errorf("class must be perfect, unbeatable or beatable (got %q)", c)
		}
	}
	return l, nil
}

// standingFigures is an agent's rating now, the fit's, with its 95%
// interval, the round of its last history row (the last that moved it by
// more than store.HistoryStep), and its record over all its games.
type standingFigures struct {
	interval
	Round int64 `json:"round"`
	Games int   `json:"games"`
	record
}

// opponentRow is an agent's record against one opponent, from the
// agent's side, and its score (a win 1, a draw 1/2) per game.
type opponentRow struct {
	agentRef
	record
	Score float64 `json:"score"`
	// Sides: the agent's record as X and as O, with each score, where the
	// league kept it (against a built-in player); omitted elsewhere.
	Sides *sides[sideRecord] `json:"sides,omitempty"`
}

// sideRecord is a record on one side of the board, and its score.
type sideRecord struct {
	record
	Score float64 `json:"score"`
}

// opponentsPage is a page of an agent's opponents in id order: total is
// how many it has played, and next_after, present when there are more,
// the after of the next page.
type opponentsPage struct {
	Total     int           `json:"total"`
	Rows      []opponentRow `json:"rows"`
	NextAfter *int64        `json:"next_after,omitempty"`
}

// opponentsOf reads in v the page of up to limit opponents of agent with
// ids above after (store.View.Opponents). Counting them reads a range of
// two indexes, a few milliseconds for perfect's 100,000.
func opponentsOf(v *store.View, agent, after int64, limit int) (*opponentsPage, error) {
	// One more than the page: whether there are more.
	list, err := v.Opponents(agent, after, limit+1)
	if err != nil {
		return nil, err
	}
	page := &opponentsPage{Rows: make([]opponentRow, 0, min(len(list), limit))}
	if page.Total, err = v.OpponentCount(agent); err != nil {
		return nil, err
	}
	if len(list) > limit {
		list = list[:limit]
		next := list[limit-1].ID
		page.NextAfter = &next
	}
	for _, o := range list {
		row := opponentRow{agentRef: agentRef(o.AgentName), record: recordOf(o.Record), Score: o.Record.Score()}
		if o.First != nil {
			side := func(r game.Record) sideRecord { return sideRecord{record: recordOf(r), Score: r.Score()} }
			row.Sides = &sides[sideRecord]{X: side(*o.First), O: side(o.Second())}
		}
		page.Rows = append(page.Rows, row)
	}
	return page, nil
}

// oddsFigures is the exact chance of each result against a uniformly random
// opponent, and the expected score (a win 1, a draw 1/2).
type oddsFigures struct {
	Win   float64 `json:"win"`
	Draw  float64 `json:"draw"`
	Loss  float64 `json:"loss"`
	Score float64 `json:"score"`
}

// agentFacts is what ttt show says of an agent.
type agentFacts struct {
	Game string `json:"game"` // its league's
	agentRef
	// Pruned: ttt prune dropped its weights (a network's, or a table's
	// file), so it cannot play, be exported or downloaded; its record,
	// ratings and games remain.
	Pruned     bool                  `json:"pruned"`
	Class      *string               `json:"class"`
	Best       bool                  `json:"best"`
	Parent     *agentRef             `json:"parent"`
	Generation int                   `json:"generation"`
	TrainGames int64                 `json:"train_games"`
	Method     *string               `json:"method"` // how it learned (policy, tdlambda, table, selfplay-table); null for a built-in player
	Inputs     *int                  `json:"inputs"` // the network's: its game's, with the side input
	Hidden     *int                  `json:"hidden"`
	Outputs    *int                  `json:"outputs"`
	Parameters *int                  `json:"parameters"` // a model's weights or values
	Table      *int                  `json:"table"`      // a table of values' count of values
	Model      *string               `json:"model"`      // what its model is, in a few words
	Created    string                `json:"created"`
	Standing   *standingFigures      `json:"standing"`
	Verify     *sides[verifyFigures] `json:"verify"`
	VsRandom   *sides[oddsFigures]   `json:"vs_random"`
	Shares     *shareFigures         `json:"shares"`
	// Floor is a random player's expected shares, beside Shares.
	Floor *floorFigures `json:"floor"`
	// Opponents is the first page of its record against each opponent
	// (GET /api/agents/{ref}/opponents goes on).
	Opponents *opponentsPage `json:"opponents"`
}

// agent answers GET /api/agents/{ref}: an agent's facts, ref an id, a
// name, best or latest, and its record against its first opponents.
func (s *Server) agent(w http.ResponseWriter, r *http.Request, o *opened) {
	var (
		a         *store.Agent
		best      *agentRef
		parent    store.AgentName
		opponents *opponentsPage
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		// A pruned checkpoint is all that remains of it: its record,
		// ratings and games, without its network.
		if a, err = v.Agent(r.PathValue("ref")); err != nil && !errors.Is(err, store.ErrPruned) {
			if errors.Is(err, store.ErrNotFound) && strings.Contains(r.PathValue("ref"), "@") {
				a, err = nil, nil // a searched agent the league has not got: made after the view
			}
			return err
		}
		if best, err = bestOf(v); err != nil {
			return err
		}
		if a.ParentID != 0 {
			if parent, err = v.Name(strconv.FormatInt(a.ParentID, 10)); err != nil {
				return err
			}
		}
		opponents, err = opponentsOf(v, a.ID, 0, defaultLimit)
		return err
	})
	if !ok {
		return
	}
	if a == nil {
		var err error
		if a, err = storedAgent(r, o, r.PathValue("ref")); err != nil {
			s.fail(w, r, err)
			return
		}
		if !s.view(w, r, o, func(v *store.View) (err error) {
			parent, err = v.Name(strconv.FormatInt(a.ParentID, 10))
			return err
		}) {
			return
		}
		opponents = &opponentsPage{Rows: []opponentRow{}} // it has played nobody
	}
	kit := agents.KitFor(o.db.Game())
	var model learn.Model
	if len(a.Weights) > 0 {
		var err error
		if model, err = league.ModelOf(kit, a); err != nil {
			s.fail(w, r, err)
			return
		}
		if a.VsRandom == nil && a.Shares == nil { // stored by an older ttt, as ttt show does
			league.Measure(kit, a, model)
		}
	}
	out := agentFacts{Game: kit.Name(), agentRef: *refOf(a), Pruned: isPruned(a), Class: classOf(a), Best: best != nil && best.ID == a.ID,
		Generation: a.Generation, TrainGames: a.TrainGames, Created: a.CreatedAt.Format(time.RFC3339), Verify: verifyOf(a),
		Shares: sharesOf(a), Floor: floorOf(kit), Opponents: opponents}
	if a.ParentID != 0 {
		ref := agentRef(parent)
		out.Parent = &ref
	}
	if a.Method != "" {
		out.Method = &a.Method
	}
	switch m := model.(type) {
	case nil:
		if out.Pruned && a.Hidden > 0 { // a network's size is kept beside its weights
			out.Hidden = &a.Hidden
		}
	case *nn.Net:
		out.Inputs, out.Hidden, out.Outputs = &m.Inputs, &m.Hidden, &m.Outputs
	case *table.Table:
		n := m.Len()
		out.Table = &n
	}
	if model != nil {
		what, size := model.Describe(), model.Size()
		out.Model, out.Parameters = &what, &size
	}
	if st := a.Standing; st != nil {
		out.Standing = &standingFigures{interval: intervalOf(st.HistoryRow), Round: st.Round, Games: st.Games, record: recordOf(st.Record)}
	}
	if len(a.VsRandom) == 2 {
		o := func(v verify.Expect) oddsFigures {
			return oddsFigures{Win: v.Win, Draw: v.Draw, Loss: v.Loss, Score: v.Score()}
		}
		out.VsRandom = &sides[oddsFigures]{X: o(a.VsRandom[0]), O: o(a.VsRandom[1])}
	}
	writeJSON(w, r, out)
}

// opponents answers GET /api/agents/{ref}/opponents?after=ID&limit=N:
// the agent's record against each of its opponents with ids above after
// (0 unless said), in id order, N of them (20 unless said).
func (s *Server) opponents(w http.ResponseWriter, r *http.Request, o *opened) {
	after, err := intParam(r, "after", "an agent id (0 or more)", 0, 0, math.MaxInt64)
	var limit int
	if err == nil {
		limit, err = limitParam(r)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	var out struct {
		Agent agentRef `json:"agent"`
		*opponentsPage
	}
	ok := s.view(w, r, o, func(v *store.View) error {
		n, err := v.Name(r.PathValue("ref"))
		if err != nil {
			return err
		}
		out.Agent = agentRef(n)
		out.opponentsPage, err = opponentsOf(v, n.ID, after, limit)
		return err
	})
	if ok {
		writeJSON(w, r, out)
	}
}

// historyRow is a rating after a round.
type historyRow struct {
	Round int64 `json:"round"`
	interval
	Games int `json:"games"`
	// Stored says, of a history carried forward, whether the round
	// stored this row; absent from the stored rows themselves.
	Stored *bool `json:"stored,omitempty"`
}

func ratingOf(h store.HistoryRow) historyRow {
	return historyRow{Round: h.Round, interval: intervalOf(h), Games: h.Games}
}

// history answers GET /api/agents/{ref}/history: the agent's stored
// rating history, a row wherever its rating or interval moved by more
// than half an Elo (store.History), its rating after any round being its
// last row at or before that round, until the newest round; with
// after=R, the rows of the rounds after R only. With
// per=round, the rows are carried forward to one per round, as ttt
// ratings history --agent lists them, from the round that first rated
// it (or from=R) to the newest (or to=R), at most maxRoundRows per
// answer: next_from is then where the next answer starts.
func (s *Server) history(w http.ResponseWriter, r *http.Request, o *opened) {
	q := r.URL.Query()
	per := q.Get("per")
	if per != "" && per != "stored" && per != "round" {
		writeError(w, http.StatusBadRequest, "per must be stored or round (got %q)", per)
		return
	}
	const round = "a round number (1 or more)"
	from, err := intParam(r, "from", round, 1, 1, math.MaxInt64)
	var to, after int64
	if err == nil {
		to, err = intParam(r, "to", round, 0, 1, math.MaxInt64) // 0: the newest round
	}
	if err == nil {
		after, err = intParam(r, "after", "a round number, 0 or more", 0, 0, math.MaxInt64)
	}
	switch {
	case err != nil:
	case per != "round" && (q.Has("from") || q.Has("to")):
		err = errors.New("from and to go with per=round")
	case per == "round" && q.Has("after"):
		err = errors.New("after goes with the stored rows (per=stored)")
	case to != 0 && from > to:
		err = fmt.Errorf("from must not be after to (from=%d, to=%d)", from, to)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	var (
		newest int64
		agent  store.AgentName
		stored []store.HistoryRow
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if newest, err = v.NewestRound(); err != nil {
			return err
		}
		agent, err = v.Name(r.PathValue("ref"))
		if errors.Is(err, store.ErrNotFound) && strings.Contains(r.PathValue("ref"), "@") {
			return nil // a searched agent the league has not got: made below, no history
		}
		if err != nil {
			return err
		}
		stored, err = v.History(agent.ID)
		return err
	})
	if ok && agent.Name == "" {
		a, err := storedAgent(r, o, r.PathValue("ref"))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		agent = store.AgentName{ID: a.ID, Name: a.Name, Kind: a.Kind}
	}
	if !ok {
		return
	}
	out := struct {
		Agent       agentRef     `json:"agent"`
		NewestRound int64        `json:"newest_round"`
		Per         string       `json:"per"`
		Rows        []historyRow `json:"rows"`
		NextFrom    *int64       `json:"next_from,omitempty"`
	}{Agent: agentRef(agent), NewestRound: newest, Per: "stored", Rows: []historyRow{}}
	if per != "round" {
		// With after=ROUND, the rows since: what a page that holds the
		// history up to ROUND lacks (rows are only ever added, at the
		// round that stores them).
		for _, h := range stored {
			if h.Round > after {
				out.Rows = append(out.Rows, ratingOf(h))
			}
		}
		writeJSON(w, r, out)
		return
	}
	out.Per = "round"
	if len(stored) == 0 { // not rated yet
		writeJSON(w, r, out)
		return
	}
	if to == 0 || to > newest {
		to = newest
	}
	from = max(from, stored[0].Round)
	if to-from+1 > maxRoundRows {
		next := from + maxRoundRows
		out.NextFrom, to = &next, next-1
	}
	// i is the last stored row at or before the round.
	i := sort.Search(len(stored), func(k int) bool { return stored[k].Round > from }) - 1
	for round := from; round <= to; round++ {
		for i+1 < len(stored) && stored[i+1].Round <= round {
			i++
		}
		row := ratingOf(stored[i])
		row.Round = round
		isStored := stored[i].Round == round
		row.Stored = &isStored
		out.Rows = append(out.Rows, row)
	}
	writeJSON(w, r, out)
}

// point is a point of the learning curve: a round, its snapshot, the
// rating that round's fit gave it, and the method that made the
// snapshot. The points of a method are its own learning curve: a league
// of several learners has one for each.
type point struct {
	Round  int64  `json:"round"`
	Agent  int64  `json:"agent"`
	Method string `json:"method"`
	interval
	// Share is the snapshot's share of optimal moves on its game's
	// position set (Connect Four's tactical set), in percent: absent
	// where the game has none. RandomShare is its share on the
	// random-ply set, absent too for a snapshot measured before that
	// set.
	Share       *float64 `json:"share,omitempty"`
	RandomShare *float64 `json:"random_share,omitempty"`
}

// searchedPoint is a searched agent on the chart: its search, the round
// that made its network, and its rating now.
type searchedPoint struct {
	agentRef
	Search string `json:"search"`
	Round  int64  `json:"round"`
	interval
}

// reference is a built-in player's rating, its value on the game's
// scale: the flat lines of the chart.
type reference struct {
	agentRef
	Elo         float64  `json:"elo"`
	Share       *float64 `json:"share,omitempty"` // as a point's
	RandomShare *float64 `json:"random_share,omitempty"`
}

// progress answers GET /api/progress: the league's learning curve, each
// round's snapshot at the rating its first games gave it with its 95%
// interval, at most maxPoints of them (store.Curve says which: thinned,
// since round ids start at 1, when the league has more rounds), and
// perfect's and random's ratings now.
func (s *Server) progress(w http.ResponseWriter, r *http.Request, o *opened) {
	var (
		curve    []store.CurvePoint
		newest   int64
		refs     []*store.Agent
		searched []*store.Agent
		shares   map[int64]store.SetShares
	)
	kit := agents.KitFor(o.db.Game())
	// With after=ROUND, the points of the rounds since: what a page that
	// holds the curve up to ROUND lacks, a few hundred bytes a round
	// rather than the whole curve. More than maxPoints rounds since, or
	// a round the league has not reached, get the whole curve (whole).
	after, err := intParam(r, "after", "a round number, 0 or more", -1, 0, math.MaxInt64)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	whole := after < 0
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if !whole {
			if curve, newest, err = v.CurveAfter(after, maxPoints+1); err != nil {
				return err
			}
			whole = len(curve) > maxPoints || after > newest
		}
		if whole {
			if curve, newest, err = v.Curve(maxPoints); err != nil {
				return err
			}
		}
		// The game's built-in players, the strongest first: perfect and
		// random in tic-tac-toe.
		for _, b := range slices.Backward(kit.Builtins) {
			a, err := v.Agent(b.Name) // a built-in player: no network to read
			if err != nil {
				return err
			}
			refs = append(refs, a)
		}
		if searched, err = v.Searched(); err != nil {
			return err
		}
		shares, err = curveShares(v, kit, curve)
		return err
	})
	if !ok {
		return
	}
	out := struct {
		NewestRound int64       `json:"newest_round"`
		Whole       bool        `json:"whole"`
		Thinned     bool        `json:"thinned"`
		Points      []point     `json:"points"`
		References  []reference `json:"references"`
		// Floor is a random player's expected share of optimal moves on
		// the game's position set, in percent; absent where it has none.
		// FloorRandom is the same on the random-ply set.
		Floor       *float64 `json:"floor,omitempty"`
		FloorRandom *float64 `json:"floor_random,omitempty"`
		// Searched are the rated searched agents (ttt league run
		// --search), every one in every answer (a league adds one a
		// round at most): each at the round that made its network, as
		// it is rated now.
		Searched []searchedPoint `json:"searched"`
	}{NewestRound: newest, Whole: whole, Thinned: whole && newest > maxPoints, Points: make([]point, 0, len(curve)), References: []reference{}, Searched: []searchedPoint{}}
	for _, a := range searched {
		if st := a.Standing; st != nil {
			out.Searched = append(out.Searched, searchedPoint{agentRef: *refOf(a), Search: a.Search, Round: int64(a.Generation), interval: intervalOf(st.HistoryRow)})
		}
	}
	pct := func(s *verify.Score) *float64 {
		if s == nil {
			return nil
		}
		v := s.Percent()
		return &v
	}
	if f := floorOf(kit); f != nil {
		out.Floor, out.FloorRandom = &f.All, f.Random
	}
	for _, c := range curve {
		pt := point{Round: c.Round, Agent: c.Agent, Method: c.Method, interval: intervalOf(c.HistoryRow)}
		if sc, ok := shares[c.Agent]; ok {
			pt.Share, pt.RandomShare = pct(&sc.Tactical), pct(sc.Random)
		}
		out.Points = append(out.Points, pt)
	}
	for _, a := range refs {
		if a.Standing != nil {
			ref := reference{agentRef: *refOf(a), Elo: a.Standing.Elo}
			if a.Shares != nil {
				ref.Share, ref.RandomShare = pct(&a.Shares.All), pct(a.Random)
			}
			out.References = append(out.References, ref)
		}
	}
	writeJSON(w, r, out)
}

// weights answers GET /api/agents/{ref}/weights: the network as the
// plain weight file ttt export writes, 19 inputs, or with side=X or O
// the 18 inputs of ttt export --side; a table of values as its table
// file, which takes no side.
func (s *Server) weights(w http.ResponseWriter, r *http.Request, o *opened) {
	var side *game.Side
	if v := r.URL.Query().Get("side"); v != "" {
		sd, err := game.ParseSide(v)
		if err != nil {
			writeError(w, http.StatusBadRequest, "side: %v", err)
			return
		}
		side = &sd
	}
	a, err := storedAgent(r, o, r.PathValue("ref"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if a.Weights == nil {
		writeError(w, http.StatusNotFound, "agent %d (%s) is the built-in %s player: it learned no model, and has no file", a.ID, a.Name, a.Kind)
		return
	}
	model, err := league.ModelOf(agents.KitFor(o.db.Game()), a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	data := model.File()
	if side != nil {
		sided, ok := model.(learn.Sided)
		if !ok {
			writeError(w, http.StatusBadRequest, "side: agent %d (%s) is a %s, which plays both sides from one file: it has no file of one side", a.ID, a.Name, model.Describe())
			return
		}
		data = sided.FileFor(*side)
	}
	name := league.FileName(a, model, side)
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Cache-Control", "no-store")
	w.Write(data)
}

// moveAnswer is an agent's move in a position, with what it thought of
// every move, as ttt play shows it. Moves are written as people type
// them (squares 0-8, columns 1-7); the lists have one entry per move in
// that order (nine squares, seven columns).
type moveAnswer struct {
	Agent  *agentRef `json:"agent"`
	Board  string    `json:"board"` // in the game's notation (see notations)
	ToMove string    `json:"to_move"`
	Move   string    `json:"move"`
	// Probabilities: a policy network's softmax over all the moves (as ttt-rl
	// shows it, so a little may go to moves that cannot be played);
	// random's chance of each move. Absent for the other built-in
	// players.
	Probabilities []float32 `json:"probabilities,omitempty"`
	// Values: perfect's game value of each move for itself (win, draw or
	// loss), null for one that cannot be played. Absent for the others.
	Values []*string `json:"values,omitempty"`
	// Expected: a value net's expected score (1 a win, 1/2 a tie, 0 a
	// loss) after each move it may play, 0 for one it cannot. Absent for
	// the others.
	Expected []float32 `json:"expected,omitempty"`
	// TableValues: a table's value of the position after each move, for
	// the side to move, on the table's own scale (the CodeProject
	// article's learner scores a win 11), as ttt play shows them; null
	// for a move it cannot play. Absent for the others.
	TableValues []*float64 `json:"table_values,omitempty"`
	After       string     `json:"after"`  // the board after the move
	Result      string     `json:"result"` // after the move: ongoing, X wins, O wins or tie
}

// move answers GET /api/agents/{ref}/move?board=B (or ?moves=4,0,8), or
// a POST of {"board": B} or {"moves": [4, 0, 8]}: the agent's move in the
// position, stateless. A network, a table and the deterministic
// built-in players play as in ttt play (greedily); random and MCTS draw
// their moves.
func (s *Server) move(w http.ResponseWriter, r *http.Request, o *opened) {
	kit := agents.KitFor(o.db.Game())
	n := notations[kit.Name()]
	p, moves, err := requestPosition(r, kit, n)
	if err != nil {
		status := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			status = http.StatusRequestEntityTooLarge
		}
		writeError(w, status, "%v", err)
		return
	}
	board := n.write(kit, p, moves)
	if res := kit.Result(p); res != game.Ongoing {
		writeError(w, http.StatusBadRequest, "board %q: the game is over (%s): there is no move to make", board, res)
		return
	}
	a, err := storedAgent(r, o, r.PathValue("ref"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := moveAnswer{Agent: refOf(a), Board: board, ToMove: kit.ToMove(p).String()}
	var model learn.Model
	if a.Weights != nil {
		if model, err = league.ModelOf(kit, a); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	// Random and MCTS: a move of their own at each request. A search
	// thinks a second at most, as in ttt play.
	t, err := league.NewThinker(kit, a, model, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), moveTime)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	th, err := t.Think(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	m, views, legal := th.Move, th.Views, kit.Legal(p)
	switch t.Shows {
	case league.Probabilities: // a policy's softmax covers every move
		out.Probabilities = make([]float32, len(views))
		for k, v := range views {
			out.Probabilities[k] = float32(v)
		}
	case league.Scores:
		out.Expected = make([]float32, len(views))
		for k, v := range views {
			out.Expected[k] = float32(v)
		}
	case league.TableValues:
		out.TableValues = make([]*float64, len(views))
		for k := range views {
			if legal&(1<<k) != 0 {
				out.TableValues[k] = &views[k]
			}
		}
	case league.GameValues:
		out.Values = make([]*string, len(views))
		for k, v := range views {
			if legal&(1<<k) != 0 {
				text := game.Value(v).String()
				out.Values[k] = &text
			}
		}
	}
	after := kit.Play(p, m)
	out.Move, out.After, out.Result = kit.FormatMove(m), n.write(kit, after, append(moves, m)), kit.Result(after).String()
	writeJSON(w, r, out)
}
