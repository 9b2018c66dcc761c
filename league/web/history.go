package web

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"

	"ttt/league"
	"ttt/store"
)

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
		agent, err = league.FindName(v, r.PathValue("ref"))
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
