package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/verify"
)

// Plan is a run of ttt train: one learner, trained the way its document
// teaches, against a uniformly random opponent (ttt-rl, the CodeProject
// article) or against itself (learn.Method.SelfPlay). (A league's
// settings are league.Config.)
type Plan struct {
	Game   game.Game
	Method *learn.Method
	Games  int
	Seed   uint64
	// Until, if not game.Beatable, ends the run at the first check
	// that finds the learner that good; a check, the exhaustive one of
	// both sides, comes every CheckEvery games. Games is then the most
	// the run may play.
	Until      game.Class
	CheckEvery int
	learn.Settings
}

// Default returns the settings of `ttt train` of tic-tac-toe for the
// given number of games, where the command line does not say otherwise:
// ttt-rl's.
func Default(games int) Plan {
	s := PolicyMethod.Defaults(tictactoe.Game)
	s.Method = PolicyMethod.Name
	s.Epsilon = learn.Schedule{Start: learn.DefaultEpsilon, End: 0, Games: games / 2}
	return Plan{Game: tictactoe.Game, Method: PolicyMethod, Games: games, Seed: 1, CheckEvery: DefaultCheckEvery, Settings: s}
}

// DefaultCheckEvery is how many games pass between two checks of a run
// with Until: the exhaustive check of both sides takes milliseconds (a
// network is compiled into a move table first), a thousand games of a
// table learner about as long.
const DefaultCheckEvery = 1000

// Validate reports the first setting that is out of range.
func (c Plan) Validate() error {
	switch {
	case c.Games < 1:
		return learn.OutOfRange("games", "must be at least 1", c.Games)
	case c.Until != game.Beatable && c.CheckEvery < 1:
		return learn.OutOfRange("check_every", "must be at least 1", c.CheckEvery)
	case c.Until != game.Beatable && c.Game != tictactoe.Game:
		return learn.Invalid([]string{"until"}, func(n []string) string {
			return fmt.Sprintf("%s: %s has no exhaustive check to pass", n[0], c.Game.Title())
		})
	}
	if c.Method.CanLearn != nil {
		if err := c.Method.CanLearn(c.Game); err != nil {
			return learn.Invalid([]string{"learner"}, func(n []string) string { return fmt.Sprintf("%s %s: %v", n[0], c.Method.Name, err) })
		}
	}
	if c.Method.Check != nil {
		if err := c.Method.Check(c.Settings); err != nil {
			return err
		}
	}
	return c.Settings.Validate(c.Method.Own)
}

// ReportEvery is how many games a progress report covers; Window how
// many games a tally line covers, as in ttt-rl.
const (
	ReportEvery = 1000
	Window      = 10000
)

// Progress is what Run reports every ReportEvery games, and after every
// check.
type Progress struct {
	Games   int          // games played so far
	Epsilon float64      // exploration rate now
	Window  *game.Record // the last Window games' results, every Window games; else nil
	Check   *Check       // the check after these games; nil if none
}

// Check is what the exhaustive check found of the learner as it would
// play frozen.
type Check struct {
	X, O  game.Report
	Class game.Class
}

// Run trains a new learner of cfg's game and method, playing X in even
// games and O in odd ones, against a uniformly random opponent or, for a
// self-play method, against itself; it calls report (if not nil) as it
// goes. The run is a pure function of cfg: one seeded generator draws
// the initial weights, the samples and the opponent's moves, in a fixed
// order. On cancellation it returns the model as trained so far with
// ctx's error.
func Run(ctx context.Context, cfg Plan, report func(Progress)) (learn.Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7474742d726c)) // "ttt-rl"
	l, err := cfg.Method.New(cfg.Game, cfg.Settings, rng)
	if err != nil {
		return nil, err
	}
	var opp game.Player = game.Random{Game: cfg.Game, Rand: rng}
	if cfg.Method.SelfPlay {
		opp = nil
	}
	var window game.Record
	for g := range cfg.Games {
		// The learner's schedule (its rate, and an n-tuple net's growth)
		// as a league applies it, a report's games at a time.
		if g%ReportEvery == 0 {
			if err := l.Schedule(cfg.Settings, int64(g)); err != nil {
				return l.Model(), err
			}
		}
		side := game.Side(g % 2)
		eps := cfg.Epsilon.At(g)
		window.Add(l.Play(side, opp, eps), side)
		checked := cfg.Until != game.Beatable && ((g+1)%cfg.CheckEvery == 0 || g+1 == cfg.Games)
		if (g+1)%ReportEvery != 0 && g+1 != cfg.Games && !checked {
			continue
		}
		if err := ctx.Err(); err != nil {
			return l.Model(), err
		}
		p := Progress{Games: g + 1, Epsilon: eps}
		if checked {
			// The check sees the learner as a snapshot of it plays:
			// its greedy move in every position, compiled once.
			moves := tictactoe.NewTable(game.PlayerFunc(l.Greedy))
			c := Check{X: verify.Check(moves, game.X), O: verify.Check(moves, game.O)}
			c.Class = verify.Classify(c.X, c.O)
			p.Check = &c
		}
		if window.Games() == Window {
			t := window
			p.Window = &t
			window = game.Record{}
		}
		if report != nil {
			report(p)
		}
		if p.Check != nil && p.Check.Class >= cfg.Until {
			break
		}
	}
	return l.Model(), nil
}
