package web

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/league"
	"ttt/store"
)

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
	Pruned     bool      `json:"pruned"`
	Class      *string   `json:"class"`
	Best       bool      `json:"best"`
	Latest     bool      `json:"latest"` // the newest network
	Parent     *agentRef `json:"parent"`
	Generation int       `json:"generation"`
	TrainGames int64     `json:"train_games"`
	Method     *string   `json:"method"` // how it learned (policy, tdlambda, table, selfplay-table); null for a built-in player
	Inputs     *int      `json:"inputs"` // the network's: its game's, with the side input
	Hidden     *int      `json:"hidden"`
	Outputs    *int      `json:"outputs"`
	Parameters *int      `json:"parameters"` // a model's weights or values
	Table      *int      `json:"table"`      // a table of values' count of values
	Model      *string   `json:"model"`      // what its model is, in a few words
	// File is the name of its model's file, GET /api/agents/{ref}/weights
	// as ttt export writes it: null where it has none (a built-in
	// player, a searched agent, a pruned checkpoint). Sided: the model
	// has a file of each side too (side=X or O).
	File     *string          `json:"file"`
	Sided    bool             `json:"sided"`
	Created  *string          `json:"created"` // null for a searched agent not stored yet
	Standing *standingFigures `json:"standing"`
	// Ladder is its ladder rating (from its games against the built-in
	// players alone), and Float its league Elo minus it: how far the
	// league's line has drifted from the ladder there. Null for a
	// built-in player, or one that has met none.
	Ladder   *ladderRating         `json:"ladder"`
	Float    *float64              `json:"float"`
	Verify   *sides[verifyFigures] `json:"verify"`
	VsRandom *sides[oddsFigures]   `json:"vs_random"`
	Shares   *shareFigures         `json:"shares"`
	// Floor is a random player's expected shares, beside Shares.
	Floor *floorFigures `json:"floor"`
	// Measuring: a searched agent the league has not stored, whose
	// figures (verify, vs_random, shares, class) the server is measuring
	// or will measure when it has a moment; null until then. Asked again,
	// the answer has them once they are measured. A search too costly to
	// measure in two minutes keeps them null.
	Measuring bool `json:"measuring"`
	// Opponents is the first page of its record against each opponent
	// (GET /api/agents/{ref}/opponents goes on).
	Opponents *opponentsPage `json:"opponents"`
}

// agent answers GET /api/agents/{ref}: an agent's facts, ref an id, a
// name, best or latest, and its record against its first opponents.
func (s *Server) agent(w http.ResponseWriter, r *http.Request, o *opened) {
	var (
		a         *league.Agent
		best      *agentRef
		latest    int64 // the newest network's id
		parent    store.AgentName
		opponents *opponentsPage
		ladders   map[int64]*ladderRating
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		// A pruned checkpoint is all that remains of it: its record,
		// ratings and games, without its network.
		if a, err = league.Find(v, r.PathValue("ref")); err != nil && !errors.Is(err, store.ErrPruned) {
			return err
		}
		if best, err = bestOf(v); err != nil {
			return err
		}
		if n, err := v.Name(store.Latest); err == nil {
			latest = n.ID
		} else if !errors.Is(err, store.ErrNoCheckpoints) {
			return err
		}
		if a.ParentID != 0 {
			if parent, err = v.Name(strconv.FormatInt(a.ParentID, 10)); err != nil {
				return err
			}
		}
		if ladders, err = laddersOf(v, a.Agent); err != nil {
			return err
		}
		opponents, err = opponentsOf(v, a.ID, 0, defaultLimit)
		return err
	})
	if !ok {
		return
	}
	kit := agents.KitFor(o.db.Game())
	var model learn.Model
	measured := true
	if len(a.Weights) > 0 {
		var err error
		if model, err = league.ModelOf(kit, a); err != nil {
			s.fail(w, r, err)
			return
		}
		switch {
		case a.ID == 0: // a searched agent the league has not got: measured once, in the background
			a.Facts, measured = s.facts(kit, a.Agent, model)
		case a.VsRandom == nil && a.Shares == nil: // stored by an older ttt, as ttt show does
			league.Measure(kit, a.Agent, model)
		}
	}
	out := agentFacts{Game: kit.Name(), agentRef: *refOf(a.Agent), Pruned: isPruned(a.Agent), Class: classOf(a.Agent), Best: best != nil && best.ID == a.ID,
		Latest: a.ID != 0 && a.ID == latest, Generation: a.Generation, TrainGames: a.TrainGames, Verify: verifyOf(a.Agent),
		Shares: sharesOf(a.Agent), Floor: floorOf(kit), Opponents: opponents, Measuring: !measured}
	if a.ID != 0 {
		created := a.CreatedAt.Format(time.RFC3339)
		out.Created = &created
	}
	if a.ParentID != 0 {
		ref := agentRef(parent)
		out.Parent = &ref
	}
	if a.Method != "" {
		out.Method = &a.Method
	}
	if model == nil && out.Pruned && a.Hidden > 0 { // a network's size is kept beside its weights
		out.Hidden = &a.Hidden
	}
	if model != nil {
		switch l := model.Layout(); {
		case l.Inputs != 0:
			out.Inputs, out.Hidden, out.Outputs = &l.Inputs, &l.Hidden, &l.Outputs
		case l.Entries != 0:
			out.Table = &l.Entries
		}
		what, size := model.Describe(), model.Size()
		out.Model, out.Parameters = &what, &size
		file := league.FileName(a.Agent, model, nil)
		out.File = &file
		out.Sided = model.Layout().Sided
	}
	if st := a.Standing; st != nil {
		out.Standing = &standingFigures{interval: intervalOf(st.HistoryRow), Round: st.Round, Games: st.Games, record: recordOf(st.Record)}
	}
	out.Ladder = ladders[a.ID]
	out.Float = floatOf(a.Agent, out.Ladder)
	if len(a.VsRandom) == 2 {
		o := func(v game.Expect) oddsFigures {
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
		n, err := league.FindName(v, r.PathValue("ref"))
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
