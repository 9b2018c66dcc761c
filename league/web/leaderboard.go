package web

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"

	"ttt/agents/game"
	"ttt/league"
	"ttt/store"
)

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
	// Ladder is a network's ladder rating, from its games against the
	// built-in players alone; null for a built-in player, or one that
	// has met none.
	Ladder *ladderRating `json:"ladder"`
	Games  int           `json:"games"`
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
		bestRow        *store.Agent // the best, not on the page
		bestRank       int          // its rank, where the page's order gives one
		pruned         map[int64]bool
		ladders        map[int64]*ladderRating
		ids            []int64
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if round, err = v.NewestRound(); err != nil {
			return err
		}
		if list, matched, rated, err = v.Leaderboard(l); err != nil {
			return err
		}
		for _, a := range list {
			ids = append(ids, a.ID)
		}
		if best, err = bestOf(v); err != nil {
			return err
		}
		if bestRow, bestRank, err = bestAfter(v, l, best, list); err != nil {
			return err
		}
		rows := list
		if bestRow != nil {
			ids = append(ids, bestRow.ID)
			rows = append(slices.Clip(list), bestRow)
		}
		if ladders, err = laddersOf(v, rows...); err != nil {
			return err
		}
		pruned, err = v.Pruned(ids)
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
		// BestRow is the best's row where the page leaves it out and no
		// filter but searched=0 does (its rank 0 where the order is not
		// Elo's, from the top): the best is on every page.
		BestRow *leaderboardRow `json:"best_row,omitempty"`
	}{Game: o.db.Game().Name(), Round: round, Rated: rated, Matched: matched, Offset: l.Offset, Best: best, Agents: make([]leaderboardRow, 0, len(list))}
	row := func(rank int, a *store.Agent) leaderboardRow {
		st := a.Standing
		return leaderboardRow{
			Rank: rank, agentRef: *refOf(a), Generation: a.Generation, Method: methodOf(a), Class: classOf(a), Best: best != nil && best.ID == a.ID,
			Pruned: pruned[a.ID], interval: intervalOf(st.HistoryRow), Ladder: ladders[a.ID], Games: st.Games, record: recordOf(st.Record), Verify: verifyOf(a), Shares: sharesOf(a),
		}
	}
	for i, a := range list {
		out.Agents = append(out.Agents, row(l.Offset+i+1, a))
	}
	if bestRow != nil {
		r := row(bestRank, bestRow)
		out.BestRow = &r
	}
	writeJSON(w, r, out)
}

// bestAfter is the best, best, where the page list leaves it out and
// only the page and the searched agents keep it out (a league run with
// --search can fill the top with the best searched), with its rank where
// the order is Elo's from the top (else 0); nil where the page has it,
// or a filter leaves it out.
func bestAfter(v *store.View, l store.Listing, best *agentRef, list []*store.Agent) (*store.Agent, int, error) {
	if best == nil || l.Name != "" || l.Class != nil || l.MinGames > 0 || slices.ContainsFunc(list, func(a *store.Agent) bool { return a.ID == best.ID }) {
		return nil, 0, nil
	}
	found, err := league.Find(v, store.Best)
	if err != nil || found.Standing == nil {
		return nil, 0, err
	}
	a := found.Agent
	if cmp.Or(l.Sort, "elo") != "elo" || !l.Desc {
		return a, 0, nil
	}
	rank, err := v.EloRank(a, l.NoSearched)
	return a, rank, err
}

// listingOf reads the view of the leaderboard that r asks for: limit
// (1-1000, 20), offset (0 on), sort (a column of store.LeaderboardSorts,
// elo), order (desc, the default, or asc), q (a part of the name),
// class (perfect, unbeatable or beatable), min_games and searched (0
// leaves the searched agents out).
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
	switch v := q.Get("searched"); v {
	case "", "1":
	case "0":
		l.NoSearched = true
	default:
		return l, fmt.Errorf("searched must be 0 (leave the searched agents out) or 1 (got %q)", v)
	}
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
		for _, k := range []game.Class{game.Beatable, game.Unbeatable, game.Perfect} {
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
