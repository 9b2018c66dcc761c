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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/league/elo"
	"ttt/store"

	"github.com/google/btree"
)

// GCPercent is the garbage collector's target that a process running a
// league should set (debug.SetGCPercent): a league keeps its result graph
// in memory all run long, about 100 MB at 100,000 checkpoints, while a
// round allocates under a MB. Go's default, 100, lets garbage grow to the
// size of everything live before it collects, so that a night's league
// would hold a hundred MB of it; at 50 it holds half that, at the cost of
// a collection every fifty rounds or so, whose marking skips the graph's
// arrays, which hold no pointers.
const GCPercent = 50

// Report is what a round did, for the round's line in the log.
type Report struct {
	Round      int64
	Snapshot   *store.Agent // with its facts: Verify, Class, VsRandom
	Rating     elo.Rating   // the snapshot's
	TrainGames int          // training games this round
	TrainTime  time.Duration
	EvalGames  int // evaluation games this round
	EvalTime   time.Duration
	Fit        elo.Settled // what the rating fit did
	Elapsed    time.Duration
	// Builtins are the snapshot's results this round against the
	// built-in players it met, by side, in the order of their ids.
	Builtins []Sides
	// Diverged says of each line that diverged this round, and trains
	// no more, what happened.
	Diverged []string
	// Searched are the searched agents (Config.Search) that joined this
	// round, each with its rating after it.
	Searched []Rated
}

// Rated is an agent and its rating.
type Rated struct {
	Agent  *store.Agent
	Rating elo.Rating
}

// Sides is an agent's record against one opponent, in the games it moved
// first and in those it moved second.
type Sides struct {
	Opponent      string
	First, Second game.Record
}

// Hooks are how Run tells its caller what happens; any may be nil.
type Hooks struct {
	Loading  func(done, total int)              // while a league's results load
	Training func(round int64, done, total int) // every 1,000 training games
	Round    func(Report)                       // after each committed round
	// Stop, after Round, ends the run when it returns true: a stop
	// condition of the caller's, such as a perfect best.
	Stop func(Report) bool
}

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
	lines     []*learner // by Config.Learners
	next      int        // the line that trains next

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

	checkpoints   sync.WaitGroup // the checkpoint under way, if any
	checkpointing atomic.Bool
	ratings       *elo.Ratings
	ranking       *btree.BTreeG[ranked] // every rated network, by its rating shown
	contestants   *contestants
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
	lg := &league{db: db, kit: kit, match: newMatch(kit.Game), cfg: cfg, ranking: btree.NewG(32, rankedLess), latest: map[string]int64{}}

	// STEP 1: the agents, with their standings and the fit's ratings. A
	// checkpoint is of a round the league has played.
	round, state, err := db.LastRound(ctx)
	if err != nil && !errors.Is(err, store.ErrNoRounds) {
		return nil, err
	}
	lg.lastRound = round
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
		return nil, errors.New("the league has no random player")
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
		return nil, ErrOlderScale
	}
	for _, a := range anchors {
		if _, ok := fits[a.ID]; !ok {
			lg.unfitted = append(lg.unfitted, a.ID)
		}
	}
	if lg.ratings, err = elo.NewRatings(anchors); err != nil {
		return nil, err
	}
	for _, id := range slices.Sorted(maps.Keys(fits)) {
		if !lg.isMember(id) {
			return nil, fmt.Errorf("%w: the fit's ratings rate agent %d, which is not in the league", store.ErrCorrupt, id)
		}
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
		if !lg.isMember(m.A) || !lg.isMember(m.B) {
			return fmt.Errorf("%w: match %d v %d of round %d names an agent that is not in the league", store.ErrCorrupt, m.A, m.B, m.Round)
		}
		return lg.ratings.Add(elo.Pair{A: m.A, B: m.B, Record: m.Record})
	})
	if err != nil {
		return nil, err
	}

	// STEP 3: the learners: new ones until a league round has stored
	// theirs (the rounds before it, if any, were ttt roundrobin's among
	// imported agents), and since then, that state, as the last league
	// round left it.
	switch {
	case state == nil && len(lg.latest) == 0:
		for i, name := range cfg.Learners {
			m, err := agents.MethodOf(name)
			if err != nil {
				return nil, err
			}
			line, err := newLearner(kit.Game, m, cfg.settings(kit.Game, m), cfg.Seed, i)
			if err != nil {
				return nil, err
			}
			lg.lines = append(lg.lines, line)
		}
	case state == nil:
		return nil, fmt.Errorf("%w: round %d: the league has checkpoints, and no learner state is stored", store.ErrCorrupt, round)
	default:
		if lg.lines, lg.next, err = unmarshalLearners(kit.Game, state, func(m *learn.Method) learn.Settings { return cfg.settings(kit.Game, m) }); err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
		var methods []string
		for _, line := range lg.lines {
			methods = append(methods, line.method.Name)
		}
		if !slices.Equal(methods, cfg.Learners) {
			return nil, fmt.Errorf("round %d: the stored learners are %s, the league's settings say %s", round, strings.Join(methods, ","), strings.Join(cfg.Learners, ","))
		}
	}
	if len(lg.byRound) < int(lg.lastRound) {
		lg.byRound = append(lg.byRound, make([]int64, int(lg.lastRound)-len(lg.byRound))...)
	}
	return lg, nil
}

// Run plays rounds on db until cfg.Rounds are done, cfg.Duration has
// passed or ctx is cancelled, and returns the number of the last round
// the database holds. A league already in db goes on from its last
// committed round with the learner exactly as it was. Cancelling
// abandons the round under way: nothing of it is stored, and Run returns
// ctx's error. The caller holds db's league lock.
func Run(ctx context.Context, db *store.DB, cfg Config, hooks Hooks) (last int64, err error) {
	err = cfg.Validate()
	var lg *league
	if err == nil {
		lg, err = open(ctx, db, cfg, hooks.Loading)
	}
	if err == nil {
		err = lg.keepSettings(ctx)
	}
	if err != nil {
		last, _, _ = db.LastRound(context.WithoutCancel(ctx))
		return last, err
	}
	defer lg.checkpoints.Wait()
	start := time.Now()
	var pending *trained // a round trained ahead, while the one before it was evaluated
	for n := 0; cfg.Rounds == 0 || n < cfg.Rounds; n++ {
		if cfg.Duration > 0 && time.Since(start) >= cfg.Duration {
			break
		}
		if !lg.overlaps() {
			r, err := lg.round(ctx, hooks, start)
			if err != nil {
				return lg.lastRound, err
			}
			if hooks.Stop != nil && hooks.Stop(r) {
				break
			}
			continue
		}
		if pending == nil {
			t := lg.trainRound(ctx, lg.lastRound+1, hooks.Training)
			if t.err != nil {
				return lg.lastRound, t.err
			}
			pending = &t
		}
		// While this round is evaluated, the next one trains, on the
		// other core: the learner's next games depend on nothing the
		// evaluation finds (see overlaps), so the league is the same as
		// one that plays its rounds one after the other.
		var ahead chan trained
		if cfg.Rounds == 0 || n+1 < cfg.Rounds {
			ahead = make(chan trained, 1)
			number := pending.number + 1
			go func() { ahead <- lg.trainRound(ctx, number, hooks.Training) }()
		}
		r, err := lg.finish(ctx, pending, hooks, start)
		pending = nil
		if ahead != nil {
			t := <-ahead // no goroutine outlives the round
			pending = &t
		}
		if err != nil {
			return lg.lastRound, err
		}
		if hooks.Stop != nil && hooks.Stop(r) {
			break
		}
		if pending != nil && pending.err != nil {
			return lg.lastRound, pending.err
		}
	}
	return lg.lastRound, nil
}

// round plays one round: train a line, snapshot, evaluate, rate,
// commit, and reports it.
func (lg *league) round(ctx context.Context, hooks Hooks, start time.Time) (Report, error) {
	t := lg.trainRound(ctx, lg.lastRound+1, hooks.Training)
	if t.err != nil {
		return Report{}, t.err
	}
	return lg.finish(ctx, &t, hooks, start)
}

// overlaps reports whether a round's training may run while the round
// before it is evaluated: when the learner trains against nothing that
// an evaluation changes. A share of games against the league's members
// draws them by the latest snapshot's results, and the exploiter and
// the drills are built against the learner as its last snapshot played;
// with any of them the rounds take turns, training then evaluating.
func (lg *league) overlaps() bool {
	return lg.cfg.Members == 0 && lg.cfg.Exploit == 0 && lg.cfg.Drill == 0
}

// trained is a round's first part: the line it trained, the snapshot
// and its model, and the learners' state to commit with it, the next
// line to train named in it.
type trained struct {
	number   int64 // the round's
	line     *learner
	snapshot *store.Agent
	model    learn.Model
	state    []byte
	diverged []string // the lines retired on the way
	begun    time.Time
	took     time.Duration
	err      error
}

// trainRound trains the line whose turn it is, freezes a snapshot of it,
// and passes the turn on: the first part of round number.
func (lg *league) trainRound(ctx context.Context, number int64, progress func(int64, int, int)) trained {
	t := trained{number: number, begun: time.Now()}
	t.line, t.snapshot, t.model, t.err = lg.trainLine(ctx, number, progress, &t.diverged)
	if t.err != nil {
		return t
	}
	lg.next = lg.after(lg.next)
	t.state, t.err = marshalLearners(lg.lines, lg.next)
	t.took = time.Since(t.begun)
	return t
}

// finish plays the rest of round t, trained: evaluate, rate, commit,
// and reports it.
func (lg *league) finish(ctx context.Context, t *trained, hooks Hooks, start time.Time) (Report, error) {
	number, snapshot := lg.lastRound+1, t.snapshot
	snapshot.ParentID = lg.latest[t.line.method.Name]

	// STEP 2: the facts the league keeps of every agent: the checks of
	// its game (tic-tac-toe's exhaustive check and exact odds against
	// random, Connect Four's position sets) and, where the game has them,
	// its move table.
	player, con := measure(lg.kit, snapshot, t.model)
	lg.contestants.fit(t.model)

	// STEP 3: the snapshot, and any agent added since the last round (ttt
	// import, ttt train --db, the best with the run's searches), play
	// their pools. The pools are chosen
	// from the ratings as they stand, in two steps: first the fixed part,
	// then, from the rating the first games suggest, the members nearest
	// to it.
	evalStart := time.Now()
	if err := lg.searchBest(ctx); err != nil {
		return Report{}, err
	}
	newcomers, err := lg.newcomers(ctx)
	if err != nil {
		return Report{}, err
	}
	entrants := append([]entrant{{id: 0, contestant: con, parent: snapshot.ParentID}}, newcomers...)
	matches, err := lg.evaluate(ctx, number, entrants)
	if err != nil {
		return Report{}, err
	}
	evalTime := time.Since(evalStart)

	// STEP 4: rate: the new results join the fit, which moves the ratings
	// they touch; the history gets a row for every rating that moved by
	// more than store.HistoryStep.
	fit, err := lg.rate(matches)
	if err != nil {
		return Report{}, err
	}

	// STEP 5: commit it all at once, with the learners as the next round
	// takes them up.
	r := &store.Round{Kind: store.LeagueRound, Started: t.begun, Snapshot: snapshot, Learner: t.state,
		Matches: matches, Updates: fit.updates, History: fit.history, Fits: fit.fits,
		Stats: store.RoundStats{TrainGames: lg.cfg.GamesPerRound * (1 + len(t.diverged)), TrainTime: t.took, EvalGames: evalGames(matches),
			EvalTime: evalTime, FitSteps: fit.settled.Steps, FitPending: fit.settled.Pending}}
	r.Finished = time.Now()
	if err := lg.db.CommitRound(ctx, r); err != nil {
		return Report{}, err
	}

	// The round is in: the league in memory follows, even if ctx is done
	// by now.
	if err := lg.committed(context.WithoutCancel(ctx), r, con); err != nil {
		return Report{}, err
	}
	if !lg.overlaps() { // the learner is as this snapshot, still
		t.line.frozen = player
	}
	lg.checkpoint()
	rating, _ := lg.ratings.Rating(snapshot.ID)
	report := Report{Round: r.ID, Snapshot: snapshot, Rating: rating, TrainGames: r.Stats.TrainGames,
		TrainTime: t.took, EvalGames: r.Stats.EvalGames, EvalTime: evalTime, Fit: fit.settled, Elapsed: time.Since(start),
		Diverged: t.diverged}
	for _, id := range slices.Sorted(maps.Keys(lg.contestants.builtins)) {
		for _, m := range r.Matches {
			if m.A == snapshot.ID && m.B == id && m.First != nil {
				report.Builtins = append(report.Builtins, Sides{Opponent: lg.contestants.builtins[id].Name,
					First: *m.First, Second: m.Record.Minus(*m.First)})
			}
		}
	}
	for _, e := range newcomers {
		if lg.member(e.id).kind != store.Searched {
			continue
		}
		a, err := lg.db.Agent(context.WithoutCancel(ctx), strconv.FormatInt(e.id, 10))
		if err != nil {
			return Report{}, err
		}
		rating, _ := lg.ratings.Rating(e.id)
		report.Searched = append(report.Searched, Rated{Agent: a, Rating: rating})
	}
	if hooks.Round != nil {
		hooks.Round(report)
	}
	return report, nil
}

// trainLine trains the line whose turn it is against opponents drawn
// from the league, and freezes a snapshot of it; its id and its parent
// come with the commit, until then it is agent 0. The lines take turns, so that each has
// the same share of training games and a round still makes one
// checkpoint.
//
// A network whose weights have grown past what a forward pass can add up
// (a learning rate too high for its game or method) would be stored as a
// network that no command can read back. In a league of one learner the
// run stops there; in a league of several, that line is retired, what
// happened is added to diverged, and the next line trains in its place:
// a night's comparison goes on with the methods that still learn.
func (lg *league) trainLine(ctx context.Context, round int64, progress func(int64, int, int), diverged *[]string) (*learner, *store.Agent, learn.Model, error) {
	for {
		line := lg.lines[lg.next]
		if err := lg.train(ctx, round, line, progress); err != nil {
			return nil, nil, nil, err
		}
		snapshot, model := line.snapshot()
		err := model.Validate()
		if err == nil {
			return line, snapshot, model, nil
		}
		if lg.after(lg.next) == lg.next {
			return nil, nil, nil, learn.Invalid([]string{"lr"}, func(n []string) string {
				return fmt.Sprintf("round %d: the %s learner has diverged (try a lower %s): %v", round, line.method.Name, n[0], err)
			})
		}
		*diverged = append(*diverged, fmt.Sprintf("the %s learner has diverged after %d games, and trains no more: %v", line.method.Name, line.games, err))
		line.retire()
		lg.next = lg.after(lg.next)
	}
}

// after returns the line that trains after line i: the next that is not
// retired, i itself if no other is left.
func (lg *league) after(i int) int {
	for k := 1; k <= len(lg.lines); k++ {
		if j := (i + k) % len(lg.lines); !lg.lines[j].retired {
			return j
		}
	}
	return i
}

// Measure fills in the facts the league keeps of a, whose model is m,
// which the store persists with it: the checks of its game (kit.Check)
// and, where the game has them, its move table. Frozen agents never
// change, so they are computed once, here, for every agent that joins a
// league (snapshots, ttt train --db, ttt import). It returns a.
func Measure(kit *agents.Kit, a *store.Agent, m learn.Model) *store.Agent {
	measure(kit, a, m)
	return a
}

// measure is Measure, and returns the agent as a deterministic player
// and as evaluation plays it.
func measure(kit *agents.Kit, a *store.Agent, m learn.Model) (game.Player, contestant) {
	p := m.Player()
	con := modelContestant(m)
	if kit.Compile != nil {
		a.Moves = kit.Compile(p)
		p, _ = kit.Compiled(a.Moves) // a net's table is a table
		con = fixed(p)
	}
	a.Facts = kit.Check(p)
	return p, con
}

// evalGames counts the games of matches.
func evalGames(matches []store.Match) int {
	n := 0
	for _, m := range matches {
		n += m.Games()
	}
	return n
}
