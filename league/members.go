package league

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/google/btree"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league/elo"
	"ttt/store"
)

// league is a run's view of the database, kept in memory between rounds:
// what the next pools need and no more. Per agent that is a few dozen
// bytes (member), its place in the ranking and its share of the rating
// fit's result graph; the members as evaluation plays them (move tables,
// networks) come from the database on demand, into a cache of bounded
// size (contestants).
type league struct {
	db        *store.DB
	kit       *agents.Kit // the league's game
	match     *match
	cfg       Config
	lastRound int64
	learner   *learner

	members []member // by id - 1: agent ids are dense from 1
	byRound []int64  // the snapshot of each round, by round - 1; 0 for a round without one
	parent  int64    // the latest snapshot; 0 before the first
	random  int64    // the rating anchor
	fixed   []int64  // the built-in players every newcomer plays, random first
	ladder  []int64  // the other built-in players, weakest first
	waiting []int64  // networks that have not played yet, in id order

	fitsSince int // bytes of the fits table since its last full row

	// behind are the agents whose standing is more than
	// store.StandingStep from the fit's rating, in a league file from
	// before standings followed the fit: the next round writes theirs.
	behind []int64

	// snapshotPlayer is the last snapshot as a deterministic player,
	// while the learner is the same network; nil once it trains on.
	snapshotPlayer game.Player

	checkpoints   sync.WaitGroup // the checkpoint under way, if any
	checkpointing atomic.Bool
	ratings       *elo.Ratings
	ranking       *btree.BTreeG[ranked] // every rated network, by its rating shown
	contestants   *contestants
	scores        []scored // the latest snapshot's pool of networks, with its scores
}

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

// open loads the league in db: its members, their ratings, the result
// graph of every match, and the learner. Workers 0 in cfg means one per
// core.
func open(ctx context.Context, db *store.DB, cfg Config, loading func(done, total int)) (*league, error) {
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	kit, err := agents.KitOf(db.Game().Name())
	if err != nil {
		return nil, err
	}
	if err := cfg.ValidateFor(kit); err != nil {
		return nil, err
	}
	lg := &league{db: db, kit: kit, match: newMatch(kit.Game), cfg: cfg, ranking: btree.NewG(32, rankedLess)}

	// STEP 1: the agents, with their standings and the fit's ratings.
	fits, since, err := db.Fits(ctx)
	if err != nil {
		return nil, err
	}
	lg.fitsSince = since
	err = db.Members(ctx, 0, func(m store.Member) error {
		if f, ok := fits[m.ID]; ok && m.Shown.Round != 0 && math.Abs(m.Elo-f) > store.StandingStep {
			lg.behind = append(lg.behind, m.ID)
		}
		return lg.add(m)
	})
	if err != nil {
		return nil, err
	}
	if lg.contestants, err = newContestants(ctx, db, kit); err != nil {
		return nil, err
	}
	lg.random = lg.contestants.anchor()
	for _, id := range slices.Sorted(maps.Keys(lg.contestants.builtins)) {
		switch b := lg.contestants.builtins[id]; {
		case id == lg.random:
			lg.fixed = append([]int64{id}, lg.fixed...)
		case b.Fixed:
			lg.fixed = append(lg.fixed, id)
		default:
			lg.ladder = append(lg.ladder, id)
		}
	}
	if lg.random == 0 {
		return nil, errors.New("the league has no random player")
	}

	// STEP 2: the ratings: each agent's exact value, then every result.
	lg.ratings = elo.NewRatings(lg.random)
	for _, id := range slices.Sorted(maps.Keys(fits)) {
		if err := lg.ratings.Restore(id, fits[id]); err != nil {
			return nil, err
		}
	}
	total, err := db.MatchCount(ctx, store.MatchFilter{})
	if err != nil {
		return nil, err
	}
	done := 0
	err = db.Results(ctx, func(m store.Match) error {
		if done++; loading != nil && done%65536 == 0 {
			loading(done, total)
		}
		return lg.ratings.Add(elo.Pair{A: m.A, B: m.B, Record: m.Record})
	})
	if err != nil {
		return nil, err
	}

	// STEP 3: the learner, and what the latest snapshot scored.
	round, state, err := db.LastRound(ctx)
	switch {
	case errors.Is(err, store.ErrNoRounds):
		lg.learner = newLearner(kit.Game, cfg.Learning, cfg.Seed)
	case err != nil:
		return nil, err
	case state == nil:
		return nil, fmt.Errorf("round %d: no learner state is stored", round)
	default:
		lg.lastRound = round
		if lg.learner, err = unmarshalLearner(kit.Game, state); err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
	}
	if len(lg.byRound) < int(lg.lastRound) {
		lg.byRound = append(lg.byRound, make([]int64, int(lg.lastRound)-len(lg.byRound))...)
	}

	return lg, lg.loadScores(ctx)
}

// add makes a the newest member.
func (lg *league) add(a store.Member) error {
	if a.ID != int64(len(lg.members))+1 {
		return fmt.Errorf("agent %d follows agent %d: ids must be dense", a.ID, len(lg.members))
	}
	m := member{kind: a.Kind, round: a.Round, shown: a.Shown, elo: a.Elo}
	switch {
	case m.shown.Round != 0 && a.Kind.IsNetwork():
		lg.ranking.ReplaceOrInsert(ranked{m.shown.Elo, a.ID})
	case a.Kind.IsNetwork():
		lg.waiting = append(lg.waiting, a.ID)
	}
	switch a.Kind {
	case store.Checkpoint:
		for len(lg.byRound) < int(a.Round) {
			lg.byRound = append(lg.byRound, 0)
		}
		lg.byRound[a.Round-1] = a.ID
		lg.parent = a.ID
	}
	lg.members = append(lg.members, m)
	return nil
}

// member returns the member with id.
func (lg *league) member(id int64) *member { return &lg.members[id-1] }

// loadScores reads what the latest snapshot scored against the networks of
// its pool, the candidates of prioritised fictitious self-play.
func (lg *league) loadScores(ctx context.Context) error {
	lg.scores = nil
	if lg.parent == 0 || lg.cfg.Members == 0 {
		return nil
	}
	return lg.db.Matches(ctx, store.MatchFilter{Agent: lg.parent}, func(m store.Match) error {
		if m.A == lg.parent && lg.member(m.B).kind.IsNetwork() {
			lg.scores = append(lg.scores, scored{id: m.B, score: m.Score()})
		}
		return nil
	})
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
