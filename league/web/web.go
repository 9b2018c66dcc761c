// Package web is ttt serve: the league in a browser. It serves a JSON
// API over a league database (api.go) and the pages that use it, plain
// HTML, CSS and JavaScript embedded in the binary with the charting
// library they need (static/), so that they work offline.
//
// The server only reads: the database is opened with store.OpenRead,
// and no endpoint writes. It works while ttt league run writes the same
// file, as every reader does (WAL); the pages learn of a new round from
// a stream of server-sent events (events.go).
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"ttt/agents/search"
	"ttt/league"
	"ttt/store"
)

//go:embed static
var static embed.FS

// Server answers the API and serves the pages over one league database.
// Its zero value is not usable: make one with New.
type Server struct {
	league *leagueFile
	mux    *http.ServeMux
	errLog *log.Logger

	// life ends at Close: the event streams, which would otherwise keep
	// http.Server.Shutdown waiting for as long as a page stays open, and
	// their poller of the newest round.
	life context.Context
	stop context.CancelFunc

	rounds rounds // the newest round, for the event streams

	searches searches
	measures sync.WaitGroup // the measures under way (facts)

	// others are the leagues served beside this one (ttt serve --with),
	// each by a server of its own under /with/N/, N from 1, in order.
	others []other
}

// other is a league served beside the server's own: its name as given,
// and its server.
type other struct {
	name string
	s    *Server
}

// With serves o, the server of another league named name, beside s's
// own, under /with/N/ (N from 1, in the order of the calls), and lists it
// in /api/leagues, whose learning curves the leaderboard draws side by
// side. It is called before s serves.
func (s *Server) With(name string, o *Server) { s.others = append(s.others, other{name: name, s: o}) }

// with hands a request under /with/N/ to the N-th other league's server,
// the prefix taken off.
func (s *Server) with(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > len(s.others) {
		writeError(w, http.StatusNotFound, "no such league: %s (ttt serve --with names the others, from 1)", r.PathValue("n"))
		return
	}
	http.StripPrefix("/with/"+strconv.Itoa(n), s.others[n-1].s).ServeHTTP(w, r)
}

// leagues answers GET /api/leagues: this league and those served beside
// it (ttt serve --with), each with its name and where its API is.
func (s *Server) leagues(w http.ResponseWriter, r *http.Request) {
	type entry struct {
		Name string `json:"name"`
		Base string `json:"base"` // its API is at Base + "/api/..."
	}
	out := struct {
		Leagues []entry `json:"leagues"`
	}{Leagues: []entry{{Name: filepath.Base(s.league.path), Base: ""}}}
	for k, o := range s.others {
		out.Leagues = append(out.Leagues, entry{Name: o.name, Base: "/with/" + strconv.Itoa(k+1)})
	}
	writeJSON(w, r, out)
}

// New returns the server of the league database at path, which open
// opens (store.OpenRead, as a command names it) and which the server
// only reads. It opens it at once, and fails as open does. When path
// comes to name another file, the server closes the one it read and
// opens the new one with open (league.go). errLog, when not nil, gets a
// line for every answer with status 500: a failure of the database
// rather than of the request.
func New(path string, open func() (*store.DB, error), errLog *log.Logger) (*Server, error) {
	s := &Server{league: &leagueFile{path: path, open: open}, mux: http.NewServeMux(), errLog: errLog, rounds: rounds{now: leagueState{round: -1}, changed: make(chan struct{})},
		searches: newSearches()}
	o, err := s.league.acquire()
	if err != nil {
		return nil, err
	}
	o.done()
	s.life, s.stop = context.WithCancel(context.Background())
	s.routes()
	return s, nil
}

// endStreams ends the server's event streams and its searches at once,
// and waits for their poller of the database to stop; requests of other
// kinds are not affected, and a search's is answered 503. http.Server.RegisterOnShutdown takes it.
func (s *Server) endStreams() {
	s.rounds.mu.Lock()
	s.stop() // under the lock: no stream starts a poller after it
	s.rounds.mu.Unlock()
	s.rounds.poller.Wait()
}

// Close ends the event streams and the measures of searched agents, and
// closes the database, once the answers under way have ended. It may be
// called more than once.
func (s *Server) Close() {
	s.endStreams()
	s.searches.mu.Lock()
	s.searches.closed = true // under the lock that a measure starts under
	s.searches.mu.Unlock()
	s.measures.Wait()
	s.league.close()
}

// bootTag is how a page names static/boot.js, which the server puts in
// the page itself: a page that lost its scripts as the server restarted
// must still have that one, which loads it again.
const bootTag = `<script src="/static/boot.js"></script>`

// bootScript is boot.js, as the pages hold it inline.
var bootScript = func() string {
	b, _ := static.ReadFile("static/boot.js") // embedded
	return string(b)
}()

// contentPolicy is every answer's Content-Security-Policy. The pages load
// nothing from elsewhere, and nothing may frame them; the one inline
// script they run is boot.js, named by its hash.
var contentPolicy = func() string {
	sum := sha256.Sum256([]byte(bootScript))
	return fmt.Sprintf("default-src 'self'; script-src 'self' 'sha256-%s'; img-src 'self' data:; frame-ancestors 'none'", base64.StdEncoding.EncodeToString(sum[:]))
}()

// maxBody bounds every request's body: the largest a request needs is
// a move's JSON, a few dozen bytes.
const maxBody = 4 << 10

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	h := w.Header()
	// The pages load nothing from elsewhere, and nothing may frame them.
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	// net/http reads 4 KiB past MaxHeaderBytes before it refuses a
	// request: the limit is kept here to the byte.
	if n := headerBytes(r); n > maxHeaderBytes {
		writeError(w, http.StatusRequestHeaderFieldsTooLarge, "the request's headers are %d bytes: the limit is 16 KiB", n)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// headerBytes is the size of r's request line and headers as they came
// (give or take the spaces that net/http trims), as MaxHeaderBytes
// counts them.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + len("  \r\n")
	n += len("Host: \r\n") + len(r.Host)
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + len(": \r\n")
		}
	}
	return n + len("\r\n")
}

// routes registers the API and the pages. Methods are checked by
// allow rather than by the patterns, so that a wrong method gets the
// API's JSON error, not the mux's text.
func (s *Server) routes() {
	api := func(pattern string, h leagueHandler, methods ...string) {
		s.mux.Handle(pattern, allow(s.onLeague(h), methods...))
	}
	s.mux.Handle("/api/events", allow(s.events, http.MethodGet))
	s.mux.Handle("/api/leagues", allow(s.leagues, http.MethodGet))
	s.mux.Handle("/with/{n}/", http.HandlerFunc(s.with))
	api("/api/game", s.game, http.MethodGet)
	api("/api/leaderboard", s.leaderboard, http.MethodGet)
	api("/api/progress", s.progress, http.MethodGet)
	api("/api/health", s.health, http.MethodGet)
	api("/api/rounds", s.roundTable, http.MethodGet)
	api("/api/agents/{ref}", s.agent, http.MethodGet)
	api("/api/agents/{ref}/history", s.history, http.MethodGet)
	api("/api/agents/{ref}/opponents", s.opponents, http.MethodGet)
	api("/api/agents/{ref}/weights", s.weights, http.MethodGet)
	api("/api/agents/{ref}/move", s.move, http.MethodGet, http.MethodPost)
	api("/api/compare/{a}/{b}", s.compare, http.MethodGet)
	// The downloads (downloads.go).
	api("/api/progress.csv", s.curveCSV, http.MethodGet)
	api("/api/agents/{ref}/opponents.csv", s.opponentsCSV, http.MethodGet)
	api("/api/agents/{ref}/games.pgn", s.gamesPGN, http.MethodGet)
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: %s (see docs/serve.md)", r.URL.Path)
	})

	// The pages are shells that read their agent from the API: that of
	// /agents/99, which is no agent, shows the API's 404 message.
	pages, _ := fs.Sub(static, "static") // the directory is embedded
	serve := func(w http.ResponseWriter, r *http.Request, name string) {
		// Files, not listings of directories.
		if info, err := fs.Stat(pages, name); err != nil || info.IsDir() {
			writeError(w, http.StatusNotFound, "no such file: %s", r.URL.Path)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		if !strings.HasSuffix(name, ".html") {
			http.ServeFileFS(w, r, pages, name)
			return
		}
		page, _ := fs.ReadFile(pages, name) // it is there
		page = bytes.Replace(page, []byte(bootTag), []byte("<script>"+bootScript+"</script>"), 1)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(page))
	}
	page := func(name string) http.Handler {
		return allow(func(w http.ResponseWriter, r *http.Request) { serve(w, r, name) }, http.MethodGet)
	}
	// An agent's pages for an agent that is not there are a page that
	// says so, with status 404: not a shell that asks the API again at
	// every round.
	agentPage := func(name string, refs ...string) http.Handler {
		return allow(func(w http.ResponseWriter, r *http.Request) {
			o, err := s.league.acquire()
			if err == nil {
				err = o.db.View(r.Context(), func(v *store.View) error {
					for _, ref := range refs {
						// A model with a search after its name is there
						// if the model is: the API makes the searched
						// agent when the page asks for it.
						name, _, err := search.Split(r.PathValue(ref))
						if err != nil {
							return err
						}
						if _, err := league.FindName(v, name); err != nil {
							return err
						}
					}
					return nil
				})
				o.done()
			}
			if errors.Is(err, store.ErrNotFound) || errors.Is(err, search.ErrSpec) {
				notFound(w, r, err.Error())
				return
			}
			// Other errors (a league without networks has no best, a busy
			// database) are the page's to say, and may pass.
			serve(w, r, name)
		}, http.MethodGet)
	}
	s.mux.Handle("/{$}", page("index.html"))
	s.mux.Handle("/agents/{ref}", agentPage("agent.html", "ref"))
	s.mux.Handle("/play/{ref}", agentPage("play.html", "ref"))
	s.mux.Handle("/compare/{a}/{b}", agentPage("compare.html", "a", "b"))
	s.mux.Handle("/static/{file...}", allow(func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, r.PathValue("file"))
	}, http.MethodGet))
	// Every other path: the mux's own answer would be plain text.
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		notFound(w, r, fmt.Sprintf("no such page: %s (the pages are /, /agents/REF, /play/REF and /compare/REF/REF)", r.URL.Path))
	})
}

// leagueHandler answers a request from the league file that o is.
type leagueHandler func(w http.ResponseWriter, r *http.Request, o *opened)

// onLeague answers a request with h on the file the league's path names
// now, for as long as it takes: the file stays open until h returns, and
// h's context ends if the path comes to name another file meanwhile
// (league.go). While no league opens there, the answer is 503 and says
// why.
func (s *Server) onLeague(h leagueHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		o, err := s.league.acquire()
		if err != nil {
			writeError(w, http.StatusServiceUnavailable, "%v", err)
			return
		}
		defer o.done()
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		defer context.AfterFunc(o.life, cancel)()
		h(w, r.WithContext(ctx), o)
	}
}

// notFound answers 404 with message: a page with a way back for a
// browser, which asks for HTML, and the API's JSON error for the rest.
func notFound(w http.ResponseWriter, r *http.Request, message string) {
	if !strings.Contains(r.Header.Get("Accept"), "text/html") {
		writeError(w, http.StatusNotFound, "%s", message)
		return
	}
	body, _ := static.ReadFile("static/notfound.html") // embedded
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNotFound)
	io.WriteString(w, strings.Replace(string(body), "{{message}}", html.EscapeString(message), 1))
}

// allow answers a request whose method is not among methods (HEAD goes
// with GET) with 405 and the methods allowed.
func allow(h http.HandlerFunc, methods ...string) http.Handler {
	if slices.Contains(methods, http.MethodGet) {
		methods = append(methods, http.MethodHead)
	}
	allowed := strings.Join(methods, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(methods, r.Method) {
			w.Header().Set("Allow", allowed)
			writeError(w, http.StatusMethodNotAllowed, "method %s is not allowed here: use %s", r.Method, allowed)
			return
		}
		h(w, r)
	})
}

// Server timeouts. A request is a few bytes and an answer at most a few
// hundred kilobytes; slow clients must not hold connections for long.
// The event stream, the one long answer, moves its write deadline on
// with each event.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 16 << 10
	// shutdownTimeout is how long Serve waits for answers under way
	// when ctx is cancelled.
	shutdownTimeout = 5 * time.Second
)

// Serve serves h on ln until ctx is cancelled, then shuts down cleanly:
// it stops listening, ends the event streams and waits for the answers
// under way (up to a few seconds). It returns nil after such a shutdown.
// On a loopback address it answers only requests addressed to a
// loopback name (see loopbackOnly).
func Serve(ctx context.Context, ln net.Listener, h *Server, errLog *log.Logger) error {
	var handler http.Handler = h
	if isLoopback(ln.Addr()) {
		handler = loopbackOnly(h)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          errLog,
		// Requests outlive ctx: Shutdown lets the answers under way
		// finish rather than cutting them off at Ctrl-C.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	srv.RegisterOnShutdown(h.endStreams)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(stop)
	h.endStreams() // Shutdown runs it, but does not wait for it: the caller closes the server next
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	return nil
}

// isLoopback reports whether addr is a loopback address.
func isLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// loopbackOnly refuses requests whose Host is not localhost or a loopback
// address. A server on loopback is meant for this machine's browser, but
// any web page that browser opens could reach it through a name of its
// own that it points at 127.0.0.1 (DNS rebinding) and read the league;
// such a request carries that name as its Host.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hp, _, err := net.SplitHostPort(host); err == nil {
			host = hp
		}
		host = strings.Trim(host, "[]")
		if ip := net.ParseIP(host); !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
			writeError(w, http.StatusForbidden, "host %q: this server answers only on localhost (see ttt serve --addr)", r.Host)
			return
		}
		h.ServeHTTP(w, r)
	})
}
