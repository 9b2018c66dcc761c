package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
)

// Config is a run of ttt-rl's trainer: one network against a uniformly
// random opponent.
type Config struct {
	Games int
	Seed  uint64
	Learning
}

// Default returns the settings of `ttt train` for the given number of
// games, where the command line does not say otherwise.
func Default(games int) Config {
	return Config{Games: games, Seed: 1, Learning: Learning{
		Method:      MethodPolicy,
		Lambda:      DefaultLambda,
		Hidden:      nn.DefaultHidden,
		LR:          nn.DefaultLR,
		Epsilon:     Schedule{Start: DefaultEpsilon, End: 0, Games: games / 2},
		Temperature: DefaultTemperature,
	}}
}

// Validate reports the first setting that is out of range.
func (c Config) Validate() error {
	if c.Games < 1 {
		return fmt.Errorf("--games must be at least 1 (got %d)", c.Games)
	}
	return c.Learning.Validate()
}

// ReportEvery is how many games a progress report covers; Window how
// many games a tally line covers, as in ttt-rl.
const (
	ReportEvery = 1000
	Window      = 10000
)

// Progress is what AgainstRandom reports every ReportEvery games.
type Progress struct {
	Games   int          // games played so far
	Epsilon float64      // exploration rate now
	Window  *game.Record // the last Window games' results, every Window games; else nil
}

// AgainstRandom trains a new network against a uniformly random opponent,
// the learner playing X in even games and O in odd ones, and calls report
// (if not nil) as it goes. The run is a pure function of cfg: one seeded
// generator draws the initial weights, the samples and the opponent's
// moves, in a fixed order. On cancellation it returns the net as trained
// so far with ctx's error.
func AgainstRandom(ctx context.Context, cfg Config, report func(Progress)) (*nn.Net, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7474742d726c)) // "ttt-rl"
	net := NewNet(tictactoe.Game, cfg.Learning, rng)
	l := New(net, cfg.Learning, rng)
	opp := game.Random{Game: tictactoe.Game, Rand: rng}
	var window game.Record
	for g := range cfg.Games {
		side := game.Side(g % 2)
		eps := cfg.Epsilon.At(g)
		window.Add(l.Play(side, opp, eps), side)
		if (g+1)%ReportEvery != 0 && g+1 != cfg.Games {
			continue
		}
		if err := ctx.Err(); err != nil {
			return net, err
		}
		if report != nil {
			p := Progress{Games: g + 1, Epsilon: eps}
			if window.Games() == Window {
				t := window
				p.Window = &t
				window = game.Record{}
			}
			report(p)
		}
	}
	return net, nil
}
