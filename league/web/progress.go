package web

import (
	"math"
	"net/http"
	"slices"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/store"
)

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
	// TrainGames are the games its learner had trained: the chart's
	// games of the league add up each method's newest.
	TrainGames int `json:"train_games"`
	// Finished is when its round finished, in seconds since 1970 (the
	// chart's clock); absent where that is not known (a round of schema
	// 1).
	Finished *float64 `json:"finished,omitempty"`
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
		finished map[int64]time.Time
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
		if shares, err = curveShares(v, kit, curve); err != nil {
			return err
		}
		ids := make([]int64, len(curve))
		for i, c := range curve {
			ids[i] = c.Round
		}
		finished, err = v.Finished(ids)
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
	pct := func(s *game.Score) *float64 {
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
		pt := point{Round: c.Round, Agent: c.Agent, Method: c.Method, TrainGames: c.TrainGames, interval: intervalOf(c.HistoryRow)}
		if sc, ok := shares[c.Agent]; ok {
			pt.Share, pt.RandomShare = pct(&sc.Tactical), pct(sc.Random)
		}
		if at, ok := finished[c.Round]; ok {
			secs := float64(at.UnixMilli()) / 1000
			pt.Finished = &secs
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
