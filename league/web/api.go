package web

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"ttt/agents/search"
	"ttt/league"
	"ttt/store"
)

// The API: JSON over GET (and POST for a move), every answer a JSON
// object, every error one too ({"status": 404, "message": "..."}) with a
// 4xx status for a request that cannot be answered, and 500 only when the
// database fails. docs/serve.md, "The API", documents each endpoint.
//
// Each answer is read in one store.View: one read transaction, so that
// what it says (the newest round, the standings, which agent is best) is
// of one state of the league while a league run commits.

// Leaderboard sizes: the pages show the top 20; a script may ask for up
// to maxLimit rows, which stays within the API's time target at any
// league size (BENCHMARKS.md, "`ttt serve` at 100,000 checkpoints").
const (
	defaultLimit = 20
	maxLimit     = 1000
)

// maxPoints bounds the points of the learning curve: more than a chart's
// width in pixels shows nothing more.
const maxPoints = 2000

// maxRoundRows bounds the rows of a history carried forward round by
// round in one answer; next_from says where the next answer starts. A
// variable for the tests only.
var maxRoundRows int64 = 10000

// apiError is the answer to a request that failed.
type apiError struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

// writeJSON answers v with status 200. The API's answers change with
// every round, so a browser must ask again each time (no-cache); but an
// answer carries a hash of itself (its ETag), so that one that has not
// changed since the copy the browser holds is 304, with no body. An
// answer of more than gzipAbove bytes goes compressed to a client that
// takes gzip, as browsers do: JSON's names repeat in every row.
func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	body, _ := json.Marshal(v) // the answer types always encode
	body = append(body, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Encoding")
	sum := fnv.New64a()
	sum.Write(body)
	etag := fmt.Sprintf(`W/"%x"`, sum.Sum64())
	h.Set("ETag", etag)
	if strings.Contains(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if len(body) <= gzipAbove || !acceptsGzip(r) {
		w.Write(body) // a write error is the client's
		return
	}
	h.Set("Content-Encoding", "gzip")
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // a valid level
	zw.Write(body)
	zw.Close()
}

// gzipAbove is the size of an answer above which it is compressed: below
// it, the few bytes saved are not worth the work.
const gzipAbove = 1 << 10

// acceptsGzip reports whether r's client takes gzip-encoded answers.
func acceptsGzip(r *http.Request) bool {
	for _, e := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if name, q, _ := strings.Cut(strings.TrimSpace(e), ";"); strings.EqualFold(name, "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// writeError answers an error: status and a message.
func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(apiError{Status: status, Message: fmt.Sprintf(format, args...)})
}

// fail answers an error of the store: 404 for an agent that is not
// there, 410 for a checkpoint whose weights ttt prune dropped, 503 when
// the database is busy or its file was replaced or removed under the
// server, and 500, logged, for the rest, which are the database's
// failures rather than the request's.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrNoCheckpoints):
		writeError(w, http.StatusNotFound, "%v", err)
	case errors.Is(err, store.ErrPruned):
		writeError(w, http.StatusGone, "%v", err)
	case errors.Is(err, search.ErrSpec), errors.Is(err, league.ErrNoModel):
		writeError(w, http.StatusBadRequest, "%v", err)
	case errors.Is(err, errBusy):
		w.Header().Set("Retry-After", retryAfter)
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	case errors.Is(err, store.ErrBusy), errors.Is(err, errReplaced), errors.Is(err, store.ErrReplaced), errors.Is(err, errGone), errors.Is(err, errClosed),
		errors.Is(err, errTooLong):
		// store.ErrReplaced is the store noticing the replacement in the
		// middle of a read, before the server's own look at the file.
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	case r.Context().Err() != nil:
		// The client has gone: nobody reads the answer.
		writeError(w, http.StatusServiceUnavailable, "the request was cancelled")
	default:
		if s.errLog != nil {
			s.errLog.Printf("%s %s: %v", r.Method, r.URL.Path, err)
		}
		writeError(w, http.StatusInternalServerError, "%s", store.Explained(err))
	}
}

// intParam reads the query parameter name as a whole number within
// lo..hi, def when it is absent; an error says it must be what.
func intParam(r *http.Request, name, what string, def, lo, hi int64) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be %s (got %q)", name, what, v)
	}
	return n, nil
}

// limitParam reads the query parameter limit: 1 to maxLimit rows,
// defaultLimit when it is absent.
func limitParam(r *http.Request) (int, error) {
	n, err := intParam(r, "limit", fmt.Sprintf("a whole number from 1 to %d", maxLimit), defaultLimit, 1, maxLimit)
	return int(n), err
}

// view reads the answer to r in one store.View of o, and answers the
// store's error if it fails, or errReplaced if the league's path named
// another file by the end: ok is false then, and the handler has
// answered.
func (s *Server) view(w http.ResponseWriter, r *http.Request, o *opened, fn func(*store.View) error) (ok bool) {
	err := o.db.View(r.Context(), fn)
	if err == nil {
		err = o.current() // every read was of one file
	}
	if err != nil {
		s.fail(w, r, err)
		return false
	}
	return true
}

// moveTime is the longest a searched agent thinks a move for a page.
const moveTime = time.Second

// storedAgent reads the agent that ref names in o, with its network, as
// league.Lookup does (a model with a search after its name too): a
// pruned checkpoint comes with store.ErrPruned.
func storedAgent(r *http.Request, o *opened, ref string) (*league.Agent, error) {
	a, err := league.Lookup(r.Context(), o.db, ref)
	if cur := o.current(); cur != nil {
		return nil, cur
	}
	return a, err
}
