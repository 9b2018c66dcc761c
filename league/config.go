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
	// LadderInterval is the widest a new best's ladder interval may be,
	// either side of its rating, before it stops playing extra games
	// against the built-in players (0: LadderHalf). The games it takes
	// grow as the square of the narrowing, so a wider one makes a quick
	// league's rounds much shorter: another setting of the run.
	LadderInterval float64
	// Learners are the methods that learn in the league (agents.Methods),
	// each on a line of its own: the lines train in turn, a round each,
	// and every snapshot joins the one rating list. The setting's text
	// names them, and is read into the methods once.
	Learners []*learn.Method
	// Settings are how every line learns (see settings); its epsilon
	// schedule runs over a line's whole life, not per round.
	learn.Settings
	// LRByMethod are the learning rates of the lines that do not learn
	// at Settings.LR: methods differ in the rates they stand (ttt-rl's
	// rule diverges in Connect Four at the value net's).
	LRByMethod map[string]float64
}

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

// text is a setting held in a form of its own, read and written as text,
// and taken as it is from another Config (from).
type text struct {
	get  func() string
	set  func(string) error
	from func(src *Config)
}

// Settings are the league's settings, in the order of ttt league run's
// help.
var Settings = []Setting{
	{Name: "games_per_round", Usage: "training games per round", Min: 1, Max: MaxGamesPerRound,
		at: func(c *Config) any { return &c.GamesPerRound }},
	{Name: "learners", Alias: "learner", Usage: "the methods that learn in the league, each on a line of its own, taking turns a round each, `METHOD,...`",
		at: func(c *Config) any {
			return text{get: func() string { return strings.Join(learn.Names(c.Learners), ",") },
				set: func(s string) (err error) {
					c.Learners, err = methodsOf(s)
					return err
				},
				from: func(src *Config) { c.Learners = src.Learners }}
		}},
	{Name: "lr", Usage: "learning rate of every line, and METHOD=RATE for a line of its own: `RATE[,METHOD=RATE...]`, e.g. 0.01,policy=0.001",
		at: func(c *Config) any {
			return text{get: c.lrText, set: func(s string) (err error) {
				c.LR, c.LRByMethod, err = ParseLR(s)
				return err
			}, from: func(src *Config) { c.LR, c.LRByMethod = src.LR, src.LRByMethod }}
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

// Put sets the setting of c to v, the value of its flag (see Value): an
// int, uint64 or float64 as c holds it, or the text of a setting held
// in a form of its own, which it reads as Set does.
func (s Setting) Put(c *Config, v any) error {
	switch p := s.at(c).(type) {
	case *int:
		*p = v.(int)
	case *uint64:
		*p = v.(uint64)
	case *float64:
		*p = v.(float64)
	case text:
		return p.set(v.(string))
	}
	return nil
}

// copy sets the setting of c to its value in src.
func (s Setting) copy(c, src *Config) {
	switch p := s.at(c).(type) {
	case *int:
		*p = *s.at(src).(*int)
	case *uint64:
		*p = *s.at(src).(*uint64)
	case *float64:
		*p = *s.at(src).(*float64)
	case text:
		p.from(src)
	}
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
	// c's values over the method's defaults, in the map Defaults makes
	// anew, which becomes the line's own.
	d := m.Defaults(g)
	maps.Copy(d.Own, s.Own)
	s.Own = d.Own
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

// methodsOf reads the setting learners, the names of methods
// (agents.Methods) with commas between them. It refuses a name that is
// no method, and one named twice: a league has one line of each.
func methodsOf(text string) ([]*learn.Method, error) {
	var methods []*learn.Method
	for _, name := range strings.Split(text, ",") {
		m, err := agents.MethodOf(name)
		switch {
		case name == "mcts":
			return nil, learn.Invalid([]string{"learners"}, func(n []string) string {
				return n[0] + " mcts: " + learn.NoLearningMCTS
			})
		case err != nil:
			return nil, learn.OutOfRange("learners", "must be methods among "+strings.Join(agents.MethodNames(), ", "), fmt.Sprintf("%q", name))
		case slices.Contains(methods, m):
			return nil, learn.Invalid([]string{"learners"}, func(n []string) string {
				return fmt.Sprintf("%s %s: %s is named twice (a league has one line of each method)", n[0], text, name)
			})
		}
		methods = append(methods, m)
	}
	return methods, nil
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
		Learners:      []*learn.Method{kit.Learner},
		Settings:      kit.Learner.Defaults(kit.Game),
	}
}

// ladderHalf is the widest the run lets a new best's ladder interval be,
// either side.
func (c Config) ladderHalf() float64 {
	if c.LadderInterval > 0 {
		return c.LadderInterval
	}
	return LadderHalf
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
	case c.LadderInterval < 0 || math.IsNaN(c.LadderInterval):
		return learn.OutOfRange("ladder-interval", "must not be negative", c.LadderInterval)
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
	if err := c.Settings.Validate(nil); err != nil {
		return err
	}
	for _, m := range slices.Sorted(maps.Keys(c.LRByMethod)) {
		if !slices.Contains(learn.Names(c.Learners), m) {
			return learn.Invalid([]string{"lr", "learners"}, func(n []string) string {
				return fmt.Sprintf("%s %s: %s is not among the %s (%s)", n[0], c.lrText(), m, n[1], strings.Join(learn.Names(c.Learners), ","))
			})
		}
	}
	return nil
}

// ValidateFor is Validate, and reports a setting that kit's game cannot
// give (exploiters and drills need a game whose every position is
// solved; a method may not learn every game) or that a line's method
// refuses.
func (c Config) ValidateFor(kit *agents.Kit) error {
	// A share the game cannot give is said first: with it, a sum of
	// shares over 1 is no matter.
	if !kit.Solved && (c.Exploit > 0 || c.Drill > 0) {
		return learn.Invalid([]string{"exploit", "drill"}, func(n []string) string {
			return fmt.Sprintf("%s and %s need a game whose every position is solved, and %s is not (set them to 0)", n[0], n[1], kit.Title())
		})
	}
	lines := make([]learn.Settings, len(c.Learners)) // how each line would learn
	for i, m := range c.Learners {
		lines[i] = c.settings(kit.Game, m)
	}
	if err := c.Validate(); err != nil {
		return err
	}
	for i, m := range c.Learners {
		if err := m.Accepts(kit.Game, lines[i], "learners"); err != nil {
			return err
		}
	}
	return nil
}
