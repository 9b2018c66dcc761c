package league

import (
	"cmp"
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
	"ttt/league/elo"
	"ttt/store"
)

// GCPercent is the garbage collector's target that a process running a
// league should set (debug.SetGCPercent). A league keeps its result graph
// in memory all run long, and it is most of the heap, while a round
// allocates little. Go's default, 100, lets garbage grow to the size of
// everything live before it collects. At 50 a night's league holds half
// that garbage, at the cost of more frequent collections, whose marking
// skips the graph's arrays, which hold no pointers (BENCHMARKS.md,
// "BenchmarkNight: rounds of leagues of 1,000, 10,000 and 100,000
// checkpoints").
const GCPercent = 50

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

	members []member         // by id - 1: agent ids are dense from 1
	byRound []int64          // the snapshot of each round, by round - 1; 0 for a round without one
	latest  map[string]int64 // the latest snapshot of each method
	random  int64            // the random player, the scale's 0
	fixed   []int64          // the built-in players every newcomer plays, random first
	ladder  []int64          // the other built-in players, lowest on the scale first
	waiting []int64          // networks that have not played yet, in id order

	fitsSince int     // bytes of the fits table since its last full row
	unfitted  []int64 // anchors the fits table does not hold yet, which the next round writes

	// behind are the agents whose standing is more than
	// store.StandingStep from the fit's rating, in a league file from
	// before standings followed the fit: the next round writes theirs.
	behind []int64

	busy          busy           // the cores the rounds keep busy
	checkpoints   sync.WaitGroup // the checkpoint under way, if any
	checkpointing atomic.Bool
	ratings       *elo.Ratings
	ranking       *btree.BTreeG[ranked] // every rated network, by its rating shown
	contestants   *contestants
}

// open loads the league in db: its members, their ratings and the result
// graph of every match, and its trainer, with the learners as the last
// league round left them. cfg is valid for the league's game
// (Config.ValidateFor); Workers 0 in it means one per core.
func open(ctx context.Context, db *store.DB, cfg Config, loading func(done, total int)) (*league, *trainer, error) {
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	kit, err := agents.KitOf(db.Game().Name())
	if err != nil {
		return nil, nil, err
	}
	lg := &league{db: db, kit: kit, match: newMatch(kit.Game), cfg: cfg, ranking: btree.NewG(32, rankedLess), latest: map[string]int64{}}

	// STEP 1: the agents, with their standings and the fit's ratings. A
	// checkpoint is of a round the league has played.
	round, state, err := db.LastRound(ctx)
	if err != nil && !errors.Is(err, store.ErrNoRounds) {
		return nil, nil, err
	}
	lg.lastRound = round
	fits, since, err := db.Fits(ctx)
	if err != nil {
		return nil, nil, err
	}
	lg.fitsSince = since
	err = db.Members(ctx, 0, func(m store.Member) error {
		if f, ok := fits[m.ID]; ok && m.Shown.Round != 0 && math.Abs(m.Elo-f) > store.StandingStep {
			lg.behind = append(lg.behind, m.ID)
		}
		return lg.add(m)
	})
	if err != nil {
		return nil, nil, err
	}
	if lg.contestants, err = newContestants(ctx, db, kit); err != nil {
		return nil, nil, err
	}
	lg.random = lg.contestants.random()
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
		return nil, nil, errors.New("the league has no random player")
	}
	slices.SortStableFunc(lg.ladder, func(a, b int64) int {
		return cmp.Compare(lg.contestants.builtins[a].Elo, lg.contestants.builtins[b].Elo)
	})

	// STEP 2: the ratings, on the game's scale: each agent's exact value,
	// then every result. A result or a rating of an agent that is not
	// there (its row deleted) is damage: the league would index its
	// members by it.
	anchors := lg.contestants.anchors()
	if !onScale(fits, anchors) {
		return nil, nil, ErrOlderScale
	}
	for _, a := range anchors {
		if _, ok := fits[a.ID]; !ok {
			lg.unfitted = append(lg.unfitted, a.ID)
		}
	}
	if lg.ratings, err = elo.NewRatings(anchors); err != nil {
		return nil, nil, err
	}
	for _, id := range slices.Sorted(maps.Keys(fits)) {
		if !lg.isMember(id) {
			return nil, nil, fmt.Errorf("%w: the fit's ratings rate agent %d, which is not in the league", store.ErrCorrupt, id)
		}
		if err := lg.ratings.Restore(id, fits[id]); err != nil {
			return nil, nil, err
		}
	}
	total, err := db.MatchCount(ctx, store.MatchFilter{})
	if err != nil {
		return nil, nil, err
	}
	done := 0
	err = db.Results(ctx, func(m store.Match) error {
		if done++; loading != nil && done%65536 == 0 {
			loading(done, total)
		}
		if !lg.isMember(m.A) || !lg.isMember(m.B) {
			return fmt.Errorf("%w: match %d v %d of round %d names an agent that is not in the league", store.ErrCorrupt, m.A, m.B, m.Round)
		}
		return lg.ratings.Add(elo.Pair{A: m.A, B: m.B, Record: m.Record})
	})
	if err != nil {
		return nil, nil, err
	}

	if len(lg.byRound) < int(lg.lastRound) {
		lg.byRound = append(lg.byRound, make([]int64, int(lg.lastRound)-len(lg.byRound))...)
	}

	// STEP 3: the learners: new ones until a league round has stored
	// theirs (the rounds before it, if any, were ttt roundrobin's among
	// imported agents), and since then, that state.
	tr, err := newTrainer(kit, cfg, round, state, len(lg.latest) == 0)
	if err != nil {
		return nil, nil, err
	}
	return lg, tr, nil
}
