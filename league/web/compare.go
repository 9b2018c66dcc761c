package web

import (
	"context"
	"errors"
	"math/bits"
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
	Ladder   *ladderRating    `json:"ladder"` // its ladder rating; null for a built-in player, or one that has met none
}

// comparedOf is a as a comparison gives it, with its ladder rating from
// ladders (laddersOf).
func comparedOf(a *store.Agent, ladders map[int64]*ladderRating) compared {
	c := compared{agentRef: *refOf(a), Pruned: isPruned(a), Class: classOf(a), Shares: sharesOf(a), Ladder: ladders[a.ID]}
	if st := a.Standing; st != nil {
		c.Standing = &standingFigures{interval: intervalOf(st.HistoryRow), Round: st.Round, Games: st.Games, record: recordOf(st.Record)}
	}
	return c
}

// moveValue is an agent's move in a position, as people type it, and its
// exact value for the side to move; in tic-tac-toe, whether the agent's
// own play reaches the position (ownPlay).
type moveValue struct {
	Move   string `json:"move"`
	Value  string `json:"value"`
	InPlay *bool  `json:"in_play,omitempty"`
}

// difference is a position where the two agents move differently:
// the board as the game draws it in text (rows of X, O and ., the top
// first; Connect Four adds the column numbers), the side to move, and
// each agent's move.
type difference struct {
	Rows   []string  `json:"rows"`
	ToMove string    `json:"to_move"`
	Best   string    `json:"best"` // the position's value for the side to move: its best move's
	A      moveValue `json:"a"`
	B      moveValue `json:"b"`
}

// ownPlay returns the positions where p is to move in the games it plays
// as side against every line of the other side's moves: those its own
// play reaches, where ttt verify checks it. A comparison walks every
// position, and there an agent of the perfect class may make a losing
// move in a position its own play never reaches. Only for a game whose
// tree is small enough to walk (tic-tac-toe).
func ownPlay(kit *agents.Kit, p game.Player, side game.Side) map[game.Position]bool {
	mine, seen := map[game.Position]bool{}, map[game.Position]bool{}
	var walk func(pos game.Position)
	walk = func(pos game.Position) {
		if seen[pos] || kit.Result(pos) != game.Ongoing {
			return
		}
		seen[pos] = true
		if kit.ToMove(pos) == side {
			mine[pos] = true
			walk(kit.Play(pos, p.Move(pos)))
			return
		}
		for legal := kit.Legal(pos); legal != 0; legal &= legal - 1 {
			walk(kit.Play(pos, bits.TrailingZeros64(legal)))
		}
	}
	walk(kit.Start())
	return mine
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
		a, b    *league.Agent
		played  game.Record
		met     bool
		newest  int64
		ladders map[int64]*ladderRating
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if newest, err = v.NewestRound(); err != nil {
			return err
		}
		// A pruned checkpoint keeps its record and rating; only its
		// moves cannot be compared (pruned says so). A searched agent
		// the league has not got (ID 0) has met nobody.
		get := func(ref string) (*league.Agent, error) {
			a, err := league.Find(v, ref)
			if err != nil && !errors.Is(err, store.ErrPruned) {
				return nil, err
			}
			return a, nil
		}
		if a, err = get(r.PathValue("a")); err != nil {
			return err
		}
		if b, err = get(r.PathValue("b")); err != nil || a.ID == 0 || b.ID == 0 {
			return err
		}
		if ladders, err = laddersOf(v, a.Agent, b.Agent); err != nil {
			return err
		}
		played, met, err = league.HeadToHead(v, a.ID, b.ID)
		return err
	})
	if !ok {
		return
	}
	if a.Name == b.Name {
		writeError(w, http.StatusBadRequest, "%s and %s are one agent, %s (%d): compare two", r.PathValue("a"), r.PathValue("b"), a.Name, a.ID)
		return
	}
	kit := agents.KitFor(o.db.Game())
	c := league.Compare(a, b, played, met)
	var plays [2][2]map[game.Position]bool // in tic-tac-toe, by agent and side, the positions its own play reaches
	if q != "0" {
		work := func(ctx context.Context) error {
			if err := c.Moves(ctx, kit, moveTime); err != nil {
				return err
			}
			// In tic-tac-toe, whether each one's own play reaches each
			// position, as X or as O.
			if kit.Positions == nil && len(c.Differences) > 0 {
				for i, a := range []*league.Agent{a, b} {
					p, err := league.Deterministic(ctx, kit, a, moveTime) // both are: they differ
					if err != nil {
						return err
					}
					plays[i] = [2]map[game.Position]bool{ownPlay(kit, p, game.X), ownPlay(kit, p, game.O)}
				}
			}
			return ctx.Err()
		}
		var err error
		if searched(a.Agent) || searched(b.Agent) {
			err = s.search(r, work)
		} else {
			err = work(r.Context())
		}
		if err != nil {
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
	}{Game: kit.Name(), NewestRound: newest, A: comparedOf(a.Agent, ladders), B: comparedOf(b.Agent, ladders), Met: met}
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
		inPlay := func(i int, pos game.Position) *bool {
			if plays[i][0] == nil {
				return nil
			}
			in := plays[i][kit.ToMove(pos)][pos]
			return &in
		}
		for _, d := range c.Differences {
			diff := difference{
				Rows: strings.Split(kit.Format(d.Position), "\n"), ToMove: kit.ToMove(d.Position).String(), Best: d.Best.String(),
				A: moveValue{Move: kit.FormatMove(d.A), Value: d.AValue.String(), InPlay: inPlay(0, d.Position)},
				B: moveValue{Move: kit.FormatMove(d.B), Value: d.BValue.String(), InPlay: inPlay(1, d.Position)},
			}
			out.Differences = append(out.Differences, diff)
		}
	}
	writeJSON(w, r, out)
}
