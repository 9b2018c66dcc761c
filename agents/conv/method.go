package conv

import (
	"fmt"
	"math/rand/v2"

	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/learn"
)

// Method is the convolutional value network learning by expert
// iteration, as learn registers it.
var Method = &learn.Method{
	Name: "conv", Model: "convolutional value network", SelfPlay: true,
	Summary: "a convolutional value network that learns the values its teacher's alpha-beta search finds (expert iteration): the league's other network at first, its own search once it plays better",
	Own:     []*learn.Setting{Layers, Channels, Hidden, expert.TeacherDepth, expert.Buffer, RoundGames, learn.RandomPlies},
	Games:   func(s learn.Settings) int { return s.Int(RoundGames.Name) },
	CanLearn: func(g game.Game) error {
		if b := g.Board(); b.Width < 1 || b.Cells%b.Width != 0 || g.Moves() > 64 {
			return fmt.Errorf("%s's board is not a grid of cells", g.Title())
		}
		return nil
	},
	Defaults: defaults,
	New: func(g game.Game, s learn.Settings, rng *rand.Rand) (learn.Learner, error) {
		net, err := New(g, shapeOf(s), rng)
		if err != nil {
			return nil, err
		}
		return expert.New(net, s, rng), nil
	},
	Resume: func(g game.Game, s learn.Settings, state []byte, rng *rand.Rand) (learn.Learner, error) {
		return expert.Resume(state, func(b []byte) (expert.Net, error) { return decodeNet(g, b) }, s, rng)
	},
	Decode:   decode,
	ReadFile: ReadFile,
	MaxFile:  maxFile,
}

// The convolutional learner's own settings.
var (
	Layers = &learn.Setting{Name: "conv_layers", Usage: "3×3 convolutions of a new convolutional network (0: none, its dense layer reads the cells)", Whole: true,
		In: func(v float64) bool { return v >= 0 && v <= float64(limits.Layers) }, Range: fmt.Sprintf("within 0..%d", limits.Layers),
		Made: "this league's convolutional network has %s layers"}
	Channels = &learn.Setting{Name: "channels", Usage: "filters of each convolution of a new convolutional network", Whole: true,
		In: func(v float64) bool { return v >= 1 && v <= float64(limits.Channels) }, Range: fmt.Sprintf("within 1..%d", limits.Channels),
		Made: "this league's convolutional network has %s filters a layer"}
	Hidden = &learn.Setting{Name: "conv_hidden", Usage: "units of a new convolutional network's dense layer", Whole: true,
		In: func(v float64) bool { return v >= 1 && v <= float64(limits.Hidden) }, Range: fmt.Sprintf("within 1..%d", limits.Hidden),
		Made: "this league's convolutional network has %s dense units"}
	RoundGames = &learn.Setting{Name: "conv_games", Usage: "training games of a round of the convolutional line, which labels every position of a game by a search (0: --games-per-round)", Whole: true,
		In: func(v float64) bool { return v >= 0 && v <= 1e9 }, Range: "within 0..1e9"}
)

// shapeOf is the shape of a new network as s says.
func shapeOf(s learn.Settings) Shape {
	shape := DefaultShape
	shape.Layers, shape.Channels, shape.Hidden = s.Int(Layers.Name), s.Int(Channels.Name), s.Int(Hidden.Name)
	return shape
}

// defaults are the learner's settings for g (BENCHMARKS.md, "A network
// that learns what the search knows"). A round of it plays 20,000
// games in Connect Four: each position of each game costs a search to
// label and a few steps of the network to learn, where a game of the
// n-tuple line costs a look at each move.
func defaults(g game.Game) learn.Settings {
	games := 20_000
	if g.MaxPlies() <= 9 {
		games = 2_000
	}
	return learn.Settings{
		LR:      0.001,
		Epsilon: learn.Schedule{Start: 0.1, End: 0.1},
		Own: map[string]float64{Layers.Name: float64(DefaultShape.Layers), Channels.Name: float64(DefaultShape.Channels), Hidden.Name: float64(DefaultShape.Hidden),
			expert.TeacherDepth.Name: 4, expert.Buffer.Name: 500_000, RoundGames.Name: float64(games), learn.RandomPlies.Name: 16},
	}
}
