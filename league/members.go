package league

import (
	"context"
	"fmt"

	"ttt/store"
)

// member is what the league keeps of an agent between rounds.
type member struct {
	kind  store.Kind
	round int64            // the round that made it; 0 outside the league
	shown store.HistoryRow // its last history row; Round 0 while it is unrated
	elo   float64          // the rating its standing shows: the fit's, within store.StandingStep
}

// ranked is a rated network's place in the ranking: by the rating of its
// last history row, then id. The pools read the ranking (the best, the
// nearest), and that rating is within store.HistoryStep of the fit's
// exact one but changes a few dozen times a round where the fit's changes
// thousands of times: a pool chosen by a fraction of an Elo is no worse.
type ranked struct {
	elo float64
	id  int64
}

func rankedLess(a, b ranked) bool { return a.elo < b.elo || (a.elo == b.elo && a.id < b.id) }

// scored is a network the latest snapshot met, and its score against it.
type scored struct {
	id    int64
	score float64
}

// add makes a the newest member.
func (lg *league) add(a store.Member) error {
	if a.ID != int64(len(lg.members))+1 {
		return fmt.Errorf("%w: agent %d follows agent %d: ids must be dense", store.ErrCorrupt, a.ID, len(lg.members))
	}
	if a.Kind == store.Checkpoint && (a.Round < 1 || a.Round > lg.lastRound) {
		return fmt.Errorf("%w: agent %d is a checkpoint of round %d, and the league has played %d", store.ErrCorrupt, a.ID, a.Round, lg.lastRound)
	}
	m := member{kind: a.Kind, round: a.Round, shown: a.Shown, elo: a.Elo}
	switch {
	case m.shown.Round != 0 && a.Kind.PlaysModel():
		lg.ranking.ReplaceOrInsert(ranked{m.shown.Elo, a.ID})
	case a.Kind.PlaysModel():
		lg.waiting = append(lg.waiting, a.ID)
	}
	switch a.Kind {
	case store.Checkpoint:
		for len(lg.byRound) < int(a.Round) {
			lg.byRound = append(lg.byRound, 0)
		}
		lg.byRound[a.Round-1] = a.ID
		lg.latest[a.Method] = a.ID
	}
	lg.members = append(lg.members, m)
	return nil
}

// member returns the member with id.
func (lg *league) member(id int64) *member { return &lg.members[id-1] }

// isMember reports whether id is a member's.
func (lg *league) isMember(id int64) bool { return id >= 1 && id <= int64(len(lg.members)) }

// scoresOf reads what the snapshot id scored against the networks of its
// pool, the candidates of prioritised fictitious self-play; none for id 0.
func (lg *league) scoresOf(ctx context.Context, id int64) ([]scored, error) {
	var out []scored
	if id == 0 {
		return nil, nil
	}
	err := lg.db.Matches(ctx, store.MatchFilter{Agent: id}, func(m store.Match) error {
		if m.A == id && lg.member(m.B).kind.Learned() {
			out = append(out, scored{id: m.B, score: m.Score()})
		}
		return nil
	})
	return out, err
}

// newcomers returns the networks that have not played yet, those added
// since the last round (ttt import, ttt train --db) included, each with
// its move table, in id order.
func (lg *league) newcomers(ctx context.Context) ([]entrant, error) {
	if err := lg.db.Members(ctx, int64(len(lg.members)), lg.add); err != nil {
		return nil, err
	}
	cons, err := lg.contestants.get(ctx, lg.waiting)
	if err != nil {
		return nil, err
	}
	var out []entrant
	for _, id := range lg.waiting {
		out = append(out, entrant{id: id, contestant: cons[id]})
	}
	return out, nil
}

// checkpoint copies the -wal file into the database file in the
// background, unless a copy is under way already: a league's commits are
// small but touch pages all over a large file, and the copy, which SQLite
// would otherwise make inside a commit every few rounds, overlaps the next
// round's training this way. It changes no data, so results do not depend
// on when it runs; a failed one is simply tried again after the next
// commit, and SQLite checkpoints in a commit when the -wal file grows too
// long regardless.
func (lg *league) checkpoint() {
	if !lg.checkpointing.CompareAndSwap(false, true) {
		return
	}
	lg.checkpoints.Go(func() {
		defer lg.checkpointing.Store(false)
		lg.db.Checkpoint(context.Background())
	})
}
