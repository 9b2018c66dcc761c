package train

import (
	"context"
	"fmt"
	"math/rand/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/nn"
)

// Learning is how a network learns: its size when new, the learning
// rate, and how it explores.
type Learning struct {
	Hidden      int
	LR          float64
	Epsilon     Schedule
	Temperature float64
}

// Validate reports the first setting that is out of range.
func (l Learning) Validate() error {
	switch {
	case l.Hidden < 1 || l.Hidden > nn.MaxHidden:
		return fmt.Errorf("hidden must be within 1..%d (got %d)", nn.MaxHidden, l.Hidden)
	case !(l.LR > 0 && l.LR <= 10):
		return fmt.Errorf("learning rate must be within (0, 10] (got %g)", l.LR)
	case !(l.Temperature > 0 && l.Temperature <= 100):
		return fmt.Errorf("temperature must be within (0, 100] (got %g)", l.Temperature)
	}
	return l.Epsilon.Validate()
}

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
		Hidden:      nn.DefaultHidden,
		LR:          nn.DefaultLR,
		Epsilon:     Schedule{Start: DefaultEpsilon, End: 0, Games: games / 2},
		Temperature: DefaultTemperature,
	}}
}

// Validate reports the first setting that is out of range.
func (c Config) Validate() error {
	if c.Games < 1 {
		return fmt.Errorf("games must be at least 1 (got %d)", c.Games)
	}
	return c.Learning.Validate()
}

// Exploration defaults. Sampling at the net's own temperature (1) makes
// it reinforce whatever random-looking move happened to win against a
// random opponent, and it never sharpens; a low temperature keeps
// sampling close to greedy while still breaking near-ties at random.
const (
	DefaultEpsilon     = 0.2
	DefaultTemperature = 0.01
)

// Tally counts a learner's results over some games.
type Tally struct {
	Games, Wins, Losses, Ties int
}

// Add counts one game that ended in r, played by the learner as side.
func (t *Tally) Add(r game.Result, side game.Side) {
	t.Games++
	switch r {
	case game.Tie:
		t.Ties++
	case game.Win(side):
		t.Wins++
	default:
		t.Losses++
	}
}

// String formats t as ttt-rl's trainer does.
func (t Tally) String() string {
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(t.Games, 1)) }
	return fmt.Sprintf("Wins: %d (%.1f%%), Losses: %d (%.1f%%), Ties: %d (%.1f%%)",
		t.Wins, pct(t.Wins), t.Losses, pct(t.Losses), t.Ties, pct(t.Ties))
}

// ReportEvery is how many games a progress report covers; Window how
// many games a tally line covers, as in ttt-rl.
const (
	ReportEvery = 1000
	Window      = 10000
)

// Progress is what AgainstRandom reports every ReportEvery games.
type Progress struct {
	Games   int     // games played so far
	Epsilon float64 // exploration rate now
	Window  *Tally  // the last Window games' results, every Window games; else nil
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
	net := nn.New(cfg.Hidden, rng)
	l := NewLearner(net, float32(cfg.LR), cfg.Temperature, rng)
	opp := agents.Random{Rand: rng}
	var window Tally
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
			if window.Games == Window {
				t := window
				p.Window = &t
				window = Tally{}
			}
			report(p)
		}
	}
	return net, nil
}
