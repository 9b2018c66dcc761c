package web

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// pollEvery is how often an event stream asks the database for its
// newest round. The question reads the end of one index, some
// microseconds; a new round reaches the page within pollEvery of its
// commit, plus the page's own reload.
const pollEvery = 200 * time.Millisecond

// keepAlive is how often a quiet stream sends a comment, so that a
// client that has gone is found out (the write fails) and proxies keep
// the connection.
const keepAlive = 15 * time.Second

// events answers GET /api/events: a stream of server-sent events, one
// "round" event with data {"round": N} when the stream opens and one
// each time the newest committed round changes. The league run is
// another process, which tells nobody of its commits, so each stream
// polls the database (NewestRound) every pollEvery. The stream ends when
// the client goes or the server shuts down; browsers reconnect by
// themselves after the retry time it sets.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	// The server's read deadline would otherwise end the request (and
	// cancel its context) in the middle of a long stream; the write
	// deadline moves on with each event.
	if err := rc.SetReadDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	send := func(format string, args ...any) error {
		if err := rc.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return err
		}
		return rc.Flush()
	}
	if send("retry: 1000\n\n") != nil {
		return
	}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	last, quiet := int64(-1), time.Now()
	for {
		round, err := s.db.NewestRound(ctx)
		if err != nil {
			if ctx.Err() == nil && s.errLog != nil {
				s.errLog.Printf("%s %s: %v", r.Method, r.URL.Path, err)
			}
			return // the client reconnects, and asks again
		}
		switch {
		case round != last:
			err = send("event: round\ndata: {\"round\":%d}\n\n", round)
			last, quiet = round, time.Now()
		case time.Since(quiet) >= keepAlive:
			err = send(": keep-alive\n\n")
			quiet = time.Now()
		}
		if err != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-s.closed:
			return
		case <-tick.C:
		}
	}
}
