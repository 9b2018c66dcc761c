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
	Ladder *interval `json:"ladder"`
	Games  int       `json:"games"`
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
		ladders        map[int64]*interval
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
		if ladders, err = laddersOf(v, list...); err != nil {
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
			Pruned: pruned[a.ID], interval: intervalOf(st.HistoryRow), Ladder: ladders[a.ID], Games: st.Games, record: recordOf(st.Record), Verify: verifyOf(a), Shares: sharesOf(a),
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
