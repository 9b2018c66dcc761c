package train

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"ttt/agents/nn"
)

// Learning is how a learner learns: its method, a network's size when
// new, the learning rate (the step size of Sutton and Barto's table), and
// how it explores.
type Learning struct {
	Method      string // one of Methods
	Hidden      int
	LR          float64
	LRDecay     int // games over which the learning rate falls by 1/sqrt(2), and so on (0: it stays)
	Epsilon     Schedule
	Temperature float64 // a policy learner's
	Lambda      float64 // a TD(λ) learner's
}

// NoLearningMCTS says why MCTS is no method of learning, to a user who
// names it as one.
const NoLearningMCTS = "MCTS does not learn; every league has MCTS players at several strengths among its built-in players (mcts-10, mcts-100 and mcts-1000 in tic-tac-toe, mcts-100 to mcts-10000 in Connect Four)"

// Validate reports the first setting that is out of range.
func (l Learning) Validate() error {
	switch {
	case l.Method == "mcts":
		return Invalid([]string{"learner"}, func(n []string) string { return n[0] + " mcts: " + NoLearningMCTS })
	case !slices.Contains(Methods, l.Method):
		return OutOfRange("learner", "must be one of "+strings.Join(Methods, ", "), fmt.Sprintf("%q", l.Method))
	case !(l.Lambda >= 0 && l.Lambda <= 1):
		return OutOfRange("lambda", "must be within 0..1", l.Lambda)
	case l.Hidden < 1 || l.Hidden > nn.MaxHidden:
		return OutOfRange("hidden", fmt.Sprintf("must be within 1..%d", nn.MaxHidden), l.Hidden)
	case !(l.LR > 0 && l.LR <= 10):
		return OutOfRange("lr", "must be within (0, 10]", l.LR)
	case l.Method == MethodSelfPlayTable && l.LR > 1:
		// A step past the target overshoots it: the value swings.
		return Invalid([]string{"lr"}, func(n []string) string {
			return fmt.Sprintf("%s, the %s learner's step size, must be within (0, 1] (got %g)", n[0], l.Method, l.LR)
		})
	case l.LRDecay < 0:
		return OutOfRange("lr_decay", "must not be negative", l.LRDecay)
	case !(l.Temperature > 0 && l.Temperature <= 100):
		return OutOfRange("temperature", "must be within (0, 100]", l.Temperature)
	}
	return l.Epsilon.Validate()
}

// ForMethod returns l with the settings of its method's document where
// given (a flag's name) says the command line did not set them: the
// table learners explore at a constant rate, the article's or the
// book's, and the book's steps are 0.1.
func (l Learning) ForMethod(given func(name string) bool) Learning {
	var epsilon float64
	switch l.Method {
	case MethodTable:
		epsilon = ArticleEpsilon
	case MethodSelfPlayTable:
		epsilon = BookEpsilon
		if !given("lr") {
			l.LR = BookStep
		}
	default:
		return l
	}
	if !given("epsilon") {
		l.Epsilon.Start = epsilon
	}
	if !given("epsilon_end") {
		l.Epsilon.End = l.Epsilon.Start
	}
	return l
}

// At returns the learning for the learner's training game g (counted
// from 0): its learning rate falls as 1/sqrt(1 + g/LRDecay), the
// schedule under which stochastic updates average out their noise while
// still moving far enough to learn (the sum of the rates grows without
// bound, the sum of their squares more slowly).
func (l Learning) At(g int64) Learning {
	if l.LRDecay > 0 {
		l.LR /= math.Sqrt(1 + float64(g)/float64(l.LRDecay))
	}
	return l
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
