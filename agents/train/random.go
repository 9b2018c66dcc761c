package train

import (
	"context"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/agents/table"
	"ttt/agents/verify"
)

// Plan is a run of ttt train: one learner of tic-tac-toe, trained the
// way its document teaches, against a uniformly random opponent (ttt-rl,
// the CodeProject article) or against itself (SelfPlay). (A league's
// settings are league.Config.)
type Plan struct {
	Games int
	Seed  uint64
	// Until, if not verify.Beatable, ends the run at the first check
	// that finds the learner that good; a check, the exhaustive one of
	// both sides, comes every CheckEvery games. Games is then the most
	// the run may play.
	Until      verify.Class
	CheckEvery int
	Learning
}

// Default returns the settings of `ttt train` for the given number of
// games, where the command line does not say otherwise.
func Default(games int) Plan {
	return Plan{Games: games, Seed: 1, CheckEvery: DefaultCheckEvery, Learning: Learning{
		Method:      MethodPolicy,
		Lambda:      DefaultLambda,
		Hidden:      nn.DefaultHidden,
		LR:          nn.DefaultLR,
		Epsilon:     Schedule{Start: DefaultEpsilon, End: 0, Games: games / 2},
		Temperature: DefaultTemperature,
	}}
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
		return OutOfRange("games", "must be at least 1", c.Games)
	case c.Until != verify.Beatable && c.CheckEvery < 1:
		return OutOfRange("check_every", "must be at least 1", c.CheckEvery)
	}
	return c.Learning.Validate()
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
	X, O  verify.Report
	Class verify.Class
}

// Model is what a learner learns: a network (policy, tdlambda) or a table
// of values (table, selfplay-table); the other is nil.
type Model struct {
	Net   *nn.Net
	Table *table.Table
}

// Run trains a new learner of tic-tac-toe of cfg's method, playing X in
// even games and O in odd ones, against a uniformly random opponent or,
// for a self-play method, against itself; it calls report (if not nil)
// as it goes. The run is a pure function of cfg: one seeded generator
// draws the initial weights, the samples and the opponent's moves, in a
// fixed order. On cancellation it returns the model as trained so far
// with ctx's error.
func Run(ctx context.Context, cfg Plan, report func(Progress)) (Model, error) {
	if err := cfg.Validate(); err != nil {
		return Model{}, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7474742d726c)) // "ttt-rl"
	var (
		model Model
		l     Learner
	)
	switch cfg.Method {
	case MethodTable:
		v := NewValued(rng)
		model, l = Model{Table: v.Table}, v
	case MethodSelfPlayTable:
		b := NewBook(cfg.LR, rng)
		model, l = Model{Table: b.Table}, b
	default:
		model.Net = NewNet(tictactoe.Game, cfg.Learning, rng)
		l = New(model.Net, cfg.Learning, rng)
	}
	var opp game.Player = game.Random{Game: tictactoe.Game, Rand: rng}
	if SelfPlay(cfg.Method) {
		opp = nil
	}
	var window game.Record
	for g := range cfg.Games {
		side := game.Side(g % 2)
		eps := cfg.Epsilon.At(g)
		window.Add(l.Play(side, opp, eps), side)
		checked := cfg.Until != verify.Beatable && ((g+1)%cfg.CheckEvery == 0 || g+1 == cfg.Games)
		if (g+1)%ReportEvery != 0 && g+1 != cfg.Games && !checked {
			continue
		}
		if err := ctx.Err(); err != nil {
			return model, err
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
	return model, nil
}
