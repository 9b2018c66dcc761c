// Package learn is the seam between the league and its methods of
// learning. A method (Method) is registered once, with everything the
// rest of ttt asks of it: its name, the games it can learn, its settings
// and their defaults for each game, how to start a learner and resume
// one, and how to read back the model it learns, from a league's store
// and from its plain file. Nothing above this package asks which method
// it has in hand.
//
// The words, one each: a method is a way of learning (policy, tdlambda,
// table, selfplay-table, ntuple); a learner is a method's model while it
// learns (Learner); a model is what a learner has learned, frozen, as a
// checkpoint keeps it (Model): a policy or value network, a table of
// values, an n-tuple network. A league's line is the learner of one
// method and the checkpoints it leaves, round after round.
package learn

import (
	"math/rand/v2"

	"ttt/agents/game"
)

// Method is a way of learning to play, and what ttt needs to know of it.
type Method struct {
	Name    string // as --learners, --method and a stored agent name it
	Summary string // what it is, for help texts: "ttt-rl's policy network and its reward rule"
	// Model says in a word or two what it learns: "policy network".
	Model string
	// SelfPlay: its document trains it against itself, which ttt train
	// does; the others train against a uniformly random opponent.
	SelfPlay bool
	// CanLearn says why the method cannot learn g, or returns nil.
	CanLearn func(g game.Game) error
	// Own are the settings of its own that the method reads ("hidden",
	// "tuples"), besides those of every method: the learning rate and
	// its decay, and exploration.
	Own []*Setting
	// Defaults returns the method's settings for g, its own among them:
	// those its document gives, or those ttt measured best. They are
	// findings about the method, so they live with it: tic-tac-toe's
	// where its document learned that game, and otherwise those measured
	// in Connect Four, which a game ttt has not measured the method in
	// starts from. Each call makes them anew, Own too: the caller may
	// change them. Check reports what the method refuses beyond the
	// ranges of its settings (Accepts checks those too); nil refuses
	// nothing more.
	Defaults func(g game.Game) Settings
	Check    func(s Settings) error
	// Tune returns s with the settings the method's document fixes in
	// place of those that given (a setting's name) does not report as
	// the user's own; nil keeps s. (The table learners explore at their
	// documents' rates, whatever a league's other lines do.)
	Tune func(s Settings, given func(name string) bool) Settings
	// New starts a learner of g as s says, drawing on rng; Resume goes on
	// with one that Learner.MarshalBinary wrote.
	New    func(g game.Game, s Settings, rng *rand.Rand) (Learner, error)
	Resume func(g game.Game, s Settings, state []byte, rng *rand.Rand) (Learner, error)
	// Decode reads a model of g back from what Model.Bytes stored.
	Decode func(g game.Game, stored []byte) (Model, error)
	// ReadFile reads data as a plain file of the method's model for g:
	// every reading it fits, none if it is not such a file, and an
	// error for one that is but cannot play, or is another game's
	// (*OtherGameError). Methods that learn the same kind of model
	// share one reader: nil for the others.
	ReadFile func(g game.Game, data []byte) ([]Reading, error)
	// MaxFile is the size of the largest file ReadFile reads for g: no
	// file that ttt reads is larger than the largest of them.
	MaxFile func(g game.Game) int64
	// Games returns the training games of a round of the method's line
	// as s says, where its games cost far more than other methods' (a
	// search a position), or 0 for the league's games per round; nil is
	// always 0.
	Games func(s Settings) int
	// Headerless: its model's plain file is bare numbers, without ttt's
	// header (ttt-rl's policy net), so only its size tells its inputs,
	// and a file's name says them (checkpoint-7-19in.bin).
	Headerless bool
}

// Names are the names of methods, in their order.
func Names(methods []*Method) []string {
	var out []string
	for _, m := range methods {
		out = append(out, m.Name)
	}
	return out
}

// Learner is a method's model while it learns from the games it plays.
// It is not safe for concurrent use.
type Learner interface {
	// Play plays one game as side against opp, exploring at rate
	// epsilon, and learns from it. A nil opp means the learner plays
	// itself, and both sides learn.
	Play(side game.Side, opp game.Player, epsilon float64) game.Result
	// Greedy returns the learner's move in p as a frozen snapshot of it
	// would play it.
	Greedy(p game.Position) int
	// Drill plays one game from start, where the learner is to move,
	// against opp, with a first move other than avoid, and learns what
	// that move is worth.
	Drill(start game.Position, avoid int, opp game.Player, epsilon float64) game.Result
	// Schedule sets what s says of the learner's training games from
	// games on, as a league calls it before each round: the learning
	// rate (a table learner's step size), which falls as a line ages
	// (Settings.At), and whatever else its method changes with age.
	Schedule(s Settings, games int64) error
	// Model returns a frozen copy of what it has learned: a checkpoint.
	Model() Model
	// MarshalBinary encodes all it keeps between games but its random
	// generator, which its owner keeps: Method.Resume reads it back.
	MarshalBinary() ([]byte, error)
}

// Parallel is a learner whose games can be played apart from its
// learning, by actors on every core: each actor plays on the learner's
// model as it stood at the last Sync, which its learning does not
// change, and the learner then learns from their episodes in an order
// its owner fixes. Its games are thus the same whatever the number of
// actors, and the learner may learn from one batch while actors play
// the next.
type Parallel interface {
	Learner
	// Actor returns an actor that draws its random moves from rng. An
	// actor is not safe for concurrent use: one per goroutine.
	Actor(rng *rand.Rand) Actor
	// Sync makes every actor play on the model as it is now. No actor
	// may be playing.
	Sync()
	// NewEpisode returns an episode for an actor to play into.
	NewEpisode() Episode
	// Learn learns from an episode an actor played. No actor may be
	// playing into it.
	Learn(e Episode)
}

// Taught is a learner that learns the values a teacher's search finds
// (expert iteration): before each of its rounds, its league gives it the
// model to search, or nil for its own.
type Taught interface {
	Learner
	Teach(m Model)
}

// Actor plays games for a Parallel learner without learning from them.
type Actor interface {
	// Play plays one game into e as side against opp (itself for nil),
	// exploring at rate epsilon, as Learner.Play would, and returns its
	// result.
	Play(e Episode, side game.Side, opp game.Player, epsilon float64) game.Result
}

// Episode is a game an actor played, as its learner learns from it.
type Episode interface {
	Result() game.Result
}

// AsParallel returns l as a Parallel learner, if its games can be
// played apart from its learning.
func AsParallel(l Learner) (Parallel, bool) {
	p, ok := l.(Parallel)
	return p, ok
}

// Model is what a learner has learned, frozen: the network or table a
// checkpoint keeps, which plays greedily. A model is read-only, so one
// serves any number of concurrent games, each through its own Player.
type Model interface {
	// Plays is the game it plays.
	Plays() game.Game
	// Player returns the model as a greedy player, with scratch space
	// of its own: one per goroutine.
	Player() game.Player
	// Explain returns the model's move in p, which must be in play, and
	// writes into views, by move, what it makes of each legal move, for
	// people to read: a policy net's probability, or what the position
	// after the move is worth to the side that plays it (Views says
	// which).
	Explain(p game.Position, views []float64) int
	// Views says what Explain's views are.
	Views() Views
	// Bytes is the model as a league stores it; Method.Decode reads it
	// back.
	Bytes() []byte
	// File is the model's plain file, which ReadFile reads back: ttt-rl's
	// layout for a policy net, a format of its own for the others.
	File() []byte
	// Describe says what the model is in a few words: "19-100-9 policy
	// network, 2,909 parameters".
	Describe() string
	// Size is the model's count of parameters or values.
	Size() int
	// Validate reports a model that cannot play: weights that are not
	// finite, or large enough to overflow a forward pass.
	Validate() error
	// Layout says what the model is made of, as listings and the API
	// show it.
	Layout() Layout
	// FileFor is the model's plain file for one side: a file that plays
	// side exactly as the model does, in a smaller or older layout
	// (ttt-rl's 18-input net plays one side); nil for a model that has
	// no file of one side.
	FileFor(side game.Side) []byte
	// Judge returns a function, with scratch space of its own (one per
	// goroutine), that writes into values, by move, what each legal move
	// of p is worth to the side to move: the expected score of the
	// position the move leaves (1 a win, 1/2 a tie, 0 a loss), exact
	// where the move ends the game. A search reads it at its leaves and
	// orders its moves by it. It returns nil for a model that judges no
	// positions (a policy network), which a search then judges by
	// playing the model's own game out.
	Judge() func(p game.Position, values []float32)
}

// Layout is what a model is made of: a network's inputs, hidden units
// and outputs, a table's entries; 0 for what it has none of. Sided: it
// has a file of each side (FileFor is not nil).
type Layout struct {
	Sided                   bool
	Inputs, Hidden, Outputs int
	// NoSideInput: a network whose side input weighs nothing, as a file
	// without it reads (ttt-rl's 18 inputs). It plays one side, and the
	// other as if it were that side.
	NoSideInput bool
	Entries     int
}

// Views are what a model makes of each move, as Explain gives them.
type Views int

// The kinds of views.
const (
	// Probabilities of a policy: the share of its play each move has.
	Probabilities Views = iota
	// Scores of the positions after each move, expected: 1 a win, 1/2 a
	// tie, 0 a loss.
	Scores
	// Values of the positions after each move, in the units of the
	// learner's rewards (the CodeProject article's win is 11).
	Values
)

// String returns the method's name.
func (m *Method) String() string { return m.Name }
