package league

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
)

// Config is how a league runs.
type Config struct {
	Rounds        int           // rounds to play in this run; 0 for no limit
	Duration      time.Duration // start no round after this long; 0 for no limit
	GamesPerRound int           // training games per round
	Workers       int           // concurrent evaluation goroutines; 0 for every core
	Seed          uint64        // seeds a new learner and every round's random games
	Openings      int           // evaluation plays every opening of this many moves, in both colours
	Opponents     int           // the size of a new member's pool of opponents
	SelfPlay      float64       // share of training games the learner plays against itself
	Exploit       float64       // share of training games against the learner's exploiter
	Members       float64       // share of training games against the league's frozen nets
	Drill         float64       // share of training games that start where the learner throws a result away
	Ladder        float64       // share of training games against the game's built-in players but random
	// Search are the searches the league's best is rated with, each as
	// a player of its own (best@ab4), beside the network alone: a
	// setting of the run, like Workers, which the league does not keep.
	Search []search.Spec
	// Learners are the methods that learn in the league (agents.Methods),
	// each on a line of its own: the lines train in turn, a round each,
	// and every snapshot joins the one rating list.
	Learners []string
	// Settings are how every line learns (see settings); its epsilon
	// schedule runs over a line's whole life, not per round.
	learn.Settings
	// LRByMethod are the learning rates of the lines that do not learn
	// at Settings.LR: methods differ in the rates they stand (ttt-rl's
	// rule diverges in Connect Four at the value net's).
	LRByMethod map[string]float64
}

// settings returns how the line of method m learns g: as c.Settings
// says, at its own learning rate if it has one, and where the method's
// document fixes a setting, as it does (learn.Method.Tune); a line's own
// rate is the only setting of its own. A setting of the method's own
// that c lacks is the method's default for g.
func (c Config) settings(g game.Game, m *learn.Method) learn.Settings {
	s := c.Settings
	s.Method = m.Name
	lr, own := c.LRByMethod[m.Name]
	if own {
		s.LR = lr // selfplay-table's step size too, in place of its book's
	}
	if m.Tune != nil {
		s = m.Tune(s, func(name string) bool { return name == "lr" && own })
	}
	d := m.Defaults(g)
	for _, st := range m.Own {
		if _, ok := s.Own[st.Name]; !ok {
			s = s.With(st.Name, d.Own[st.Name])
		}
	}
	return s
}

// ParseLR reads a league's learning rates as the setting lr holds them:
// the rate of every line, then METHOD=RATE for each line of its own
// ("0.01,policy=0.001"). The rates' ranges are Validate's.
func ParseLR(s string) (lr float64, byMethod map[string]float64, err error) {
	seen := false
	for i, item := range strings.Split(s, ",") {
		method, value, own := strings.Cut(item, "=")
		if !own {
			value = method
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		switch {
		case (err != nil || math.IsNaN(v) || math.IsInf(v, 0)) && item == s:
			return 0, nil, errors.New("not a number")
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return 0, nil, fmt.Errorf("%q is not a number", value)
		case !own && i > 0:
			return 0, nil, errors.New("the rate of every line comes first, the rates of methods after it (METHOD=RATE)")
		case !own:
			lr, seen = v, true
		case byMethod[method] != 0:
			return 0, nil, fmt.Errorf("%s has two rates", method)
		default:
			if byMethod == nil {
				byMethod = map[string]float64{}
			}
			byMethod[method] = v
		}
	}
	if !seen {
		return 0, nil, errors.New("the rate of every line comes first (RATE[,METHOD=RATE...])")
	}
	return lr, byMethod, nil
}

// lrText writes the learning rates as ParseLR reads them, the methods'
// in the order of their names.
func (c Config) lrText() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := f(c.LR)
	for _, m := range slices.Sorted(maps.Keys(c.LRByMethod)) {
		out += "," + m + "=" + f(c.LRByMethod[m])
	}
	return out
}

// Default returns the settings of `ttt league run` for kit's game where
// no flag says otherwise: the game's rounds, pools and mix of opponents
// (agents.LeagueDefaults), and how its default method learns it.
//
// Tic-tac-toe's default is ttt-rl's policy net, made perfect by the
// exploiter and drills; Connect Four's is the n-tuple network learning
// by TD(λ) in self-play, the method that learns it best (docs/learning.md,
// "The n-tuple network").
func Default(kit *agents.Kit) Config {
	d := kit.League
	return Config{
		GamesPerRound: d.GamesPerRound,
		Seed:          1,
		Openings:      d.Openings,
		Opponents:     d.Opponents,
		SelfPlay:      d.SelfPlay,
		Exploit:       d.Exploit,
		Drill:         d.Drill,
		Learners:      []string{kit.Learner.Name},
		Settings:      kit.Learner.Defaults(kit.Game),
	}
}

// MaxGamesPerRound bounds a round's training games: a billion take hours.
// A league's stored setting beyond it (an edited file) would start a
// round that never ends.
const MaxGamesPerRound = 1_000_000_000

// Validate reports the first setting out of range.
func (c Config) Validate() error {
	switch {
	case c.Rounds < 0:
		return learn.OutOfRange("rounds", "must not be negative", c.Rounds)
	case c.Duration < 0:
		return learn.OutOfRange("duration", "must not be negative", c.Duration)
	case c.Workers < 0:
		return learn.OutOfRange("workers", "must not be negative", fmt.Sprintf("%d; 0 is one per core", c.Workers))
	}
	for _, st := range Settings {
		if rule, got := st.out(&c); rule != "" {
			return learn.OutOfRange(st.Name, rule, got)
		}
	}
	switch {
	case c.SelfPlay+c.Exploit+c.Members+c.Drill+c.Ladder > 1:
		shares := []string{"self_play", "exploit", "members", "drill", "ladder"}
		values := []any{c.SelfPlay, c.Exploit, c.Members, c.Drill, c.Ladder}
		if c.Ladder == 0 { // the other games' shares, as most leagues have them
			shares, values = shares[:4], values[:4]
		}
		sum := fmt.Sprintf(strings.TrimSuffix(strings.Repeat("%g + ", len(values)), " + "), values...)
		return learn.Invalid(shares, func(n []string) string {
			return fmt.Sprintf("the shares %s and %s add up to more than 1 (%s)", strings.Join(n[:len(n)-1], ", "), n[len(n)-1], sum)
		})
	case len(c.Learners) == 0:
		return learn.OutOfRange("learners", "must name at least one method", `""`)
	}
	for i, name := range c.Learners {
		_, err := agents.MethodOf(name)
		switch {
		case name == "mcts":
			return learn.Invalid([]string{"learners"}, func(n []string) string {
				return n[0] + " mcts: " + learn.NoLearningMCTS
			})
		case slices.Contains(c.Learners[:i], name):
			return learn.Invalid([]string{"learners"}, func(n []string) string {
				return fmt.Sprintf("%s %s: %s is named twice (a league has one line of each method)", n[0], strings.Join(c.Learners, ","), name)
			})
		case err != nil:
			return learn.OutOfRange("learners", "must be methods among "+strings.Join(agents.MethodNames(), ", "), fmt.Sprintf("%q", name))
		}
	}
	if err := c.Settings.Validate(nil); err != nil {
		return err
	}
	for _, m := range slices.Sorted(maps.Keys(c.LRByMethod)) {
		if !slices.Contains(c.Learners, m) {
			return learn.Invalid([]string{"lr", "learners"}, func(n []string) string {
				return fmt.Sprintf("%s %s: %s is not among the %s (%s)", n[0], c.lrText(), m, n[1], strings.Join(c.Learners, ","))
			})
		}
	}
	return nil
}
