package web

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// pollEvery is how often the server asks the database for its newest
// round while an event stream is open. The question reads the end of one
// index, some microseconds; a new round reaches the page within pollEvery
// of its commit, plus the page's own reload.
const pollEvery = 200 * time.Millisecond

// keepAlive is how often a quiet stream sends a comment, so that a
// client that has gone is found out (the write fails) and proxies keep
// the connection.
const keepAlive = 15 * time.Second

// rounds is the newest round as the one poller that every event stream
// shares last read it: however many pages are open, the database is
// asked once every pollEvery, and only while one is.
type rounds struct {
	mu      sync.Mutex
	round   int64         // -1 until the poller's first answer
	changed chan struct{} // closed, and replaced, when round changes
	streams int           // the streams open: the poller stops at none
	polling bool
	poller  sync.WaitGroup
}

// events answers GET /api/events: a stream of server-sent events, one
// "round" event with data {"round": N} when the stream opens and one
// each time the newest committed round changes. The league run is
// another process, which tells nobody of its commits, so the server
// polls the database (see rounds). The stream ends when the client goes
// or the server shuts down; browsers reconnect by themselves after the
// retry time it sets.
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
	round, changed := s.join()
	defer s.leave()
	quiet := time.NewTicker(keepAlive)
	defer quiet.Stop()
	last := int64(-1)
	for {
		if round >= 0 && round != last {
			if send("event: round\ndata: {\"round\":%d}\n\n", round) != nil {
				return
			}
			last = round
			quiet.Reset(keepAlive)
		}
		select {
		case <-changed:
			round, changed = s.newest()
		case <-quiet.C:
			if send(": keep-alive\n\n") != nil {
				return
			}
		case <-ctx.Done():
			return
		case <-s.life.Done():
			return
		}
	}
}

// join counts a stream in, starting the poller if it is not running, and
// returns the newest round and the channel that closes when it changes.
func (s *Server) join() (int64, <-chan struct{}) {
	rs := &s.rounds
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.streams++
	// Never after Close, which waits for the poller.
	if !rs.polling && s.life.Err() == nil {
		rs.polling = true
		rs.poller.Go(s.poll)
	}
	return rs.round, rs.changed
}

// leave counts a stream out.
func (s *Server) leave() {
	s.rounds.mu.Lock()
	s.rounds.streams--
	s.rounds.mu.Unlock()
}

// newest returns the newest round and the channel that closes when it
// changes.
func (s *Server) newest() (int64, <-chan struct{}) {
	s.rounds.mu.Lock()
	defer s.rounds.mu.Unlock()
	return s.rounds.round, s.rounds.changed
}

// poll asks the database for the newest round every pollEvery, and wakes
// the streams when it changes, until no stream is open or the server is
// closed. A failure is logged once, when it begins; the streams wait on.
func (s *Server) poll() {
	rs := &s.rounds
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	failing := false
	for {
		round, err := s.db.NewestRound(s.life)
		rs.mu.Lock()
		if rs.streams == 0 {
			// The next stream starts another poller, and must not get
			// this one's round, which may be old by then.
			rs.polling, rs.round = false, -1
			rs.mu.Unlock()
			return
		}
		if err == nil && round != rs.round {
			rs.round = round
			close(rs.changed)
			rs.changed = make(chan struct{})
		}
		rs.mu.Unlock()
		if err != nil && !failing && s.life.Err() == nil && s.errLog != nil {
			s.errLog.Printf("GET /api/events: %v", err)
		}
		failing = err != nil
		select {
		case <-s.life.Done():
			return
		case <-tick.C:
		}
	}
}
