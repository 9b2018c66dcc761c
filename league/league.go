package league

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"ttt/agents/learn"
	"ttt/store"
)

// This file is the league's driver, and only that: Run plays rounds, and
// a round reads from the top down (train, snapshot, measure, evaluate,
// rate, commit). What it works with is declared in the files beside it
// (state.go, report.go, measure.go, pool.go, rate.go, ...); none of
// them uses a declaration of this one.

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
	if err := lg.ladderRound(ctx, &report); err != nil {
		return Report{}, err
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
