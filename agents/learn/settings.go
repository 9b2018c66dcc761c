package learn

import (
	"fmt"
	"math"
)

// Settings are how a learner learns: its method, the size of a new
// model, the learning rate (a table's step size), and how it explores.
// A method reads the settings that concern it (Method.Defaults gives
// them for each game) and leaves the others alone.
type Settings struct {
	Method      string
	Hidden      int // a network's hidden units
	LR          float64
	LRDecay     int // games over which the learning rate falls by 1/sqrt(2), and so on (0: it stays)
	Epsilon     Schedule
	Temperature float64 // a policy learner's
	Lambda      float64 // a TD(λ) learner's
	// An n-tuple network's: its tuples, their length in cells, and the
	// most random moves that a self-play game starts with.
	Tuples, TupleLength, RandomPlies int
}

// NoLearningMCTS says why MCTS is no method of learning, to a user who
// names it as one.
const NoLearningMCTS = "MCTS does not learn; every league has MCTS players at several strengths among its built-in players (mcts-10, mcts-100 and mcts-1000 in tic-tac-toe, mcts-100 to mcts-10000 in Connect Four)"

// Validate reports the first of the settings every method shares that is
// out of range; Method.Check reports a method's own.
func (s Settings) Validate() error {
	switch {
	case !(s.Lambda >= 0 && s.Lambda <= 1):
		return OutOfRange("lambda", "must be within 0..1", s.Lambda)
	case !(s.LR > 0 && s.LR <= 10):
		return OutOfRange("lr", "must be within (0, 10]", s.LR)
	case s.LRDecay < 0:
		return OutOfRange("lr_decay", "must not be negative", s.LRDecay)
	case !(s.Temperature > 0 && s.Temperature <= 100):
		return OutOfRange("temperature", "must be within (0, 100]", s.Temperature)
	}
	return s.Epsilon.Validate()
}

// At returns the settings for the learner's training game g (counted
// from 0): its learning rate falls as 1/sqrt(1 + g/LRDecay), the
// schedule under which stochastic updates average out their noise while
// still moving far enough to learn (the sum of the rates grows without
// bound, the sum of their squares more slowly).
func (s Settings) At(g int64) Settings {
	if s.LRDecay > 0 {
		s.LR /= math.Sqrt(1 + float64(g)/float64(s.LRDecay))
	}
	return s
}

// Exploration defaults. Sampling at the net's own temperature (1) makes
// it reinforce whatever random-looking move happened to win against a
// random opponent, and it never sharpens; a low temperature keeps
// sampling close to greedy while still breaking near-ties at random.
const (
	DefaultEpsilon     = 0.2
	DefaultTemperature = 0.01
)

// DefaultLambda is TD(λ)'s λ where no flag says otherwise: TD-Gammon's
// 0.7, which also learned fastest of 0, 0.7 and 1 in our Connect Four
// runs.
const DefaultLambda = 0.7

// Schedule is how the exploration rate epsilon decays: linearly from Start
// to End over the first Games training games, then End for good. Early
// games explore widely, so that the net meets positions its own policy
// would never reach; late games follow the net's own probabilities.
type Schedule struct {
	Start, End float64
	Games      int
}

// At returns epsilon for training game g (counted from 0).
func (s Schedule) At(g int) float64 {
	if g >= s.Games {
		return s.End
	}
	return s.Start + (s.End-s.Start)*float64(g)/float64(s.Games)
}

// Validate reports a schedule that is not a schedule. The ranges are
// written as !(in range): NaN, which a league's stored settings may
// hold, fails every comparison, so only that form refuses it.
func (s Schedule) Validate() error {
	switch {
	case !(s.Start >= 0 && s.Start <= 1 && s.End >= 0 && s.End <= 1):
		return Invalid([]string{"epsilon", "epsilon_end"}, func(n []string) string {
			return fmt.Sprintf("%s and %s must be within 0..1 (got %g and %g)", n[0], n[1], s.Start, s.End)
		})
	case s.Games < 0:
		return OutOfRange("epsilon_games", "must not be negative", s.Games)
	}
	return nil
}
