package lines

import (
	"fmt"
	"math/rand/v2"

	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/learn"
)

// Method is the lines network learning by expert iteration, as learn
// registers it.
var Method = &learn.Method{
	Name: "lines", Model: "lines network", SelfPlay: true,
	Summary: "a value network over the board's winning lines that learns the values its teacher's alpha-beta search finds (expert iteration): the league's other network at first, its own search once it plays better",
	Own:     []*learn.Setting{Features, Hidden, expert.TeacherDepth, expert.Buffer, RoundGames, learn.RandomPlies},
	Games:   func(s learn.Settings) int { return s.Int(RoundGames.Name) },
	CanLearn: func(g game.Game) error {
		_, err := alloc(g, Shape{Features: 1, Hidden: 1})
		return err
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

// The lines learner's own settings.
var (
	Features = &learn.Setting{Name: "line_features", Usage: "features of each line's vectors in a new lines network", Whole: true,
		In: func(v float64) bool { return v >= 1 && v <= float64(limits.Features) }, Range: fmt.Sprintf("within 1..%d", limits.Features),
		Made: "this league's lines network has %s features"}
	Hidden = &learn.Setting{Name: "lines_hidden", Usage: "units of a new lines network's dense layer", Whole: true,
		In: func(v float64) bool { return v >= 1 && v <= float64(limits.Hidden) }, Range: fmt.Sprintf("within 1..%d", limits.Hidden),
		Made: "this league's lines network has %s dense units"}
	RoundGames = &learn.Setting{Name: "lines_games", Usage: "training games of a round of the lines network's line, which labels every position of a game by a search (0: --games-per-round)", Whole: true,
		In: func(v float64) bool { return v >= 0 && v <= 1e9 }, Range: "within 0..1e9"}
)

// shapeOf is the shape of a new network as s says.
func shapeOf(s learn.Settings) Shape {
	return Shape{Features: s.Int(Features.Name), Hidden: s.Int(Hidden.Name)}
}

// defaults are the learner's settings for g (BENCHMARKS.md, "A network
// that learns what the search knows"). A round plays 20,000 games in
// Connect Four, as the convolutional line's: the searches that label
// its positions are most of its cost.
func defaults(g game.Game) learn.Settings {
	games := 20_000
	if g.MaxPlies() <= 9 {
		games = 2_000
	}
	return learn.Settings{
		LR:      0.003,
		Epsilon: learn.Schedule{Start: 0.1, End: 0.1},
		Own: map[string]float64{Features.Name: float64(DefaultShape.Features), Hidden.Name: float64(DefaultShape.Hidden),
			expert.TeacherDepth.Name: 4, expert.Buffer.Name: 500_000, RoundGames.Name: float64(games), learn.RandomPlies.Name: 16},
	}
}
