package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/nn"
	"ttt/agents/table"
)

// The settings of the network methods' own.
var (
	// Hidden is a new network's size.
	Hidden = &learn.Setting{Name: "hidden", Usage: "hidden units of a new network", Whole: true,
		In: func(v float64) bool { return v >= 1 && v <= nn.MaxHidden }, Range: fmt.Sprintf("within 1..%d", nn.MaxHidden),
		Made: "this league's learner has %s hidden units"}
	// Temperature is the policy learner's softmax temperature.
	Temperature = &learn.Setting{Name: "temperature", Usage: "softmax temperature of sampled moves (lower is greedier)",
		In: func(v float64) bool { return v > 0 && v <= 100 }, Range: "within (0, 100]"}
)

// The methods of the documents ttt grew from, as learn registers them.
var (
	// PolicyMethod is ttt-rl's: a policy net, reinforced by the game's
	// result against a random opponent.
	PolicyMethod = &learn.Method{
		Name: "policy", Model: "policy network", Own: []*learn.Setting{Hidden, Temperature}, Headerless: true,
		Summary:  "ttt-rl's rule: a policy net, reinforced by the game's result",
		Defaults: policyDefaults,
		New: func(g game.Game, s learn.Settings, rng *rand.Rand) (learn.Learner, error) {
			return NewPolicy(nn.New(g, s.Int(Hidden.Name), rng), float32(s.LR), s.Float(Temperature.Name), rng), nil
		},
		Resume: func(g game.Game, s learn.Settings, state []byte, rng *rand.Rand) (learn.Learner, error) {
			net, err := unmarshalNet(g, state)
			if err != nil {
				return nil, err
			}
			return NewPolicy(net, float32(s.LR), s.Float(Temperature.Name), rng), nil
		},
		Decode: func(g game.Game, stored []byte) (learn.Model, error) {
			return nn.Parse(g, stored, nn.Shape{Inputs: g.Inputs(), Outputs: g.Moves()})
		},
		ReadFile: nn.ReadPlain,
		MaxFile: func(g game.Game) int64 {
			return 4 * int64(nn.Params(g.Inputs(), nn.MaxHidden, g.Moves()))
		},
	}
	// TDLambdaMethod is TD-Gammon's and GNU Backgammon's: a value net
	// moving to the best afterstate, learning by TD(λ) in self-play.
	TDLambdaMethod = &learn.Method{
		Name: "tdlambda", Model: "value network", SelfPlay: true, Own: []*learn.Setting{Hidden, learn.Lambda},
		Summary:  "a value net moving to the best afterstate, learning by TD(λ)",
		Defaults: valueDefaults,
		New: func(g game.Game, s learn.Settings, rng *rand.Rand) (learn.Learner, error) {
			return NewTD(nn.NewValue(g, s.Int(Hidden.Name), rng), float32(s.LR), float32(s.Float(learn.Lambda.Name)), rng), nil
		},
		Resume: func(g game.Game, s learn.Settings, state []byte, rng *rand.Rand) (learn.Learner, error) {
			net, err := unmarshalNet(g, state)
			if err != nil {
				return nil, err
			}
			return NewTD(net, float32(s.LR), float32(s.Float(learn.Lambda.Name)), rng), nil
		},
		Decode: func(g game.Game, stored []byte) (learn.Model, error) {
			return nn.Parse(g, stored, nn.Shape{Inputs: g.Inputs(), Outputs: 1})
		},
		ReadFile: nn.ReadValueFile,
		MaxFile: func(g game.Game) int64 {
			return 64 + 4*int64(nn.Params(g.Inputs(), nn.MaxHidden, 1)) // with its header
		},
	}
	// TableMethod is the CodeProject article's table of values, against
	// a random opponent.
	TableMethod = &learn.Method{
		Name: "table", Model: "table of values",
		Summary:  "the CodeProject article's table of values; tic-tac-toe only",
		CanLearn: tablesOnly,
		Defaults: sharedDefaults,
		Tune: func(s learn.Settings, given func(string) bool) learn.Settings {
			return explore(s, ArticleEpsilon, given)
		},
		New: func(_ game.Game, _ learn.Settings, rng *rand.Rand) (learn.Learner, error) { return NewValued(rng), nil },
		Resume: func(_ game.Game, _ learn.Settings, state []byte, rng *rand.Rand) (learn.Learner, error) {
			return unmarshalValued(state, rng)
		},
		Decode:   decodeTable,
		ReadFile: readTable,
		MaxFile:  func(game.Game) int64 { return int64(table.MaxFileSize) },
	}
	// SelfPlayTableMethod is Sutton and Barto's table of values, in
	// self-play.
	SelfPlayTableMethod = &learn.Method{
		Name: "selfplay-table", Model: "table of values", SelfPlay: true,
		Summary:  "Sutton and Barto's table of values; tic-tac-toe only",
		CanLearn: tablesOnly,
		Defaults: sharedDefaults,
		Check: func(s learn.Settings) error {
			if s.LR > 1 { // a step past the target overshoots it: the value swings
				return learn.Invalid([]string{"lr"}, func(n []string) string {
					return fmt.Sprintf("%s, the selfplay-table learner's step size, must be within (0, 1] (got %g)", n[0], s.LR)
				})
			}
			return nil
		},
		Tune: func(s learn.Settings, given func(string) bool) learn.Settings {
			if !given("lr") {
				s.LR = BookStep
			}
			return explore(s, BookEpsilon, given)
		},
		New: func(_ game.Game, s learn.Settings, rng *rand.Rand) (learn.Learner, error) {
			return NewBook(s.LR, rng), nil
		},
		Resume: func(_ game.Game, s learn.Settings, state []byte, rng *rand.Rand) (learn.Learner, error) {
			t, err := table.Parse(state)
			if err != nil {
				return nil, err
			}
			return &Book{Table: t, Rand: rng, Step: s.LR}, nil
		},
		Decode: decodeTable,
	}
)

// sharedDefaults are the settings every method of the documents shares:
// ttt-rl's in tic-tac-toe, and in Connect Four those under which TD(λ)
// learned fastest and ttt-rl's rule did not diverge within an hour.
func sharedDefaults(g game.Game) learn.Settings {
	s := learn.Settings{
		LR:      nn.DefaultLR,
		Epsilon: learn.Schedule{Start: 0.1, End: 0, Games: 20000},
		Own:     map[string]float64{},
	}
	if g != tictactoe.Game {
		s.LR, s.LRDecay = 0.01, 1000000
		s.Epsilon = learn.Schedule{Start: 0.1, End: 0.1, Games: 20000}
	}
	return s
}

// policyDefaults are the policy learner's: the shared ones, a network of
// ttt-rl's size, sampling near greedy in tic-tac-toe.
func policyDefaults(g game.Game) learn.Settings {
	s := sharedDefaults(g)
	s.Own[Hidden.Name], s.Own[Temperature.Name] = nn.DefaultHidden, learn.DefaultTemperature
	if g != tictactoe.Game {
		s.Own[Temperature.Name] = 1
	}
	return s
}

// valueDefaults are the value learner's: the shared ones, a network of
// ttt-rl's size and TD-Gammon's λ.
func valueDefaults(g game.Game) learn.Settings {
	s := sharedDefaults(g)
	s.Own[Hidden.Name], s.Own[learn.Lambda.Name] = nn.DefaultHidden, learn.DefaultLambda
	return s
}

// explore returns s exploring at epsilon all along, where given says the
// user did not set the rate.
func explore(s learn.Settings, epsilon float64, given func(string) bool) learn.Settings {
	if !given("epsilon") {
		s.Epsilon.Start = epsilon
	}
	if !given("epsilon_end") {
		s.Epsilon.End = s.Epsilon.Start
	}
	return s
}

// tablesOnly says why a table of values learns tic-tac-toe alone.
func tablesOnly(g game.Game) error {
	if g == tictactoe.Game {
		return nil
	}
	return fmt.Errorf("a table of values cannot hold the positions of %s, which are far too many; it learns tic-tac-toe only", g.Title())
}

// decodeTable reads a stored table.
func decodeTable(g game.Game, stored []byte) (learn.Model, error) {
	if err := tablesOnly(g); err != nil {
		return nil, err
	}
	return table.Parse(stored)
}

// readTable reads a table file, a tic-tac-toe player: no reading for a
// file that is not one.
func readTable(g game.Game, data []byte) ([]learn.Reading, error) {
	switch {
	case !table.IsFile(data):
		return nil, nil
	case g != tictactoe.Game:
		return nil, &learn.OtherGameError{Kind: "a table of values", Game: tictactoe.Game.Name(), Want: g}
	}
	t, err := table.Parse(data)
	if err != nil {
		return nil, err
	}
	return []learn.Reading{{Model: t, Method: "table", What: fmt.Sprintf("a tic-tac-toe table of %d values", t.Len())}}, nil
}

// marshalNet encodes a network learner's state: its hidden units and
// outputs as little-endian uint32s, then its weights.
func marshalNet(net *nn.Net) []byte {
	buf := binary.LittleEndian.AppendUint32(nil, uint32(net.Hidden))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(net.Outputs))
	return append(buf, net.Bytes()...)
}

// unmarshalNet decodes what marshalNet encoded, a network of g.
func unmarshalNet(g game.Game, state []byte) (*nn.Net, error) {
	if len(state) < 8 {
		return nil, errors.New("truncated")
	}
	shape := nn.Shape{Inputs: g.Inputs(), Hidden: int(binary.LittleEndian.Uint32(state)), Outputs: int(binary.LittleEndian.Uint32(state[4:]))}
	return nn.Parse(g, state[8:], shape)
}

// Schedule implements learn.Learner: the rate.
func (l *Policy) Schedule(s learn.Settings, games int64) error {
	l.LR = float32(s.At(games).LR)
	return nil
}

// Model implements learn.Learner.
func (l *Policy) Model() learn.Model { return l.Net.Clone() }

// MarshalBinary implements learn.Learner.
func (l *Policy) MarshalBinary() ([]byte, error) { return marshalNet(l.Net), nil }

// Schedule implements learn.Learner: the rate.
func (l *TD) Schedule(s learn.Settings, games int64) error {
	l.LR = float32(s.At(games).LR)
	return nil
}

// Model implements learn.Learner.
func (l *TD) Model() learn.Model { return l.Net.Clone() }

// MarshalBinary implements learn.Learner.
func (l *TD) MarshalBinary() ([]byte, error) { return marshalNet(l.Net), nil }

// Schedule implements learn.Learner: nothing, the article's steps are
// 1/N.
func (l *Valued) Schedule(learn.Settings, int64) error { return nil }

// Model implements learn.Learner.
func (l *Valued) Model() learn.Model { return l.Table.Clone() }

// Schedule implements learn.Learner: the book's step size.
func (l *Book) Schedule(s learn.Settings, games int64) error {
	l.Step = s.At(games).LR
	return nil
}

// Model implements learn.Learner.
func (l *Book) Model() learn.Model { return l.Table.Clone() }
