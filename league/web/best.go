package web

import (
	"errors"
	"math"
	"strconv"
	"sync"

	"ttt/store"
)

// The best the pages show. The league's best (store.Best) is the first
// network by its rule: class, then the low end of its rating's 95%
// interval. Between two networks of one class the low ends decide, and
// they move a little at every round's fit: two checkpoints 0.1 Elo apart
// took turns as the best six times in 21 s, and the pages' chart changed
// its line and "best since" each time. So the pages show a steadier
// best: the league's best, but the one they show stays until the
// league's best beats it by an exact fact (a higher class, which never
// moves) or by more than the noise of the two ratings (leads). The
// store's rule, and what best names in the API and the commands, are as
// they were. A share of a position set is no such fact: on 1,000
// positions it moves by chance more than an hour's checkpoints differ.

// noiseZ is the 95% interval's half-width in standard errors: an
// interval [lo, hi] has a standard error of (hi-lo)/(2 noiseZ).
const noiseZ = 1.96

// margin is the lead on the low end of the interval that a network needs
// over the best shown to replace it: one standard error of the
// difference of the two ratings (each one's standard error from its
// interval, taken as independent, as the compare page takes them). A
// lead within it is what the round-to-round noise of two equal ratings
// gives about two times in three; beyond it, the leader is ahead by more
// than that noise, and stays ahead as its games add up.
func margin(a, b *store.Standing) float64 {
	sa, sb := (a.Hi-a.Lo)/(2*noiseZ), (b.Hi-b.Lo)/(2*noiseZ)
	return math.Hypot(sa, sb)
}

// leads reports whether a, the league's best by its rule, beats b, the
// best shown, by more than noise.
func leads(a, b *store.Agent) bool {
	if a.Class != b.Class {
		return a.Class > b.Class
	}
	return a.Standing.Lo-b.Standing.Lo > margin(a.Standing, b.Standing)
}

// bestSeen is the best the pages show, and when this server first saw
// it as such: the league does not store when its best changed (the best
// rule orders the standings of the moment), so the server notes it, from
// the first answer that names a best on.
type bestSeen struct {
	mu    sync.Mutex
	id    int64
	round int64 // the newest round when it was first seen as the best
	// changed: the server saw another best before it, so round is when
	// the best changed; otherwise it was already the best at round.
	changed bool
}

// shownBest is the best the pages show after a round: the agent, and the
// league's best by its rule where it is another one, within the noise.
type shownBest struct {
	best, leader *store.Agent
	since        int64
	changed      bool
}

// note reads the league's best in v at round, decides which best the
// pages show (the one shown so far, unless the league's best leads it),
// and returns it; nil in a league without networks.
func (b *bestSeen) note(v *store.View, round int64) (*shownBest, error) {
	ref, err := bestOf(v)
	if err != nil || ref == nil {
		return nil, err
	}
	leader, err := v.Agent(strconv.FormatInt(ref.ID, 10))
	if err != nil && !errors.Is(err, store.ErrPruned) {
		return nil, err
	}
	b.mu.Lock()
	held := b.id
	b.mu.Unlock()
	out := &shownBest{best: leader}
	if held != 0 && held != leader.ID && leader.Standing != nil {
		// The one shown stays while it can: still there, rated, with its
		// weights (prune keeps the league's best, not the one shown).
		a, err := v.Agent(strconv.FormatInt(held, 10))
		switch {
		case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrPruned):
		case err != nil:
			return nil, err
		case a.Standing != nil && !leads(leader, a):
			out.best, out.leader = a, leader
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if out.best.ID != b.id {
		b.changed = b.id != 0
		b.id, b.round = out.best.ID, round
	}
	out.since, out.changed = b.round, b.changed
	return out, nil
}
