package league

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"time"

	"ttt/agents/game"
	"ttt/league/elo"
	"ttt/store"
)

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
	// Ladder is the snapshot's ladder rating; Best the league's best
	// after the round and BestLadder its ladder rating, as the round
	// committed them: the best's extra games, played after the commit,
	// are a Laddered of their own. Best is nil before the league has a
	// network.
	Ladder     LadderRating
	Best       *store.Agent
	BestLadder LadderRating
	// Cores is how many cores the league kept busy since the round
	// before: its processor time over the wall time (0: not measured).
	Cores float64
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

// Laddered is the extra games the best played against the ladder after
// a round was committed, and the ladder rating they gave it.
type Laddered struct {
	Round  int64
	Best   *store.Agent
	Ladder LadderRating
}

// Hooks are how Run tells its caller what happens; any may be nil. The
// next round may train while one is evaluated and its best plays the
// ladder: Training is then called beside the others, from another
// goroutine.
type Hooks struct {
	Loading  func(done, total int)              // while a league's results load
	Training func(round int64, done, total int) // every 1,000 training games
	// Evaluating is called as round's pools are played, after each
	// match: the matches played, and of how many. Until the first part
	// of the pools is played, total is the most the round deals.
	Evaluating func(round int64, done, total int)
	Round      func(Report) // as each round is committed
	// Laddering is called as the best plays its extra games against the
	// ladder after round, after each match: the games played, and about
	// how many in all, as the interval so far says.
	Laddering func(round int64, best string, done, about int)
	// Ladder is called when the best's extra games after a round end,
	// if it played any.
	Ladder func(Laddered)
	// Stop, after Round and the best's extra games, ends the run when it
	// returns true: a stop condition of the caller's, such as a perfect
	// best.
	Stop func(Report) bool
	// Abandoned, as a run ends, names the round that was training ahead
	// and will not be committed: the run ended by Stop, an error or
	// cancellation before it was played.
	Abandoned func(round int64)
}

// busy measures how many cores the league keeps busy, from one commit to
// the next: the process's processor time, on every core together, over
// the wall time.
type busy struct {
	cpu time.Duration // the processor time at the last mark
	at  time.Time
}

// since returns the processor time used since the last mark, and the
// cores it kept busy, and marks now; zeros where the processor time
// cannot be read.
func (b *busy) since(now time.Time) (cpu time.Duration, cores float64) {
	c := ProcessCPU()
	cpu, wall := c-b.cpu, now.Sub(b.at)
	*b = busy{cpu: c, at: now}
	if c == 0 || wall <= 0 {
		return 0, 0
	}
	return cpu, cpu.Seconds() / wall.Seconds()
}

// report returns the report of round r, committed: t trained it, the
// rating fit did fit, the newcomers joined it, and its evaluation took
// evalTime, in a run that began at start.
func (lg *league) report(ctx context.Context, r *store.Round, t *trained, fit elo.Settled, newcomers []entrant, evalTime time.Duration, start time.Time) (Report, error) {
	snapshot := r.Snapshot
	rating, _ := lg.ratings.Rating(snapshot.ID)
	report := Report{Round: r.ID, Snapshot: snapshot, Rating: rating, TrainGames: r.Stats.TrainGames,
		TrainTime: t.took, EvalGames: r.Stats.EvalGames, EvalTime: evalTime, Fit: fit, Elapsed: time.Since(start),
		Diverged: t.diverged, Cores: r.Stats.Cores}
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
		a, err := lg.db.Agent(ctx, strconv.FormatInt(e.id, 10))
		if err != nil {
			return Report{}, err
		}
		rating, _ := lg.ratings.Rating(e.id)
		report.Searched = append(report.Searched, Rated{Agent: a, Rating: rating})
	}
	best, err := Lookup(ctx, lg.db, store.Best)
	if errors.Is(err, store.ErrNoCheckpoints) {
		return report, nil
	}
	if err != nil {
		return Report{}, err
	}
	ladders, err := DBLadderRatings(ctx, lg.db, []int64{snapshot.ID, best.ID})
	if err != nil {
		return Report{}, err
	}
	ladder := func(id int64) LadderRating {
		r, ok := ladders[id]
		return LadderRating{Agent: id, Rating: r, Rated: ok}
	}
	report.Ladder, report.Best, report.BestLadder = ladder(snapshot.ID), best.Agent, ladder(best.ID)
	return report, nil
}
