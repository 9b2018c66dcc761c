// Package league runs the self-play league of ttt: a learning network
// that trains against itself and the league's frozen members, a snapshot
// of it after every round, matches between the snapshot and every member,
// and maximum-likelihood Elo ratings refitted over all results.
package league

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/agents/train"
	"ttt/league/elo"
	"ttt/store"
)

// Config is how a league runs.
type Config struct {
	Rounds        int           // rounds to play in this run; 0 for no limit
	Duration      time.Duration // start no round after this long; 0 for no limit
	GamesPerRound int           // training games per round
	Workers       int           // concurrent evaluation goroutines; 0 for every core
	Seed          uint64        // seeds a new learner and every round's random games
	Plies         int           // evaluation openings: every opening of this many moves
	SelfPlay      float64       // share of training games the learner plays against itself
	Exploit       float64       // share of training games against the learner's exploiter
	Members       float64       // share of training games against the league's frozen nets
	// Learning is the learner's; its epsilon schedule runs over the
	// learner's whole life, not per round.
	train.Learning
}

// Default returns the settings of `ttt league run` where no flag says
// otherwise: rounds of a few seconds (a first checkpoint within seconds),
// every two-move opening, and the opponent mix and exploration that
// reached an unbeatable checkpoint fastest for every seed we measured
// (README, "How the league learns"). Exploration fades within the first
// round: ttt-rl's rule blames every move of a game for its result, so a
// random move that loses a game punishes the good moves around it too.
func Default() Config {
	return Config{
		GamesPerRound: 20000,
		Seed:          1,
		Plies:         2,
		SelfPlay:      0.2,
		Exploit:       0.3,
		Learning: train.Learning{
			Hidden:      nn.DefaultHidden,
			LR:          nn.DefaultLR,
			Epsilon:     train.Schedule{Start: 0.1, End: 0, Games: 20000},
			Temperature: train.DefaultTemperature,
		},
	}
}

// Validate reports the first setting out of range.
func (c Config) Validate() error {
	switch {
	case c.Rounds < 0:
		return fmt.Errorf("rounds must not be negative (got %d)", c.Rounds)
	case c.Duration < 0:
		return fmt.Errorf("duration must not be negative (got %v)", c.Duration)
	case c.GamesPerRound < 1:
		return fmt.Errorf("games per round must be at least 1 (got %d)", c.GamesPerRound)
	case c.Workers < 0:
		return fmt.Errorf("workers must be at least 1 (got %d)", c.Workers)
	case c.Plies < 0 || c.Plies > MaxPlies:
		return fmt.Errorf("opening plies must be within 0..%d (got %d)", MaxPlies, c.Plies)
	case !(c.SelfPlay >= 0 && c.SelfPlay <= 1):
		return fmt.Errorf("self-play share must be within 0..1 (got %g)", c.SelfPlay)
	case !(c.Exploit >= 0 && c.Exploit <= 1):
		return fmt.Errorf("exploiter share must be within 0..1 (got %g)", c.Exploit)
	case !(c.Members >= 0 && c.Members <= 1):
		return fmt.Errorf("members share must be within 0..1 (got %g)", c.Members)
	case c.SelfPlay+c.Exploit+c.Members > 1:
		return fmt.Errorf("the self-play, exploiter and members shares add up to more than 1 (%g + %g + %g)", c.SelfPlay, c.Exploit, c.Members)
	}
	return c.Learning.Validate()
}

// Report is what a round did, for the round's line in the log.
type Report struct {
	Round      int64
	Snapshot   *store.Agent
	Rating     elo.Rating // the snapshot's
	VsRandom   [3]int     // the snapshot's wins, draws and losses against random
	TrainGames int        // training games this round
	TrainTime  time.Duration
	EvalGames  int // evaluation games this round
	EvalTime   time.Duration
	Elapsed    time.Duration // since the run started
}

// Unbeatable reports whether the exhaustive check found no losing line
// for the snapshot on either side.
func (r Report) Unbeatable() bool {
	for _, v := range r.Snapshot.Verify {
		if !v.Unbeatable() {
			return false
		}
	}
	return len(r.Snapshot.Verify) == 2
}

// Hooks are how Run tells its caller what happens; any may be nil.
type Hooks struct {
	Training func(round int64, done, total int) // every 1,000 training games
	Round    func(Report)                       // after each committed round
}

// Run plays rounds on db until cfg.Rounds are done, cfg.Duration has
// passed or ctx is cancelled. A league already in db goes on from its
// last committed round with the learner exactly as it was. Cancelling
// abandons the round under way: nothing of it is stored, and Run returns
// ctx's error with the number of the last committed round.
func Run(ctx context.Context, db *store.DB, cfg Config, hooks Hooks) (last int64, err error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	lg, err := open(ctx, db, cfg)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	for n := 0; cfg.Rounds == 0 || n < cfg.Rounds; n++ {
		if cfg.Duration > 0 && time.Since(start) >= cfg.Duration {
			break
		}
		if err := lg.round(ctx, hooks, start); err != nil {
			return lg.lastRound, err
		}
	}
	return lg.lastRound, nil
}

// league is a run's view of the database, kept in memory between rounds:
// every member as a move table, every match, and the learner.
type league struct {
	db        *store.DB
	cfg       Config
	lastRound int64
	learner   *learner
	members   []Member // in id order; the random player has no table
	kinds     map[int64]store.Kind
	pairs     []elo.Pair        // every match, as the refit takes it
	played    map[int64]bool    // members that have played their matches
	scores    map[int64]float64 // the latest snapshot's score against each member
	parent    int64             // the latest snapshot
	random    int64             // the rating anchor
}

// open loads the league in db: its members, matches and learner.
func open(ctx context.Context, db *store.DB, cfg Config) (*league, error) {
	lg := &league{db: db, cfg: cfg, kinds: map[int64]store.Kind{}, played: map[int64]bool{}, scores: map[int64]float64{}}
	list, err := db.Agents(ctx)
	if err != nil {
		return nil, err
	}
	nets, err := db.Nets(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range list {
		switch a.Kind {
		case store.Random:
			lg.random = a.ID
		case store.Checkpoint:
			lg.parent = a.ID
		}
		lg.kinds[a.ID] = a.Kind
		lg.members = append(lg.members, member(a, nets))
	}
	matches, err := db.Matches(ctx)
	if err != nil {
		return nil, err
	}
	lg.pairs = pairs(matches)
	for _, m := range matches {
		lg.played[m.A], lg.played[m.B] = true, true
		if m.A == lg.parent {
			lg.scores[m.B] = score(m.Wins, m.Draws, m.Losses)
		}
	}

	round, state, err := db.LastRound(ctx)
	switch {
	case errors.Is(err, store.ErrNoRounds):
		lg.learner = newLearner(cfg.Hidden, cfg.Seed)
	case err != nil:
		return nil, err
	default:
		lg.lastRound = round
		if lg.learner, err = unmarshalLearner(state); err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
	}
	return lg, nil
}

// member is agent a as evaluation sees it: random as the random player,
// perfect and networks (from nets) as move tables.
func member(a *store.Agent, nets map[int64]*nn.Net) Member {
	m := Member{ID: a.ID}
	switch a.Kind {
	case store.Random:
	case store.Perfect:
		m.Table = agents.Perfect()
	default:
		m.Table = nets[a.ID].Table()
	}
	return m.compiled()
}

// score is a record's share of the points, a draw being half a point.
func score(w, d, l int) float64 { return (float64(w) + float64(d)/2) / float64(max(w+d+l, 1)) }

// round plays one league round: train, snapshot, evaluate, rate, commit.
func (lg *league) round(ctx context.Context, hooks Hooks, start time.Time) error {
	begun := time.Now()
	number := lg.lastRound + 1

	// STEP 1: train the learner against opponents drawn from the league.
	if err := lg.train(ctx, number, hooks.Training); err != nil {
		return err
	}
	trained := time.Since(begun)

	// STEP 2: freeze a snapshot of it.
	net := lg.learner.net.Clone()
	snap := Member{Table: net.Table()}.compiled() // its id comes with the commit
	snapshot := &store.Agent{Kind: store.Checkpoint, Net: net, ParentID: lg.parent, TrainGames: lg.learner.games}

	// STEP 3: the snapshot plays every member, and members that have not
	// played yet play everyone.
	evalStart := time.Now()
	pending := lg.pending()
	results, err := lg.evaluate(ctx, number, snap, pending)
	if err != nil {
		return err
	}
	evalTime := time.Since(evalStart)

	// STEPS 4 and 5: refit the ratings over every match and commit the
	// round, all at once, once the snapshot has its id.
	state, err := lg.learner.marshal()
	if err != nil {
		return err
	}
	r := &store.Round{Started: begun, Snapshot: snapshot, Learner: state}
	var ratings []elo.Rating
	known := len(lg.pairs) // the pairs before this round's
	err = lg.db.CommitRound(ctx, r, func(id int64) error {
		r.Finished = time.Now()
		for i := range results {
			if results[i].A == 0 {
				results[i].A = id
			}
		}
		r.Matches = results
		// In place: with a thousand checkpoints, a copy of their half a
		// million pairs each round would cost more memory than they take.
		lg.pairs = append(lg.pairs[:known], pairs(results)...)
		ratings, err = elo.Fit(lg.pairs, lg.random)
		if err != nil {
			return err
		}
		for _, rt := range ratings {
			r.Ratings = append(r.Ratings, store.Rating{Agent: rt.Agent, Elo: rt.Elo, Lo: rt.Lo, Hi: rt.Hi, Games: rt.Games})
		}
		return nil
	})
	if err != nil {
		lg.pairs = lg.pairs[:known]
		return err
	}

	// The round is in: bring the in-memory league up to date.
	lg.lastRound = r.ID
	lg.parent = snapshot.ID
	snap.ID = snapshot.ID
	lg.members = append(lg.members, snap)
	lg.kinds[snap.ID] = store.Checkpoint
	rep := Report{Round: r.ID, Snapshot: snapshot, TrainGames: lg.cfg.GamesPerRound, TrainTime: trained,
		EvalTime: evalTime, Elapsed: time.Since(start)}
	clear(lg.scores)
	for _, m := range results {
		lg.played[m.A], lg.played[m.B] = true, true
		rep.EvalGames += m.Wins + m.Draws + m.Losses
		if m.A == snap.ID {
			lg.scores[m.B] = score(m.Wins, m.Draws, m.Losses)
			if m.B == lg.random {
				rep.VsRandom = [3]int{m.Wins, m.Draws, m.Losses}
			}
		}
	}
	for _, rt := range ratings {
		if rt.Agent == snap.ID {
			rep.Rating = rt
		}
	}
	if hooks.Round != nil {
		hooks.Round(rep)
	}
	return nil
}

// pairs turns matches into the rating fit's input.
func pairs(matches []store.Match) []elo.Pair {
	ps := make([]elo.Pair, len(matches))
	for i, m := range matches {
		ps[i] = elo.Pair{A: m.A, B: m.B, Wins: m.Wins, Draws: m.Draws, Losses: m.Losses}
	}
	return ps
}

// train plays the round's training games. Each game's opponent is drawn
// from four sources, in the shares of the config:
//
//   - Exploit: the exploiter of the learner itself as it was at most
//     exploitEvery games ago (agents.Exploiter), a random player that
//     plays every line the exhaustive check finds against the learner.
//     This is what makes the learner unbeatable. ttt-rl's rule rewards
//     whole games, so against a random opponent a move that loses to one
//     reply in a hundred but usually wins is worth keeping (it scores more
//     than a sure tie), and the learner keeps such holes for good; the
//     exploiter finds the reply every time, and the move goes. AlphaStar's
//     league keeps exploiters for the same reason.
//   - SelfPlay: itself. It samples both sides and learns from both.
//   - Members: a frozen net of the league (a checkpoint, a baseline or an
//     imported net), by prioritised fictitious self-play as in AlphaStar's
//     league: weight (1/2 - s)^2 for the nets against which the latest
//     snapshot scored s < 1/2, so only nets that still beat it are met,
//     the ones that beat it most most often. The share is 0 unless asked
//     for: a greedy net plays the same game every time against a learner
//     that has stopped exploring, thousands of repeats of one game skew
//     what the learner knows of every other position, and in our runs
//     even a share of 3% made the first unbeatable checkpoint come later.
//   - The rest: random, the opponent that shows the learner every
//     position. ttt-rl learns from it alone.
//
// Perfect is a yardstick, not a sparring partner: like any greedy player
// it would teach one game per side.
func (lg *league) train(ctx context.Context, round int64, progress func(int64, int, int)) error {
	l := train.NewLearner(lg.learner.net, float32(lg.cfg.LR), lg.cfg.Temperature, lg.learner.rng)
	var nets []*agents.Table
	var cum []float64 // cumulative PFSP weights of nets
	total := 0.0
	for _, m := range lg.members {
		if m.Table == nil || lg.kinds[m.ID] == store.Perfect {
			continue
		}
		s, ok := lg.scores[m.ID]
		if !ok {
			s = 0.5 // never met: as likely as an even match
		}
		if w := max(0, 0.5-s) * max(0, 0.5-s); w > 0 {
			total += w
			nets = append(nets, m.Table)
			cum = append(cum, total)
		}
	}
	random := agents.Random{Rand: lg.learner.rng}
	var exploiter *agents.Exploiter
	for g := range lg.cfg.GamesPerRound {
		if g%exploitEvery == 0 && lg.cfg.Exploit > 0 {
			exploiter = agents.NewExploiter(lg.learner.net.Table(), lg.learner.rng)
		}
		var opp agents.Player = random // nil: itself
		switch r := lg.learner.rng.Float64(); {
		case r < lg.cfg.Exploit:
			opp = exploiter
		case r < lg.cfg.Exploit+lg.cfg.SelfPlay:
			opp = nil
		case r < lg.cfg.Exploit+lg.cfg.SelfPlay+lg.cfg.Members && len(nets) > 0:
			x := lg.learner.rng.Float64() * total
			opp = nets[min(len(cum)-1, sort.Search(len(cum), func(i int) bool { return cum[i] > x }))]
		}
		side := game.Side(lg.learner.games % 2)
		l.Play(side, opp, lg.cfg.Epsilon.At(int(lg.learner.games)))
		lg.learner.games++
		if (g+1)%1000 == 0 || g+1 == lg.cfg.GamesPerRound {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(round, g+1, lg.cfg.GamesPerRound)
			}
		}
	}
	return nil
}

// exploitEvery is how many training games an exploiter serves before it
// is rebuilt against the learner as it is now: often enough that the holes
// it knows are still there, rarely enough that rebuilding (a move table
// and a search of the game, a few milliseconds) costs little.
const exploitEvery = 2000

// pairing is a match to play: A against B, A the newer agent (0 for the
// snapshot, whose id is not known yet).
type pairing struct{ a, b Member }

// pending lists the round's matches: the snapshot against every member,
// then every pair of members where one has never played (a net imported
// or trained since the last round), newer first in each pair.
func (lg *league) pending() []pairing {
	list := make([]pairing, 0, len(lg.members))
	for _, m := range lg.members {
		list = append(list, pairing{a: Member{}, b: m})
	}
	// Pairs (a, b) with b before a, in that order: a member that has not
	// played meets every member before it, one that has meets only those
	// before it that have not. Fresh members are few, so this is one pass
	// over the members, not one over every pair.
	var fresh []Member // the members so far that have not played
	for i, a := range lg.members {
		if !lg.played[a.ID] {
			for _, b := range lg.members[:i] {
				list = append(list, pairing{a: a, b: b})
			}
			fresh = append(fresh, a)
			continue
		}
		for _, b := range fresh {
			list = append(list, pairing{a: a, b: b})
		}
	}
	return list
}

// evaluate plays the pending matches on cfg.Workers goroutines, each of
// which takes the next match in the list as soon as it is done with one,
// so that all stay busy to the end. Each match's random games are seeded
// from the league seed, the round and the match's place in the list, so
// results do not depend on the number of workers or on scheduling.
func (lg *league) evaluate(ctx context.Context, round int64, snap Member, pending []pairing) ([]store.Match, error) {
	results := make([]store.Match, len(pending))
	var next atomic.Int64 // the next match to take
	g, ctx := errgroup.WithContext(ctx)
	for range min(lg.cfg.Workers, len(pending)) {
		g.Go(func() error {
			for i := int(next.Add(1) - 1); i < len(pending); i = int(next.Add(1) - 1) {
				if err := ctx.Err(); err != nil {
					return err
				}
				a, b := pending[i].a, pending[i].b
				if a.ID == 0 {
					a = snap
				}
				seed := mix(lg.cfg.Seed, uint64(round), uint64(i))
				w, d, l := playMatch(a, b, lg.cfg.Plies, seed, nil)
				if a.Table != nil && b.Table != nil {
					seed = 0 // no random games to replay; SQLite stores a 0 in no bytes
				}
				results[i] = store.Match{A: a.ID, B: b.ID, Plies: lg.cfg.Plies, Seed: seed, Wins: w, Draws: d, Losses: l}
			}
			return nil
		})
	}
	return results, g.Wait()
}

// mix hashes its inputs into a seed (SplitMix64's finaliser over each).
func mix(xs ...uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range xs {
		h ^= x
		h += 0x9e3779b97f4a7c15
		h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
		h = (h ^ h>>27) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}
