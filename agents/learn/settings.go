package learn

import (
	"fmt"
	"math"
	"strconv"

	"ttt/agents/game"
)

// Settings are how a learner learns: its method, the learning rate (a
// table's step size) and its decay, how it explores, and the values of
// the settings of the method's own (Method.Own: a network's hidden units,
// TD(λ)'s λ, an n-tuple network's tuples), by name.
type Settings struct {
	Method  string
	LR      float64
	LRDecay int // games over which the learning rate falls by 1/sqrt(2), and so on (0: it stays)
	Epsilon Schedule
	Own     map[string]float64
}

// Int is the value of the setting called name, a whole number.
func (s Settings) Int(name string) int { return int(s.Own[name]) }

// Float is the value of the setting called name.
func (s Settings) Float(name string) float64 { return s.Own[name] }

// With returns s with the setting called name set to v; s's own
// settings are not changed.
func (s Settings) With(name string, v float64) Settings {
	own := make(map[string]float64, len(s.Own)+1)
	for k, x := range s.Own {
		own[k] = x
	}
	own[name] = v
	s.Own = own
	return s
}

// Setting is a setting that only some methods read, declared once and
// listed by each method that reads it (Method.Own): the league stores it
// under its Name, the command line takes it as --Name (with dashes for
// underscores), and Validate checks it against its range.
type Setting struct {
	Name  string
	Usage string
	Whole bool // a whole number
	// In reports whether a value is in range; Range says the range, as
	// an error says it: "within 1..4096".
	In    func(v float64) bool
	Range string
	// Made, for a setting that makes a learner's model (its size), says
	// what a resumed league's learner was made with, around %s: "this
	// league's learner has %s hidden units". A resumed league keeps it.
	Made string
}

// Text writes v as the setting's value is stored and typed.
func (st *Setting) Text(v float64) string {
	if st.Whole {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Parse reads a value of the setting as Text writes it.
func (st *Setting) Parse(text string) (float64, error) {
	if st.Whole {
		n, err := strconv.ParseInt(text, 10, 64)
		return float64(n), err
	}
	return strconv.ParseFloat(text, 64)
}

// Lambda is TD(λ)'s λ, which the value network and the n-tuple network
// read.
var Lambda = &Setting{Name: "lambda", Usage: "λ of TD(λ): 0 learns from the next position only, 1 from the result only",
	In: func(v float64) bool { return v >= 0 && v <= 1 }, Range: "within 0..1"}

// RandomPlies is the most random moves a self-play training game starts
// with, a number drawn uniformly up to it: positions that greedy
// self-play would never show the learner.
var RandomPlies = &Setting{Name: "random_plies", Usage: "the most random moves a self-play training game starts with", Whole: true,
	In: func(v float64) bool { return v >= 0 && v <= 40 }, Range: "within 0..40"}

// NoLearningMCTS says why MCTS is no method of learning, to a user who
// names it as one.
const NoLearningMCTS = "MCTS does not learn; every league has MCTS players at several strengths among its built-in players (mcts-10, mcts-100 and mcts-1000 in tic-tac-toe, mcts-100 to mcts-10000 in Connect Four)"

// Validate reports the first setting out of range: of those every
// method shares, then of own, the method's own, each of which s must
// hold. Method.Check reports what else a method refuses.
func (s Settings) Validate(own []*Setting) error {
	switch {
	case !(s.LR > 0 && s.LR <= 10):
		return OutOfRange("lr", "must be within (0, 10]", s.LR)
	case s.LRDecay < 0:
		return OutOfRange("lr_decay", "must not be negative", s.LRDecay)
	}
	if err := s.Epsilon.Validate(); err != nil {
		return err
	}
	for _, st := range own {
		v, ok := s.Own[st.Name]
		if !ok {
			return fmt.Errorf("the %s method's setting %s is missing", s.Method, st.Name)
		}
		// !In, so that NaN, which fails every comparison, is refused.
		if !st.In(v) || st.Whole && v != math.Trunc(v) {
			return OutOfRange(st.Name, "must be "+st.Range, st.Text(v))
		}
	}
	return nil
}

// Accepts reports why m cannot learn g as s says: a game it cannot
// learn, said of the setting that names m; a setting of its own out of
// range; or what Check refuses.
func (m *Method) Accepts(g game.Game, s Settings, setting string) error {
	if m.CanLearn != nil {
		if err := m.CanLearn(g); err != nil {
			return Invalid([]string{setting}, func(n []string) string { return fmt.Sprintf("%s %s: %v", n[0], m.Name, err) })
		}
	}
	if err := s.Validate(m.Own); err != nil {
		return err
	}
	if m.Check != nil {
		return m.Check(s)
	}
	return nil
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

// DefaultLambda is the value network's λ where no flag says otherwise:
// TD-Gammon's 0.7.
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
