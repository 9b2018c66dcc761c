// Package league runs the self-play league of ttt: learners (networks or
// tables of values, one line for each method of Config.Learners) that
// take turns to train against themselves, their exploiter and random, a
// snapshot of the line after every round, matches between the snapshot
// and a bounded pool of the league's members, and maximum-likelihood Elo
// ratings kept up to date over all results.
//
// A league is built to run all night: every part of a round costs the
// same, in time, memory and disk, whether the league holds a hundred
// checkpoints or a hundred thousand. A snapshot plays a pool of at most
// Config.Opponents members (pool.go), the ratings move only where the
// new results move them (league/elo's incremental fit), the history gets
// a row only for a rating that moved, and the members' move tables are
// loaded on demand into a bounded cache.
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
	"ttt/agents/nn"
	"ttt/agents/train"
	"ttt/league/elo"
	"ttt/store"

	"github.com/google/btree"
)

// Config is how a league runs.
type Config struct {
	Rounds        int           // rounds to play in this run; 0 for no limit
	Duration      time.Duration // start no round after this long; 0 for no limit
	GamesPerRound int           // training games per round
	Workers       int           // concurrent evaluation goroutines; 0 for every core
	Seed          uint64        // seeds a new learner and every round's random games
	Openings      int           // evaluation plays every opening of this many moves, in both colours
	Opponents     int           // the size of a new member's pool of opponents
	SelfPlay      float64       // share of training games the learner plays against itself
	Exploit       float64       // share of training games against the learner's exploiter
	Members       float64       // share of training games against the league's frozen nets
	Drill         float64       // share of training games that start where the learner throws a result away
	Ladder        float64       // share of training games against the game's built-in players but random
	// Learners are the methods that learn in the league (train.Methods),
	// each on a line of its own: the lines train in turn, a round each,
	// and every snapshot joins the one rating list.
	Learners []string
	// Learning is how every line learns (its Method is the line's; see
	// learning); its epsilon schedule runs over a line's whole life, not
	// per round.
	train.Learning
	// LRByMethod are the learning rates of the lines that do not learn
	// at Learning.LR: methods differ in the rates they stand (ttt-rl's
	// rule diverges in Connect Four at the value net's).
	LRByMethod map[string]float64
}

// learning returns how the line of method learns: as c.Learning says, at
// its own learning rate if it has one, but a table learner explores as
// its document does (ForMethod).
func (c Config) learning(method string) train.Learning {
	l := c.Learning
	l.Method = method
	lr, own := c.LRByMethod[method]
	if own {
		l.LR = lr // selfplay-table's step size too, in place of its book's
	}
	return l.ForMethod(func(name string) bool { return name == "lr" && own })
}

// ParseLR reads a league's learning rates as the setting lr holds them:
// the rate of every line, then METHOD=RATE for each line of its own
// ("0.01,policy=0.001"). The rates' ranges are Validate's.
func ParseLR(s string) (lr float64, byMethod map[string]float64, err error) {
	seen := false
	for i, item := range strings.Split(s, ",") {
		method, value, own := strings.Cut(item, "=")
		if !own {
			value = method
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		switch {
		case (err != nil || math.IsNaN(v) || math.IsInf(v, 0)) && item == s:
			return 0, nil, errors.New("not a number")
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return 0, nil, fmt.Errorf("%q is not a number", value)
		case !own && i > 0:
			return 0, nil, errors.New("the rate of every line comes first, the rates of methods after it (METHOD=RATE)")
		case !own:
			lr, seen = v, true
		case byMethod[method] != 0:
			return 0, nil, fmt.Errorf("%s has two rates", method)
		default:
			if byMethod == nil {
				byMethod = map[string]float64{}
			}
			byMethod[method] = v
		}
	}
	if !seen {
		return 0, nil, errors.New("the rate of every line comes first (RATE[,METHOD=RATE...])")
	}
	return lr, byMethod, nil
}

// lrText writes the learning rates as ParseLR reads them, the methods'
// in the order of their names.
func (c Config) lrText() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := f(c.LR)
	for _, m := range slices.Sorted(maps.Keys(c.LRByMethod)) {
		out += "," + m + "=" + f(c.LRByMethod[m])
	}
	return out
}

// Default returns the settings of `ttt league run` for kit's game where
// no flag says otherwise.
//
// Tic-tac-toe: rounds of a few seconds (a first checkpoint within seconds),
// every two-move opening, pools of 32 opponents, and the opponent mix and
// exploration that reached an unbeatable checkpoint fastest for every
// seed we measured (README, "How it learns"). Exploration fades within
// the first round: ttt-rl's rule blames every move of a game for its
// result, so a random move that loses a game punishes the good moves
// around it too. Drills take a fifth of the games from random: over 40
// seeds, a tenth took up to 9 rounds to perfect play where a fifth took
// up to 6, and three tenths were no faster.
//
// Connect Four has no exploiter and no drills (they need every position
// solved), and its learner is a value net learning by TD(λ) in
// self-play, TD-Gammon's method: ttt-rl's rule there learns where to play
// but not tactics, stays below the tactician (the one-ply player that
// wins at once if it can and blocks if it must) and, at any learning rate
// that learns within the hour, its hidden weights grow until they
// overflow (README, "Connect Four"). The value net plays the tactician
// even within a minute: it tries every move, a move that wins ends the
// game and is worth exactly a win, and it learns within a few thousand
// games that a position where the opponent can win is lost. It plays
// itself only, moving at random a tenth of the time all along (there is
// no dice to show it other positions, as in backgammon): in our runs
// games against the tactician made its share of optimal moves rise more
// slowly. Its learning rate falls as 1/sqrt(1 + games/1,000,000), so
// that after a fast first hour its updates average out their noise.
// Rounds of 20,000 games, a few seconds.
func Default(kit *agents.Kit) Config {
	if kit.Exploiter == nil {
		return Config{
			GamesPerRound: 20000,
			Seed:          1,
			Openings:      2,
			Opponents:     32,
			SelfPlay:      1,
			Learners:      []string{train.MethodTDLambda},
			Learning: train.Learning{
				Hidden:      nn.DefaultHidden,
				LR:          0.01,
				LRDecay:     1000000,
				Epsilon:     train.Schedule{Start: 0.1, End: 0.1, Games: 20000},
				Temperature: 1,
				Lambda:      train.DefaultLambda,
			},
		}
	}
	return Config{
		GamesPerRound: 20000,
		Seed:          1,
		Openings:      2,
		Opponents:     32,
		SelfPlay:      0.2,
		Exploit:       0.3,
		Drill:         0.2,
		Learners:      []string{train.MethodPolicy},
		Learning: train.Learning{
			Hidden:      nn.DefaultHidden,
			LR:          nn.DefaultLR,
			Epsilon:     train.Schedule{Start: 0.1, End: 0, Games: 20000},
			Temperature: train.DefaultTemperature,
			Lambda:      train.DefaultLambda,
		},
	}
}

// Validate reports the first setting out of range.
func (c Config) Validate() error {
	switch {
	case c.Rounds < 0:
		return train.OutOfRange("rounds", "must not be negative", c.Rounds)
	case c.Duration < 0:
		return train.OutOfRange("duration", "must not be negative", c.Duration)
	case c.GamesPerRound < 1:
		return train.OutOfRange("games_per_round", "must be at least 1", c.GamesPerRound)
	case c.Workers < 0:
		return train.OutOfRange("workers", "must not be negative", fmt.Sprintf("%d; 0 is one per core", c.Workers))
	case c.Openings < 0 || c.Openings > MaxPlies:
		return train.OutOfRange("openings", fmt.Sprintf("must be within 0..%d moves", MaxPlies), c.Openings)
	case c.Opponents < minOpponents || c.Opponents > maxOpponents:
		return train.OutOfRange("opponents", fmt.Sprintf("must be within %d..%d", minOpponents, maxOpponents), c.Opponents)
	case !(c.SelfPlay >= 0 && c.SelfPlay <= 1):
		return train.OutOfRange("self_play", "must be within 0..1", c.SelfPlay)
	case !(c.Exploit >= 0 && c.Exploit <= 1):
		return train.OutOfRange("exploit", "must be within 0..1", c.Exploit)
	case !(c.Members >= 0 && c.Members <= 1):
		return train.OutOfRange("members", "must be within 0..1", c.Members)
	case !(c.Drill >= 0 && c.Drill <= 1):
		return train.OutOfRange("drill", "must be within 0..1", c.Drill)
	case !(c.Ladder >= 0 && c.Ladder <= 1):
		return train.OutOfRange("ladder", "must be within 0..1", c.Ladder)
	case c.SelfPlay+c.Exploit+c.Members+c.Drill+c.Ladder > 1:
		shares := []string{"self_play", "exploit", "members", "drill", "ladder"}
		values := []any{c.SelfPlay, c.Exploit, c.Members, c.Drill, c.Ladder}
		if c.Ladder == 0 { // the other games' shares, as most leagues have them
			shares, values = shares[:4], values[:4]
		}
		sum := fmt.Sprintf(strings.TrimSuffix(strings.Repeat("%g + ", len(values)), " + "), values...)
		return train.Invalid(shares, func(n []string) string {
			return fmt.Sprintf("the shares %s and %s add up to more than 1 (%s)", strings.Join(n[:len(n)-1], ", "), n[len(n)-1], sum)
		})
	case len(c.Learners) == 0:
		return train.OutOfRange("learners", "must name at least one method", `""`)
	}
	for i, m := range c.Learners {
		switch {
		case m == "mcts":
			return train.Invalid([]string{"learners"}, func(n []string) string {
				return n[0] + " mcts: " + train.NoLearningMCTS
			})
		case slices.Contains(c.Learners[:i], m):
			return train.Invalid([]string{"learners"}, func(n []string) string {
				return fmt.Sprintf("%s %s: %s is named twice (a league has one line of each method)", n[0], strings.Join(c.Learners, ","), m)
			})
		case !slices.Contains(train.Methods, m):
			return train.OutOfRange("learners", "must be methods among "+strings.Join(train.Methods, ", "), fmt.Sprintf("%q", m))
		}
		if err := c.learning(m).Validate(); err != nil {
			return err
		}
	}
	for _, m := range slices.Sorted(maps.Keys(c.LRByMethod)) {
		if !slices.Contains(c.Learners, m) {
			return train.Invalid([]string{"lr", "learners"}, func(n []string) string {
				return fmt.Sprintf("%s %s: %s is not among the %s (%s)", n[0], c.lrText(), m, n[1], strings.Join(c.Learners, ","))
			})
		}
	}
	return nil
}

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
	// then every result.
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

	// STEP 3: the learners.
	round, state, err := db.LastRound(ctx)
	switch {
	case errors.Is(err, store.ErrNoRounds):
		for i, m := range cfg.Learners {
			lg.lines = append(lg.lines, newLearner(kit.Game, cfg.learning(m), cfg.Seed, i))
		}
	case err != nil:
		return nil, err
	case state == nil:
		return nil, fmt.Errorf("round %d: no learner state is stored", round)
	default:
		lg.lastRound = round
		if lg.lines, lg.next, err = unmarshalLearners(kit.Game, state, cfg.learning); err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
		var methods []string
		for _, line := range lg.lines {
			methods = append(methods, line.method)
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
	for n := 0; cfg.Rounds == 0 || n < cfg.Rounds; n++ {
		if cfg.Duration > 0 && time.Since(start) >= cfg.Duration {
			break
		}
		r, err := lg.round(ctx, hooks, start)
		if err != nil {
			return lg.lastRound, err
		}
		if hooks.Stop != nil && hooks.Stop(r) {
			break
		}
	}
	return lg.lastRound, nil
}

// round plays one league round: train a line, snapshot, evaluate, rate,
// commit, and reports it.
func (lg *league) round(ctx context.Context, hooks Hooks, start time.Time) (Report, error) {
	begun := time.Now()
	number := lg.lastRound + 1

	// STEP 1: train the line whose turn it is, and freeze a snapshot of
	// it.
	var diverged []string
	line, snapshot, err := lg.trainLine(ctx, number, hooks.Training, &diverged)
	if err != nil {
		return Report{}, err
	}
	trained := time.Since(begun)

	// STEP 2: the facts the league keeps of every agent: the checks of
	// its game (tic-tac-toe's exhaustive check and exact odds against
	// random, Connect Four's position set) and, where the game has them,
	// its move table.
	player, con := describe(lg.kit, snapshot)

	// STEP 3: the snapshot, and any agent added since the last round (ttt
	// import, ttt train --db), play their pools. The pools are chosen
	// from the ratings as they stand, in two steps: first the fixed part,
	// then, from the rating the first games suggest, the members nearest
	// to it.
	evalStart := time.Now()
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
	next := lg.after(lg.next)
	state, err := marshalLearners(lg.lines, next)
	if err != nil {
		return Report{}, err
	}
	r := &store.Round{Kind: store.LeagueRound, Started: begun, Snapshot: snapshot, Learner: state,
		Matches: matches, Updates: fit.updates, History: fit.history, Fits: fit.fits,
		Stats: store.RoundStats{TrainGames: lg.cfg.GamesPerRound * (1 + len(diverged)), TrainTime: trained, EvalGames: evalGames(matches),
			EvalTime: evalTime, FitSteps: fit.settled.Steps, FitPending: fit.settled.Pending}}
	r.Finished = time.Now()
	if err := lg.db.CommitRound(ctx, r); err != nil {
		return Report{}, err
	}

	// The round is in: the league in memory follows, even if ctx is done
	// by now.
	if err := lg.committed(context.WithoutCancel(ctx), r); err != nil {
		return Report{}, err
	}
	lg.next = next
	line.frozen = player
	lg.checkpoint()
	rating, _ := lg.ratings.Rating(snapshot.ID)
	report := Report{Round: r.ID, Snapshot: snapshot, Rating: rating, TrainGames: r.Stats.TrainGames,
		TrainTime: trained, EvalGames: r.Stats.EvalGames, EvalTime: evalTime, Fit: fit.settled, Elapsed: time.Since(start),
		Diverged: diverged}
	for _, id := range slices.Sorted(maps.Keys(lg.contestants.builtins)) {
		for _, m := range r.Matches {
			if m.A == snapshot.ID && m.B == id && m.First != nil {
				report.Builtins = append(report.Builtins, Sides{Opponent: lg.contestants.builtins[id].Name,
					First: *m.First, Second: m.Record.Minus(*m.First)})
			}
		}
	}
	if hooks.Round != nil {
		hooks.Round(report)
	}
	return report, nil
}

// trainLine trains the line whose turn it is against opponents drawn
// from the league, and freezes a snapshot of it; its id comes with the
// commit, until then it is agent 0. The lines take turns, so that each has
// the same share of training games and a round still makes one
// checkpoint.
//
// A network whose weights have grown past what a forward pass can add up
// (a learning rate too high for its game or method) would be stored as a
// network that no command can read back. In a league of one learner the
// run stops there; in a league of several, that line is retired, what
// happened is added to diverged, and the next line trains in its place:
// a night's comparison goes on with the methods that still learn.
func (lg *league) trainLine(ctx context.Context, round int64, progress func(int64, int, int), diverged *[]string) (*learner, *store.Agent, error) {
	for {
		line := lg.lines[lg.next]
		if err := lg.train(ctx, round, line, progress); err != nil {
			return nil, nil, err
		}
		snapshot := line.snapshot()
		snapshot.ParentID = lg.latest[line.method]
		if snapshot.Net == nil {
			return line, snapshot, nil
		}
		err := snapshot.Net.Validate()
		if err == nil {
			return line, snapshot, nil
		}
		if lg.after(lg.next) == lg.next {
			return nil, nil, train.Invalid([]string{"lr"}, func(n []string) string {
				return fmt.Sprintf("round %d: the %s learner has diverged (try a lower %s): %v", round, line.method, n[0], err)
			})
		}
		*diverged = append(*diverged, fmt.Sprintf("the %s learner has diverged after %d games, and trains no more: %v", line.method, line.games, err))
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

// Describe fills in the facts the league keeps of the network a.Net or
// the table a.Table, which the store persists with it: the checks of its
// game (kit.Check) and, where the game has them, its move table. Frozen
// agents never change, so they are computed once, here, for every agent
// that joins a league (snapshots, ttt train --db, ttt import). It
// returns a.
func Describe(kit *agents.Kit, a *store.Agent) *store.Agent {
	describe(kit, a)
	return a
}

// describe is Describe, and returns the agent as a deterministic player
// and as evaluation plays it.
func describe(kit *agents.Kit, a *store.Agent) (game.Player, contestant) {
	p := a.Player()
	con := fixed(p)
	if a.Net != nil {
		con = netContestant(a.Net)
	}
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
