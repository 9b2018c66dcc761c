package league

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Setting is one of the settings a league keeps: its name, as the league
// stores it and as ttt league run's flag spells it (with - for _); what
// it sets, as the flag's help says it; its range; and where Config
// holds it. The flags, the stored keys, the checks of the ranges and the
// printed settings all read Settings, so that a setting is written once.
// The settings of a run (rounds, duration, workers, searches) are not
// the league's and are not here; a method's own (a network's size, an
// n-tuple network's tuples) are its learn.Settings, which the league
// stores beside these.
type Setting struct {
	Name  string
	Usage string
	// Alias is the flag's other name, if it has one.
	Alias string
	// Min and Max bound a number, both included. Settings whose range
	// package learn checks (the learning rate, exploration) have
	// neither.
	Min, Max float64
	Unit     string // of the range, as an error says it: "within 0..2 moves"
	// Learner: ttt train takes the setting too, with defaults of its
	// own; its flag is made with the learner's flags.
	Learner bool
	// at is where c holds the setting: an *int, *uint64 or *float64, or
	// a text with its own reading (the learners, the learning rates).
	at func(c *Config) any
}

// text is a setting held in a form of its own, read and written as text.
type text struct {
	get func() string
	set func(string) error
}

// Settings are the league's settings, in the order of ttt league run's
// help.
var Settings = []Setting{
	{Name: "games_per_round", Usage: "training games per round", Min: 1, Max: MaxGamesPerRound,
		at: func(c *Config) any { return &c.GamesPerRound }},
	{Name: "learners", Alias: "learner", Usage: "the methods that learn in the league, each on a line of its own, taking turns a round each, `METHOD,...`",
		at: func(c *Config) any {
			return text{get: func() string { return strings.Join(c.Learners, ",") },
				set: func(s string) error { c.Learners = strings.Split(s, ","); return nil }}
		}},
	{Name: "lr", Usage: "learning rate of every line, and METHOD=RATE for a line of its own: `RATE[,METHOD=RATE...]`, e.g. 0.01,policy=0.001",
		at: func(c *Config) any {
			return text{get: c.lrText, set: func(s string) (err error) {
				c.LR, c.LRByMethod, err = ParseLR(s)
				return err
			}}
		}},
	{Name: "lr_decay", Usage: "training games over which the learning rate falls to 1/sqrt(2) of --lr, to 1/sqrt(3) over twice as many, and so on (0: it stays)",
		at: func(c *Config) any { return &c.LRDecay }},
	{Name: "openings", Usage: fmt.Sprintf("evaluate over every opening of this many moves (0-%d), in both colours", MaxOpening), Max: MaxOpening, Unit: "moves",
		at: func(c *Config) any { return &c.Openings }},
	{Name: "opponents", Usage: "the members a new snapshot plays", Min: minOpponents, Max: maxOpponents,
		at: func(c *Config) any { return &c.Opponents }},
	{Name: "self_play", Usage: "share of training games against itself", Max: 1,
		at: func(c *Config) any { return &c.SelfPlay }},
	{Name: "exploit", Usage: "share of training games against its exploiter (random play that finds every line beating it)", Max: 1,
		at: func(c *Config) any { return &c.Exploit }},
	{Name: "members", Usage: "share of training games against the league's frozen nets, the ones it does not beat first", Max: 1,
		at: func(c *Config) any { return &c.Members }},
	{Name: "drill", Usage: "share of training games from positions where it throws a result away, trying other moves there against perfect play", Max: 1,
		at: func(c *Config) any { return &c.Drill }},
	{Name: "ladder", Usage: "share of training games against the game's fixed built-in players but random (Connect Four: the tactician); the rest are against random", Max: 1,
		at: func(c *Config) any { return &c.Ladder }},
	{Name: "seed", Usage: "random seed: the same seed and flags give the same results", Learner: true,
		at: func(c *Config) any { return &c.Seed }},
	{Name: "epsilon", Usage: "exploration rate at the start: the chance of a uniformly random move", Learner: true,
		at: func(c *Config) any { return &c.Epsilon.Start }},
	{Name: "epsilon_end", Usage: "exploration rate after the decay", Learner: true,
		at: func(c *Config) any { return &c.Epsilon.End }},
	{Name: "epsilon_games", Usage: "training games over which epsilon decays linearly", Learner: true,
		at: func(c *Config) any { return &c.Epsilon.Games }},
}

// SettingOf returns the league's setting called name, or false.
func SettingOf(name string) (Setting, bool) {
	for _, s := range Settings {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// Value is the setting's value in c: an int, uint64 or float64, or nil
// for a setting held as text (Get writes every setting).
func (s Setting) Value(c Config) any {
	switch v := s.at(&c).(type) {
	case *int:
		return *v
	case *uint64:
		return *v
	case *float64:
		return *v
	}
	return nil
}

// Get writes the setting of c as the league stores it.
func (s Setting) Get(c *Config) string {
	switch v := s.at(c).(type) {
	case *int:
		return strconv.Itoa(*v)
	case *uint64:
		return strconv.FormatUint(*v, 10)
	case *float64:
		return strconv.FormatFloat(*v, 'g', -1, 64)
	case text:
		return v.get()
	}
	panic("league: setting " + s.Name + " held in no known form")
}

// Set sets the setting of c from value, as Get writes it, or says why
// value is not one. It does not check the range (Validate does).
func (s Setting) Set(c *Config, value string) error {
	switch v := s.at(c).(type) {
	case *int:
		n, err := strconv.ParseInt(value, 10, 0)
		if err != nil {
			return errors.New("not a whole number")
		}
		*v = int(n)
	case *uint64:
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return errors.New("not a whole number from 0 to 18446744073709551615")
		}
		*v = n
	case *float64:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return errors.New("not a number")
		}
		*v = f
	case text:
		return v.set(value)
	}
	return nil
}

// out reports the setting's value in c outside its range, as the rule
// it breaks ("must be within 0..1") and the value, or "" when it is in
// range or the setting has no range of its own.
func (s Setting) out(c *Config) (rule string, got any) {
	switch p := s.at(c).(type) {
	case *int:
		return s.Rule(float64(*p)), *p
	case *float64:
		return s.Rule(*p), *p
	}
	return "", nil
}

// Rule is the rule of the setting's range that v breaks ("must be
// within 0..1"), or "" when v is in range or the setting has no range of
// its own.
func (s Setting) Rule(v float64) string {
	if s.Min == 0 && s.Max == 0 {
		return ""
	}
	big := s.Max >= 1e6 // a bound that only a mistake reaches
	switch {
	case math.IsNaN(v) || !big && (v < s.Min || v > s.Max):
		return strings.TrimSpace(fmt.Sprintf("must be within %g..%g %s", s.Min, s.Max, s.Unit))
	case v < s.Min:
		return fmt.Sprintf("must be at least %g", s.Min)
	case v > s.Max:
		return fmt.Sprintf("must be at most %d", int64(s.Max))
	}
	return ""
}
