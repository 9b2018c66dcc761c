package web

import (
	"errors"
	"net/http"
	"time"

	"ttt/league"
	"ttt/store"
)

// paceRounds is how many of the newest rounds the league's pace is
// taken from: the last ten, so that it is the pace of now (a Connect
// Four league's rounds grow from minutes to a quarter of an hour over a
// night), not the night's mean; the answer says which rounds.
const paceRounds = 10

// health answers GET /api/health: the league at a glance. Whether a
// league run is at work (it holds the database's lock), the newest round
// and when it finished, the pace of the last rounds, the league's best
// (league.Find: the one best names everywhere) and the round at whose
// end it became the best, and the newest network.
func (s *Server) health(w http.ResponseWriter, r *http.Request, o *opened) {
	var (
		newest  int64
		times   []store.RoundTime
		best    *store.Agent
		from    int64 // the round at whose end best became the best
		changed bool  // the best was another network before since
		latest  *store.Agent
		writer  int
		ladders map[int64]*ladderRating
	)
	if !s.view(w, r, o, func(v *store.View) (err error) {
		if newest, err = v.NewestRound(); err != nil {
			return err
		}
		if times, err = v.RoundTimes(paceRounds); err != nil {
			return err
		}
		if best, from, changed, err = bestSince(v, o, newest); err != nil {
			return err
		}
		if latest, err = v.Agent(store.Latest); errors.Is(err, store.ErrNoCheckpoints) || errors.Is(err, store.ErrPruned) {
			err = nil
		}
		writer = o.db.Writer() // of the file read: view checks it is still the one named
		if err == nil && best != nil {
			ladders, err = laddersOf(v, best, latest)
		} else if err == nil {
			ladders, err = laddersOf(v, latest)
		}
		return err
	}) {
		return
	}
	type since struct {
		Round int64 `json:"round"`
		// Changed: the best changed at the end of Round; false, it has
		// been the best since the first round that had one.
		Changed bool `json:"changed"`
	}
	out := struct {
		Running bool `json:"running"`
		// Writer is the pid of the league run (or roundrobin) at work.
		Writer      int        `json:"writer,omitempty"`
		NewestRound int64      `json:"newest_round"`
		LastRound   *time.Time `json:"last_round"`      // when the newest round finished
		SecondsAgo  *float64   `json:"seconds_ago"`     // since then
		PerHour     *float64   `json:"rounds_per_hour"` // at the pace of the last paceRounds rounds
		PaceRounds  *[2]int64  `json:"pace_rounds"`     // the first and last of them
		LastSeconds *float64   `json:"last_seconds"`    // how long the newest round took
		Best        *compared  `json:"best"`            // the league's best
		BestSince   *since     `json:"best_since"`
		Latest      *compared  `json:"latest"` // the newest network
		// Float is how far the league's Elo has drifted from the ladder
		// at the best: its league Elo minus its ladder rating.
		Float *float64 `json:"float"`
	}{Writer: writer, NewestRound: newest}
	out.Running = out.Writer != 0
	if len(times) > 0 && !times[0].Finished.IsZero() {
		ago := time.Since(times[0].Finished).Seconds()
		out.LastRound, out.SecondsAgo = &times[0].Finished, &ago
	}
	// The pace while the league runs: the rounds' own durations, not the
	// time between them, which counts the nights the league was stopped.
	var busy time.Duration
	n := 0
	for _, t := range times {
		if !t.Finished.IsZero() {
			busy += t.Finished.Sub(t.Started)
			n++
		}
	}
	if busy > 0 {
		rate := float64(n) / busy.Hours()
		out.PerHour = &rate
		out.PaceRounds = &[2]int64{newest - int64(len(times)) + 1, newest}
	}
	if len(times) > 0 && !times[0].Finished.IsZero() {
		took := times[0].Finished.Sub(times[0].Started).Seconds()
		out.LastSeconds = &took
	}
	if best != nil {
		b := comparedOf(best, ladders)
		out.Best, out.BestSince = &b, &since{Round: from, Changed: changed}
		out.Float = floatOf(best, b.Ladder)
	}
	if latest != nil {
		l := comparedOf(latest, ladders)
		out.Latest = &l
	}
	writeJSON(w, r, out)
}

// bestSince reads the league's best in v, nil in a league without
// networks, and the round at whose end it became the best, from the
// rating history (league.BestHistory); changed: another network was the
// best before. A best that the history does not name yet (the latest
// network while none is rated, or a standing that a refit moved) is the
// best since the newest round.
func bestSince(v *store.View, o *opened, newest int64) (best *store.Agent, since int64, changed bool, err error) {
	found, err := league.Find(v, store.Best)
	switch {
	case errors.Is(err, store.ErrNoCheckpoints):
		return nil, 0, false, nil
	case err != nil && !errors.Is(err, store.ErrPruned):
		return nil, 0, false, err
	}
	best = found.Agent
	changes, err := o.bestHistory.update(v)
	if err != nil {
		return nil, 0, false, err
	}
	n := len(changes)
	if n == 0 || changes[n-1].Agent != best.ID {
		return best, newest, n > 0, nil
	}
	return best, changes[n-1].Round, n > 1, nil
}
