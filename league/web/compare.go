package web

import (
	"errors"
	"net/http"
	"strings"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league"
	"ttt/store"
)

// compared is one of the two agents of a comparison, as the leaderboard
// gives an agent.
type compared struct {
	agentRef
	Pruned   bool             `json:"pruned"` // its weights dropped by ttt prune: its moves are not known
	Class    *string          `json:"class"`
	Shares   *shareFigures    `json:"shares"`
	Standing *standingFigures `json:"standing"`
}

func comparedOf(a *store.Agent) compared {
	c := compared{agentRef: *refOf(a), Pruned: isPruned(a), Class: classOf(a), Shares: sharesOf(a)}
	if st := a.Standing; st != nil {
		c.Standing = &standingFigures{interval: intervalOf(st.HistoryRow), Round: st.Round, Games: st.Games, record: recordOf(st.Record)}
	}
	return c
}

// moveValue is an agent's move in a position, as people type it, and its
// exact value for the side to move.
type moveValue struct {
	Move  string `json:"move"`
	Value string `json:"value"`
}

// difference is a position where the two agents move differently:
// the board as the game draws it in text (rows of X, O and ., the top
// first; Connect Four adds the column numbers), the side to move, and
// each agent's move.
type difference struct {
	Rows   []string  `json:"rows"`
	ToMove string    `json:"to_move"`
	A      moveValue `json:"a"`
	B      moveValue `json:"b"`
}

// compare answers GET /api/compare/{a}/{b}: what ttt compare says of two
// agents (league.Compare): A's record against B, the difference of their
// ratings with its interval and A's expected score, and the positions
// where they move differently (every one in tic-tac-toe, the position
// set in Connect Four). With positions=0, the figures only: what a page
// that has the positions asks at each new round.
func (s *Server) compare(w http.ResponseWriter, r *http.Request, o *opened) {
	q := r.URL.Query().Get("positions")
	if q != "" && q != "0" && q != "1" {
		writeError(w, http.StatusBadRequest, "positions must be 0 or 1 (got %q)", q)
		return
	}
	var (
		a, b   *store.Agent
		played game.Record
		met    bool
		newest int64
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if newest, err = v.NewestRound(); err != nil {
			return err
		}
		// A pruned checkpoint keeps its record and rating; only its
		// moves cannot be compared (pruned says so).
		if a, err = v.Agent(r.PathValue("a")); err != nil && !errors.Is(err, store.ErrPruned) {
			return err
		}
		if b, err = v.Agent(r.PathValue("b")); err != nil && !errors.Is(err, store.ErrPruned) {
			return err
		}
		played, met, err = league.HeadToHead(v, a.ID, b.ID)
		return err
	})
	if !ok {
		return
	}
	if a.ID == b.ID {
		writeError(w, http.StatusBadRequest, "%s and %s are one agent, %s (%d): compare two", r.PathValue("a"), r.PathValue("b"), a.Name, a.ID)
		return
	}
	kit := agents.KitFor(o.db.Game())
	c := league.Compare(a, b, played, met)
	if q != "0" {
		if err := c.Moves(r.Context(), kit); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	out := struct {
		Game        string       `json:"game"`
		NewestRound int64        `json:"newest_round"`
		A           compared     `json:"a"`
		B           compared     `json:"b"`
		Met         bool         `json:"met"`
		Record      *record      `json:"record"` // A's, null if they have not played
		Score       *float64     `json:"score"`
		Diff        *interval    `json:"diff"` // A's Elo minus B's; null unless both are rated
		Expected    *float64     `json:"expected"`
		Compared    *int         `json:"compared,omitempty"` // the positions compared; absent with positions=0
		Differences []difference `json:"differences,omitempty"`
	}{Game: kit.Name(), NewestRound: newest, A: comparedOf(a), B: comparedOf(b), Met: met}
	if met {
		rec, score := recordOf(played), played.Score()
		out.Record, out.Score = &rec, &score
	}
	if c.Rated {
		out.Diff, out.Expected = &interval{Elo: c.Diff, Lo: c.Lo, Hi: c.Hi}, &c.Expected
	}
	if q != "0" {
		out.Compared = &c.Compared
		out.Differences = make([]difference, 0, len(c.Differences))
		for _, d := range c.Differences {
			out.Differences = append(out.Differences, difference{
				Rows: strings.Split(kit.Format(d.Position), "\n"), ToMove: kit.ToMove(d.Position).String(),
				A: moveValue{Move: kit.FormatMove(d.A), Value: d.AValue.String()},
				B: moveValue{Move: kit.FormatMove(d.B), Value: d.BValue.String()},
			})
		}
	}
	writeJSON(w, r, out)
}
