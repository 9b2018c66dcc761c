package web

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
	"ttt/league"
	"ttt/store"
)

// A search is the server's one costly work: a searched agent's move (or
// an MCTS player's, or the solver's), a comparison of a searched agent's
// moves, the measure of a searched agent the league has not stored.
// Every search runs in one of a few slots, one a core: a request that
// finds them all taken waits slotWait for one, and is then answered 503
// with Retry-After rather than queued longer. A queue of searches
// answers each later than its client waits, past the write timeout. A
// search stops when its client leaves, when the server shuts down, and
// after searchTimeout. A move thinks moveTime at most, and an MCTS tree
// holds search.MaxNodes positions at most. So thirty of the costliest at
// once are all answered within seconds, in a bounded memory
// (BENCHMARKS.md, "Serve under concurrent searches").
const (
	// searchTimeout bounds a request's search, under the write timeout:
	// its answer, 503 where it ran out, is always written.
	searchTimeout = 20 * time.Second
	// measureTimeout bounds the measure of a searched agent, in the
	// background: what it has not finished by then it never will for a
	// page (alpha-beta to 14 plies took minutes).
	measureTimeout = 2 * time.Minute
	// slotWait is how long a search waits for a slot: two moves' time,
	// so that a few pages that ask at once are all answered.
	slotWait = 2 * moveTime
	// retryAfter is the Retry-After of a busy server, in seconds: a
	// move thinks a second at most.
	retryAfter = "1"
	// maxMeasured is how many measures the server keeps: a few hundred
	// bytes each.
	maxMeasured = 1024
)

// searchSlots is how many searches run at once: one a core, as the
// league's workers.
var searchSlots = runtime.GOMAXPROCS(0)

// errBusy is the error of a search that found every slot taken.
var errBusy = errors.New("the server is busy with other searches: ask again in a second")

// errTooLong is the error of a search that ran out of searchTimeout.
var errTooLong = fmt.Errorf("the search takes longer than the server gives a request (%v)", searchTimeout)

// searches are the server's slots, and the measures of searched agents.
type searches struct {
	slots chan struct{}
	// measuring is the one slot of the measures, which run one at a
	// time in the background, beside the requests' searches.
	measuring chan struct{}
	mu        sync.Mutex
	measured  *simplelru.LRU[string, *measure] // by measureKey
	// closed: Close waits for the measures under way, and none starts
	// after it began, so that no handler that outlived the shutdown's
	// timeout adds a measure to the WaitGroup while Close waits on it.
	closed bool
}

// measure is the measure of a searched agent: its facts once done.
type measure struct {
	done  chan struct{}
	facts game.Facts // set before done is closed; empty if it ran out
}

func newSearches() searches {
	lru, _ := simplelru.NewLRU[string, *measure](maxMeasured, nil) // fails only on a size < 1
	return searches{slots: make(chan struct{}, searchSlots), measuring: make(chan struct{}, 1), measured: lru}
}

// search runs f, a search for r, in a slot (errBusy when none is free
// within slotWait), with a context that ends when the client leaves,
// when the server shuts down or after searchTimeout (errTooLong).
func (s *Server) search(r *http.Request, f func(ctx context.Context) error) error {
	wait := time.NewTimer(slotWait)
	defer wait.Stop()
	select {
	case s.searches.slots <- struct{}{}:
	case <-wait.C:
		return errBusy
	case <-r.Context().Done():
		return r.Context().Err()
	case <-s.life.Done():
		return errClosed
	}
	defer func() { <-s.searches.slots }()
	ctx, cancel := context.WithTimeout(r.Context(), searchTimeout)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	err := f(ctx)
	switch {
	case err == nil, r.Context().Err() != nil:
		return err
	case s.life.Err() != nil:
		return errClosed
	case ctx.Err() != nil:
		return errTooLong
	}
	return err
}

// searched reports whether a's moves are a search's, which run in a
// slot: a searched agent, an MCTS player, the solver, the perfect player.
func searched(a *store.Agent) bool {
	switch a.Kind {
	case store.Searched, agents.MCTS, agents.Solver, agents.Perfect:
		return true
	}
	return false
}

// measureKey names the measure of a, a searched agent: its name and its
// weights' checksum, since a league file replaced under the server may
// hold another network under the same name.
func measureKey(a *store.Agent) string {
	return fmt.Sprintf("%s %08x", a.Name, crc32.ChecksumIEEE(a.Weights))
}

// facts returns the measured facts of a, a searched agent that the league
// has not stored, whose model is m, and whether they are known yet. The
// first ask starts the measure, in the background, where the measuring
// slot is free; a later one finds it done, or under way. A measure that
// ran out of measureTimeout is done, with no facts: asking again would
// only run out again.
func (s *Server) facts(kit *agents.Kit, a *store.Agent, m learn.Model) (game.Facts, bool) {
	key := measureKey(a)
	s.searches.mu.Lock()
	defer s.searches.mu.Unlock()
	if got, ok := s.searches.measured.Get(key); ok {
		select {
		case <-got.done:
			return got.facts, true
		default:
			return game.Facts{}, false
		}
	}
	if s.searches.closed {
		return game.Facts{}, false
	}
	select {
	case s.searches.measuring <- struct{}{}:
	default:
		return game.Facts{}, false // another measure runs: asked again, this one starts
	}
	got := &measure{done: make(chan struct{})}
	s.searches.measured.Add(key, got)
	b := *a // the caller goes on with a
	s.measures.Add(1)
	go func() {
		defer s.measures.Done()
		defer func() { <-s.searches.measuring }()
		ctx, cancel := context.WithTimeout(s.life, measureTimeout)
		defer cancel()
		league.Measure(kit, &b, search.Bound(ctx, m, moveTime))
		if ctx.Err() == nil {
			got.facts = b.Facts
		}
		close(got.done)
	}()
	return game.Facts{}, false
}
