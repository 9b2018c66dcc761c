package league

import (
	"context"
	"time"

	"ttt/agents/game"
	"ttt/store"
)

// This file is the league's driver, and only that: Run plays rounds, and
// a round reads from the top down (train, snapshot, measure, evaluate,
// rate, commit). What it works with is declared in the files beside it:
// the trainer (trainer.go, train.go) owns the learners, the league
// (state.go, measure.go, pool.go, rate.go, ...) everything the
// evaluation reads and the database; neither holds the other.

// Run plays rounds on db until cfg.Rounds are done, cfg.Duration has
// passed or ctx is cancelled, and returns the number of the last round
// the database holds. A league already in db goes on from its last
// committed round with the learner exactly as it was. No round starts
// training after cfg.Duration, and every round that started within
// cfg.Rounds and cfg.Duration is committed. A run that ends otherwise,
// by hooks.Stop or an error, abandons the round that trains ahead of the
// last one (hooks.Abandoned says which): its training is cancelled, not
// waited for, and the next run trains that round again from the last
// committed one, as a run without the stop would have. Cancelling
// abandons the round under way: nothing of it is stored, and Run returns
// ctx's error. The caller holds db's league lock, and has resolved and
// checked cfg for db's league (Prepare, or Config.ValidateFor).
func Run(ctx context.Context, db *store.DB, cfg Config, hooks Hooks) (last int64, err error) {
	lg, tr, err := open(ctx, db, cfg, hooks.Loading)
	if err == nil {
		err = lg.keepSettings(ctx, tr.hidden())
	}
	if err != nil {
		last, _, _ = db.LastRound(context.WithoutCancel(ctx))
		return last, err
	}
	start := time.Now()
	run, err := db.StartRun(ctx, lg.run(start))
	if err != nil {
		return lg.lastRound, err
	}
	// The run's end is written once nothing of it is under way; a run
	// that is killed leaves it unwritten.
	defer func() {
		if end := db.EndRun(context.WithoutCancel(ctx), run, time.Now()); err == nil {
			err = end
		}
	}()
	defer lg.checkpoints.Wait()
	lg.busy = busy{cpu: ProcessCPU(), at: start}
	more := func(n int) bool {
		return (cfg.Rounds == 0 || n < cfg.Rounds) && (cfg.Duration == 0 || time.Since(start) < cfg.Duration)
	}
	// A run stopped between a round's commit and its best's extra games
	// against the ladder (STEP 8) plays them first, as that round would
	// have: the league is then the one a run without the stop makes. The
	// commit recorded what the best owes (store.Round.Owes), which the
	// readers show as provisional until then; the best plays on after,
	// should this run allow a narrower interval than the last.
	if lg.lastRound > 0 {
		if err := lg.settleOwed(ctx, hooks); err != nil {
			return lg.lastRound, err
		}
		if err := lg.settleBest(ctx, lg.lastRound, hooks); err != nil {
			return lg.lastRound, err
		}
	}
	// The next round, training while this one is evaluated, under a
	// context of its own: a run that ends before it is taken up stops it
	// rather than waiting for a round it would throw away (a Connect Four
	// round is millions of games).
	var next chan trainedAhead
	ahead, stopAhead := context.WithCancel(ctx)
	defer func() {
		stopAhead()
		if next != nil {
			a := <-next // no goroutine outlives the run
			if hooks.Abandoned != nil {
				hooks.Abandoned(a.round.number)
			}
		}
	}()
	for n := 0; next != nil || more(n); n++ {
		// STEP 1: train the line whose turn it is against what the league
		// offers it, or take the round that trained while the last one
		// was evaluated, and the trainer with it.
		var t trained
		if next != nil {
			a := <-next
			t, tr, next = a.round, a.trainer, nil
		} else {
			opp, err := lg.opponents(ctx, tr.turn())
			if err != nil {
				return lg.lastRound, err
			}
			t = tr.round(ctx, lg.lastRound+1, opp, hooks.Training)
		}
		if t.err != nil {
			return lg.lastRound, t.err
		}

		// STEP 2: while this round is evaluated, the next one trains,
		// where nothing it trains against depends on what the evaluation
		// finds: the league is then the same as one that plays its rounds
		// one after the other. The trainer goes to that goroutine, and
		// comes back with its round.
		if tr.independent() && more(n+1) {
			opp, err := lg.opponents(ctx, tr.turn())
			if err != nil {
				return lg.lastRound, err
			}
			next = make(chan trainedAhead, 1)
			number := t.number + 1
			go func(tr *trainer, out chan<- trainedAhead) {
				out <- trainedAhead{tr.round(ahead, number, opp, hooks.Training), tr}
			}(tr, next)
			tr = nil
		}

		// STEPS 3 to 8: measure, evaluate, rate and commit the round,
		// report it, and play the best's extra games.
		r, player, err := lg.finish(ctx, &t, hooks, start)
		if err != nil {
			return lg.lastRound, err
		}
		if tr != nil { // the learner is as this snapshot, still
			tr.keep(t.line, player)
		}
		if hooks.Stop != nil && hooks.Stop(r) {
			break
		}
	}
	return lg.lastRound, nil
}

// finish plays the rest of round t, trained: measure, evaluate, rate,
// commit, then the best's extra games. It reports the round as it is
// committed, and returns the snapshot as the deterministic player its
// check played.
func (lg *league) finish(ctx context.Context, t *trained, hooks Hooks, start time.Time) (Report, game.Player, error) {
	number, snapshot := lg.lastRound+1, t.snapshot
	snapshot.ParentID = lg.latest[t.method]

	// STEP 3: the facts the league keeps of every agent: the checks of
	// its game (tic-tac-toe's exhaustive check and exact odds against
	// random, Connect Four's position sets) and, where the game has them,
	// its move table.
	player, con := measure(lg.kit, snapshot, t.model)
	lg.contestants.fit(t.model)

	// STEP 4: the snapshot, and any agent added since the last round (ttt
	// import, ttt train --db, the best with the run's searches), play
	// their pools. The pools are chosen
	// from the ratings as they stand, in two steps: first the fixed part,
	// then, from the rating the first games suggest, the members nearest
	// to it.
	evalStart := time.Now()
	if err := lg.searchBest(ctx); err != nil {
		return Report{}, nil, err
	}
	newcomers, err := lg.newcomers(ctx)
	if err != nil {
		return Report{}, nil, err
	}
	entrants := append([]entrant{{id: 0, contestant: con, parent: snapshot.ParentID}}, newcomers...)
	matches, err := lg.evaluate(ctx, number, entrants, hooks.Evaluating)
	if err != nil {
		return Report{}, nil, err
	}
	evalTime := time.Since(evalStart)

	// STEP 5: rate: the new results join the fit, which moves the ratings
	// they touch; the history gets a row for every rating that moved by
	// more than store.HistoryStep.
	fit, err := lg.rate(matches)
	if err != nil {
		return Report{}, nil, err
	}

	// STEP 6: commit it all at once, with the learners as the next round
	// takes them up.
	r := &store.Round{Kind: store.LeagueRound, Started: t.begun, Snapshot: snapshot, Learner: t.state,
		Matches: matches, Updates: fit.updates, History: fit.history, Fits: fit.fits,
		Stats: store.RoundStats{TrainGames: t.games, TrainTime: t.took, EvalGames: evalGames(matches),
			EvalTime: evalTime, FitSteps: fit.settled.Steps, FitPending: fit.settled.Pending},
		Owes: lg.owes}
	r.Finished = time.Now()
	r.Stats.CPU, r.Stats.Cores = lg.busy.since(r.Finished)
	if err := lg.db.CommitRound(ctx, r); err != nil {
		return Report{}, nil, err
	}

	// The round is in: the league in memory follows, even if ctx is done
	// by now.
	if err := lg.committed(context.WithoutCancel(ctx), r, con); err != nil {
		return Report{}, nil, err
	}
	lg.checkpoint()

	// STEP 7: the round's line, as soon as it is in.
	report, err := lg.report(context.WithoutCancel(ctx), r, t, fit.settled, newcomers, evalTime, start)
	if err != nil {
		return Report{}, nil, err
	}
	if hooks.Round != nil {
		hooks.Round(report)
	}

	// STEP 8: the best, if its ladder rating is not yet within its
	// bound, plays its extra games against the ladder, which say so
	// when they end.
	if err := lg.ladderRound(ctx, number, hooks); err != nil {
		return Report{}, nil, err
	}
	return report, player, nil
}
