package web

import (
	"errors"
	"net/http"
	"time"

	"ttt/store"
)

// paceRounds is how many of the newest rounds the league's pace is
// reckoned from: enough to smooth a slow round, few enough to follow a
// league that slows down as it grows.
const paceRounds = 100

// health answers GET /api/health: the league at a glance. Whether a
// league run is at work (it holds the database's lock), the newest round
// and when it finished, the pace of the last rounds, the best the pages
// show and since when (best.go), and the newest network.
func (s *Server) health(w http.ResponseWriter, r *http.Request, o *opened) {
	var (
		newest  int64
		times   []store.RoundTime
		shown   *shownBest
		latest  *store.Agent
		writer  int
		ladders map[int64]*interval
	)
	if !s.view(w, r, o, func(v *store.View) (err error) {
		if newest, err = v.NewestRound(); err != nil {
			return err
		}
		if times, err = v.RoundTimes(paceRounds); err != nil {
			return err
		}
		if shown, err = o.best.note(v, newest); err != nil {
			return err
		}
		if latest, err = v.Agent(store.Latest); errors.Is(err, store.ErrNoCheckpoints) || errors.Is(err, store.ErrPruned) {
			err = nil
		}
		writer = o.db.Writer() // of the file read: view checks it is still the one named
		if err == nil && shown != nil {
			ladders, err = laddersOf(v, shown.best, shown.leader, latest)
		} else if err == nil {
			ladders, err = laddersOf(v, latest)
		}
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
		Best        *compared  `json:"best"`            // the best the pages show (best.go)
		BestSince   *since     `json:"best_since"`
		// Leader is the league's best by its rule where it is not the
		// best shown, which it leads by less than Margin on the low end
		// of its interval; absent otherwise.
		Leader *compared `json:"leader,omitempty"`
		Margin *float64  `json:"margin,omitempty"`
		Latest *compared `json:"latest"` // the newest network
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
	}
	if shown != nil {
		best := comparedOf(shown.best, ladders)
		out.Best, out.BestSince = &best, &since{Round: shown.since, Changed: shown.changed}
		out.Float = floatOf(shown.best, best.Ladder)
		if shown.leader != nil {
			leader, m := comparedOf(shown.leader, ladders), margin(shown.leader.Standing, shown.best.Standing)
			out.Leader, out.Margin = &leader, &m
		}
	}
	if latest != nil {
		l := comparedOf(latest, ladders)
		out.Latest = &l
	}
	writeJSON(w, r, out)
}
