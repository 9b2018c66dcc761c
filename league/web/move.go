package web

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/league"
)

// moveAnswer is an agent's move in a position, with what it thought of
// every move, as ttt play shows it. Moves are written as people type
// them (squares 0-8, columns 1-7); the lists have one entry per move in
// that order (nine squares, seven columns).
type moveAnswer struct {
	Agent  *agentRef `json:"agent"`
	Board  string    `json:"board"` // in the game's notation (see writeBoard)
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
	// Seconds is how long the agent took to choose its move, on the
	// server.
	Seconds float64 `json:"seconds"`
	// Search is what a searched agent's search did for the move; absent
	// for the others.
	Search *searchFigures `json:"search,omitempty"`
}

// searchFigures is what a search did for a move: how far it got, in
// its unit (alpha-beta the plies it finished, its depth but where the
// time a move stopped it; MCTS the simulations it ran), how far its
// spec asked (ab8: 8), and the positions it judged; with the words that
// say it, so that a page says what any search did, and whether the
// server's limits on a move stopped it short.
type searchFigures struct {
	Kind    string // its title in lower case: alpha-beta, mcts
	Title   string // alpha-beta, MCTS
	Unit    string // plies, simulations
	One     string // ply, simulation: the unit of one
	Per     string // deep, a move
	Reached int
	Budget  int
	Nodes   int
}

// MarshalJSON writes f with how far the search got under its unit's
// name: {"kind": "alpha-beta", "title": "alpha-beta", "unit": "plies",
// "unit_one": "ply", "per": "deep", "budget": 8, "plies": 6, "nodes": 4211}.
func (f searchFigures) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for _, kv := range [][2]string{{"kind", f.Kind}, {"title", f.Title}, {"unit", f.Unit}, {"unit_one", cmp.Or(f.One, f.Unit)}, {"per", f.Per}} {
		v, err := json.Marshal(kv[1])
		if err != nil {
			return nil, err
		}
		out = append(fmt.Appendf(out, "%q:", kv[0]), append(v, ',')...)
	}
	unit, err := json.Marshal(f.Unit)
	if err != nil {
		return nil, err
	}
	out = fmt.Appendf(out, `"budget":%d,`, f.Budget)
	return fmt.Appendf(append(out, unit...), `:%d,"nodes":%d}`, f.Reached, f.Nodes), nil
}

// move answers GET /api/agents/{ref}/move?board=B (or ?moves=4,0,8), or
// a POST of {"board": B} or {"moves": [4, 0, 8]}: the agent's move in the
// position, stateless. A network, a table and the deterministic
// built-in players play as in ttt play (greedily); random and MCTS draw
// their moves.
func (s *Server) move(w http.ResponseWriter, r *http.Request, o *opened) {
	kit := agents.KitFor(o.db.Game())
	p, moves, err := requestPosition(r, kit)
	if err != nil {
		status := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			status = http.StatusRequestEntityTooLarge
		}
		writeError(w, status, "%v", err)
		return
	}
	board := writeBoard(kit, p, moves)
	if res := kit.Result(p); res != game.Ongoing {
		writeError(w, http.StatusBadRequest, "board %q: the game is over (%s): there is no move to make", board, res)
		return
	}
	a, err := storedAgent(r, o, r.PathValue("ref"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := moveAnswer{Agent: refOf(a.Agent), Board: board, ToMove: kit.ToMove(p).String()}
	var model learn.Model
	if a.Weights != nil {
		if model, err = league.ModelOf(kit, a); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	// Random and MCTS: a move of their own at each request. A search
	// thinks a second at most, as in ttt play.
	t, err := league.NewThinker(kit, a.Agent, model, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), moveTime)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The reply's time is its thinking's, not its wait for a place in
	// the pool of searches.
	var th league.Thought
	var took time.Duration
	think := func(ctx context.Context) (err error) {
		start := time.Now()
		th, err = t.Think(ctx, p)
		took = time.Since(start)
		return err
	}
	if searched(a.Agent) {
		err = s.search(r, think)
	} else {
		err = think(r.Context())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out.Seconds = took.Seconds()
	if t.Searcher != nil {
		st, spec := t.Searcher.Last(), t.Searcher.Spec()
		s := spec.Search
		out.Search = &searchFigures{Kind: strings.ToLower(s.Title), Title: s.Title, Unit: s.Unit, One: s.One, Per: s.Per, Reached: st.Depth, Budget: spec.N, Nodes: st.Nodes}
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
	out.Move, out.After, out.Result = kit.FormatMove(m), writeBoard(kit, after, append(moves, m)), kit.Result(after).String()
	writeJSON(w, r, out)
}
