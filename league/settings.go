package league

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"ttt/agents"
	"ttt/agents/learn"
	"ttt/agents/train"
	"ttt/store"
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

// Change is a setting of a resumed league that differs from the one it
// was started with.
type Change struct {
	Name     string // as Settings names it
	Was, Now string
}

// Stored returns c's settings as the league stores them, by name: the
// league's own, and those its methods read (learn.Method.Own); the
// settings of a run (rounds, duration, workers) are not the league's.
// The names are the database's, which a command line need not spell its
// flags as (learn.SettingError names settings so too).
func (c Config) Stored() map[string]string {
	out := map[string]string{}
	for _, st := range Settings {
		out[st.Name] = st.Get(&c)
	}
	for _, name := range c.Learners {
		if m, err := agents.MethodOf(name); err == nil {
			for _, st := range m.Own {
				if v, ok := c.Own[st.Name]; ok {
					out[st.Name] = st.Text(v)
				}
			}
		}
	}
	return out
}

// set sets the setting name (as Stored names it) to value, or says why
// value is not one.
func (c *Config) set(name, value string) error {
	if st, ok := SettingOf(name); ok {
		return st.Set(c, value)
	}
	st := agents.Setting(name)
	if st == nil {
		return fmt.Errorf("unknown setting %q", name)
	}
	v, err := st.Parse(value)
	if err == nil {
		c.Settings = c.Settings.With(name, v)
	}
	return err
}

// Resume returns the settings a run on db's league goes on with: those
// the league was started with, stored with it, where given does not say
// otherwise (given reports whether the user gave a setting, by name, as
// ttt league run's flag); for a new league, cfg. It also returns the
// given settings that differ from the league's. A league goes on with its
// learner as it is, so another --hidden or --learner is refused.
func Resume(ctx context.Context, db *store.DB, cfg Config, given func(name string) bool) (Config, []Change, error) {
	stored, err := db.Settings(ctx)
	if err != nil {
		return cfg, nil, err
	}
	if _, ok := stored["learners"]; len(stored) > 0 && !ok {
		stored["learners"] = train.PolicyMethod.Name // the only learner of leagues older than the setting
	}
	now := cfg.Stored()
	var changes []Change
	for _, name := range slices.Sorted(maps.Keys(now)) {
		was, ok := stored[name]
		switch {
		case !ok || was == now[name]:
		case !given(name):
			if err := cfg.set(name, was); err != nil {
				return cfg, nil, fmt.Errorf("%w: the league's stored setting %s is %q, %v", store.ErrCorrupt, name, was, err)
			}
		case agents.Setting(name) != nil && agents.Setting(name).Made != "":
			return cfg, nil, learn.Invalid([]string{name}, func(n []string) string {
				return fmt.Sprintf("%s %s: "+agents.Setting(name).Made+", and a resumed league goes on with it (another database starts another league)", n[0], now[name], was)
			})
		case name == "learners":
			return cfg, nil, learn.Invalid([]string{name}, func(n []string) string {
				return fmt.Sprintf("%s %s: this league's learners are %s, and a resumed league goes on with them (another database starts another league)", n[0], now[name], was)
			})
		default:
			changes = append(changes, Change{Name: name, Was: was, Now: now[name]})
		}
	}
	return cfg, changes, nil
}

// keepSettings stores the settings a league starts with, if it has none
// yet (see Resume); its networks' size is the size they have.
func (lg *league) keepSettings(ctx context.Context) error {
	stored, err := lg.db.Settings(ctx)
	if err != nil || len(stored) > 0 {
		return err
	}
	settings := lg.cfg.Stored()
	for _, line := range lg.lines {
		if h := Hidden(line.learner.Model()); h != 0 {
			settings[train.Hidden.Name] = strconv.Itoa(h)
		}
	}
	return lg.db.SetSettings(ctx, settings)
}

// ValidateFor is Validate, and reports a setting that kit's game cannot
// give (exploiters and drills need a game whose every position is
// solved; a method may not learn every game) or that a line's method
// refuses.
func (c Config) ValidateFor(kit *agents.Kit) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if !kit.Solved && (c.Exploit > 0 || c.Drill > 0) {
		return learn.Invalid([]string{"exploit", "drill"}, func(n []string) string {
			return fmt.Sprintf("%s and %s need a game whose every position is solved, and %s is not (set them to 0)", n[0], n[1], kit.Title())
		})
	}
	for _, name := range c.Learners {
		m, _ := agents.MethodOf(name) // Validate knows them
		if m.CanLearn != nil {
			if err := m.CanLearn(kit.Game); err != nil {
				return learn.Invalid([]string{"learners"}, func(n []string) string { return fmt.Sprintf("%s %s: %v", n[0], name, err) })
			}
		}
		s := c.settings(kit.Game, m)
		if err := s.Validate(m.Own); err != nil {
			return err
		}
		if m.Check != nil {
			if err := m.Check(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// ForGame returns c with kit's defaults in place of the settings that
// given does not report as given, by setting name: the game's (Default),
// and those of the league's first method, with the settings that only
// its other methods read (a network's size, an n-tuple network's tuples)
// from the first of them that does. A line of another method learns at
// its own method's rate, unless the learning rate is given.
func (c Config) ForGame(kit *agents.Kit, given func(name string) bool) Config {
	d := Default(kit)
	if given("learners") {
		d.Learners = c.Learners
		var methods []*learn.Method
		for _, name := range c.Learners {
			if m, err := agents.MethodOf(name); err == nil {
				methods = append(methods, m)
			}
		}
		if len(methods) > 0 {
			d.Settings = methods[0].Defaults(kit.Game)
			for _, m := range methods[1:] {
				o := m.Defaults(kit.Game)
				for _, st := range m.Own {
					if _, ok := d.Own[st.Name]; !ok {
						d.Settings = d.Settings.With(st.Name, o.Own[st.Name])
					}
				}
				if lr := o.LR; lr != d.LR && !given("lr") {
					if d.LRByMethod == nil {
						d.LRByMethod = map[string]float64{}
					}
					d.LRByMethod[m.Name] = lr
				}
			}
		}
	}
	for name, value := range d.Stored() {
		if !given(name) {
			c.set(name, value) // a default is valid
		}
	}
	return c
}

// Setup returns what a new league of kit's game starts with: the game's
// built-in players, with the facts of the checks of the deterministic
// ones.
func Setup(kit *agents.Kit) store.Setup {
	s := store.Setup{Game: kit.Game}
	for _, b := range kit.Builtins {
		a := &store.Agent{Kind: store.Kind(b.Kind), Name: b.Name}
		if b.Checked {
			a.Facts = kit.Check(b.New(nil))
		}
		s.Builtins = append(s.Builtins, a)
	}
	return s
}
