package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"ttt/store"
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

// rounds is the newest round, and whether a league runs, as the one
// poller that every event stream shares last read them: however many
// pages are open, the database is asked once every pollEvery, and only
// while one is.
type rounds struct {
	mu      sync.Mutex
	now     leagueState   // round -1 until the poller's first answer
	changed chan struct{} // closed, and replaced, when now changes
	streams int           // the streams open: the poller stops at none
	polling bool
	poller  sync.WaitGroup
}

// leagueState is what the event stream says of the league: its newest
// round, whether a ttt league run (or roundrobin) holds its lock, which
// is the truth of "running" that the pages show, and which league it is
// (opened.league): a page that sees another league starts anew. While no
// league opens at the server's path, league is empty and problem says
// why, and round is the last one seen.
type leagueState struct {
	round   int64
	running bool
	league  string
	problem string
}

// data is the state as an event's JSON.
func (st leagueState) data() string {
	b, _ := json.Marshal(struct {
		Round   int64  `json:"round"`
		Running bool   `json:"running"`
		League  string `json:"league"`
		Problem string `json:"problem,omitempty"`
	}{st.round, st.running, st.league, st.problem}) // always encodes
	return string(b)
}

// events answers GET /api/events: a stream of server-sent events, one
// "round" event with data {"round": N, "running": true, "league": L}
// (leagueState) when the stream
// opens and one each time the newest committed round changes or a league
// run starts or stops. The league run is
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
	now, changed := s.join()
	defer s.leave()
	quiet := time.NewTicker(keepAlive)
	defer quiet.Stop()
	last := leagueState{round: -1}
	for {
		if now.round >= 0 && now != last {
			if send("event: round\ndata: %s\n\n", now.data()) != nil {
				return
			}
			last = now
			quiet.Reset(keepAlive)
		}
		select {
		case <-changed:
			now, changed = s.newest()
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
// returns the league's state and the channel that closes when it changes.
func (s *Server) join() (leagueState, <-chan struct{}) {
	rs := &s.rounds
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.streams++
	// Never after Close, which waits for the poller.
	if !rs.polling && s.life.Err() == nil {
		rs.polling = true
		rs.poller.Go(s.poll)
	}
	return rs.now, rs.changed
}

// leave counts a stream out.
func (s *Server) leave() {
	s.rounds.mu.Lock()
	s.rounds.streams--
	s.rounds.mu.Unlock()
}

// newest returns the league's state and the channel that closes when it
// changes.
func (s *Server) newest() (leagueState, <-chan struct{}) {
	s.rounds.mu.Lock()
	defer s.rounds.mu.Unlock()
	return s.rounds.now, s.rounds.changed
}

// poll asks the database for the newest round, and the system whether a
// league run holds the database's lock, every pollEvery, and wakes the
// streams when either changes, until no stream is open or the server is
// closed. A failure is logged once, when it begins; the streams wait on.
func (s *Server) poll() {
	rs := &s.rounds
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	failing := false
	for {
		rs.mu.Lock()
		last := rs.now
		rs.mu.Unlock()
		now, err := s.observe(last)
		rs.mu.Lock()
		if rs.streams == 0 {
			// The next stream starts another poller, and must not get
			// this one's state, which may be old by then.
			rs.polling, rs.now = false, leagueState{round: -1}
			rs.mu.Unlock()
			return
		}
		if now.round >= 0 && now != rs.now {
			rs.now = now
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

// observe reads the league's state, last being the one seen before. A
// database that fails to answer leaves the state as it was; a league
// that cannot be opened makes a state that says why.
func (s *Server) observe(last leagueState) (leagueState, error) {
	o, err := s.league.acquire()
	if err != nil {
		return leagueState{round: max(last.round, 0), problem: err.Error()}, err
	}
	defer o.done()
	now := last
	err = o.db.View(s.life, func(v *store.View) error {
		round, err := v.NewestRound()
		if err != nil {
			return err
		}
		now = leagueState{round: round, running: o.db.Writer() != 0, league: o.league}
		return nil
	})
	if err == nil {
		err = o.current()
	}
	if err != nil {
		return last, err
	}
	return now, nil
}
