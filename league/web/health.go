package web

import (
	"net/http"
	"sync"
	"time"

	"ttt/store"
)

// paceRounds is how many of the newest rounds the league's pace is
// reckoned from: enough to smooth a slow round, few enough to follow a
// league that slows down as it grows.
const paceRounds = 100

// bestSeen is when this server first saw the best it shows: the league
// does not store when its best changed (the best rule orders the
// standings of the moment), so the server notes it, from the first
// answer that names a best on.
type bestSeen struct {
	mu    sync.Mutex
	id    int64
	round int64 // the newest round when it was first seen as the best
	// changed: the server saw another best before it, so round is when
	// the best changed; otherwise it was already the best at round.
	changed bool
}

// note records that best is the best at round, and returns since when it
// has been, as far as this server knows.
func (b *bestSeen) note(best, round int64) (since int64, changed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if best != b.id {
		b.changed = b.id != 0
		b.id, b.round = best, round
	}
	return b.round, b.changed
}

// health answers GET /api/health: the league at a glance. Whether a
// league run is at work (it holds the database's lock), the newest round
// and when it finished, the pace of the last rounds, and the best and
// since when it is.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	var (
		newest int64
		times  []store.RoundTime
		best   *agentRef
	)
	if !s.view(w, r, func(v *store.View) (err error) {
		if newest, err = v.NewestRound(); err != nil {
			return err
		}
		if times, err = v.RoundTimes(paceRounds); err != nil {
			return err
		}
		best, err = bestOf(v)
		return err
	}) {
		return
	}
	type since struct {
		Round int64 `json:"round"`
		// Changed: this server saw the best change at Round; false, it
		// was the best already when the server first looked, at Round.
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
		Best        *agentRef  `json:"best"`
		BestSince   *since     `json:"best_since"`
	}{Writer: s.db.Writer(), NewestRound: newest, Best: best}
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
	}
	if best != nil {
		round, changed := s.best.note(best.ID, newest)
		out.BestSince = &since{Round: round, Changed: changed}
	}
	writeJSON(w, out)
}
