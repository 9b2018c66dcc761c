package league

import (
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

// Hooks are how Run tells its caller what happens; any may be nil.
type Hooks struct {
	Loading  func(done, total int)              // while a league's results load
	Training func(round int64, done, total int) // every 1,000 training games
	Round    func(Report)                       // after each committed round
	// Stop, after Round, ends the run when it returns true: a stop
	// condition of the caller's, such as a perfect best.
	Stop func(Report) bool
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
	c := processCPU()
	cpu, wall := c-b.cpu, now.Sub(b.at)
	*b = busy{cpu: c, at: now}
	if c == 0 || wall <= 0 {
		return 0, 0
	}
	return cpu, cpu.Seconds() / wall.Seconds()
}
