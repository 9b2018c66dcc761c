package league

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"ttt/agents"
	"ttt/agents/learn"
	"ttt/agents/train"
	"ttt/store"
)

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
	for st, v := range c.own {
		out[st.Name] = st.Text(v)
	}
	return out
}

// own yields the settings of the league's methods' own (learn.Method.Own)
// that c holds, with their values.
func (c Config) own(yield func(*learn.Setting, float64) bool) {
	for _, m := range c.Learners {
		for _, st := range m.Own {
			if v, ok := c.Own[st.Name]; ok && !yield(st, v) {
				return
			}
		}
	}
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
	cfg, changes, err := cfg.resume(stored, given)
	if err != nil {
		return cfg, nil, err
	}
	return cfg, changes, refused(changes)
}

// resume returns c with the league's stored settings in place of those
// that given does not report as given, and the given ones that differ
// from the league's, in the order of their names.
func (c Config) resume(stored map[string]string, given func(name string) bool) (Config, []Change, error) {
	if _, ok := stored["learners"]; len(stored) > 0 && !ok {
		stored["learners"] = train.PolicyMethod.Name // the only learner of leagues older than the setting
	}
	var changes []Change
	take := func(name string, now map[string]string) error {
		was, ok := stored[name]
		switch {
		case !ok || was == now[name]:
		case given(name):
			changes = append(changes, Change{Name: name, Was: was, Now: now[name]})
		default:
			err := c.set(name, was)
			if _, ok := errors.AsType[*learn.SettingError](err); ok {
				return err // a name that reads, against the setting's rule: learners that are no methods
			}
			if err != nil {
				return fmt.Errorf("%w: the league's stored setting %s is %q, %v", store.ErrCorrupt, name, was, err)
			}
		}
		return nil
	}
	// The learners first: which settings a league has beside its own
	// depends on its methods (a tdlambda line's lambda), so the others are
	// read for the learners it goes on with, not for the defaults'.
	if err := take("learners", c.Stored()); err != nil {
		return c, nil, err
	}
	now := c.Stored()
	names := maps.Clone(now)
	for _, m := range c.Learners {
		for _, st := range m.Own {
			names[st.Name] = "" // stored, though no flag gave it
		}
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		if name == "learners" {
			continue
		}
		if err := take(name, now); err != nil {
			return c, nil, err
		}
	}
	return c, changes, nil
}

// refused is the first of changes that a resumed league cannot make: its
// learners, and what they were made with (a network's size), go on as
// they are.
func refused(changes []Change) error {
	for _, ch := range changes {
		if st := agents.Setting(ch.Name); st != nil && st.Made != "" {
			return learn.Invalid([]string{ch.Name}, func(n []string) string {
				return fmt.Sprintf("%s %s: "+st.Made+", and a resumed league goes on with it (another database starts another league)", n[0], ch.Now, ch.Was)
			})
		}
		if ch.Name == "learners" {
			return learn.Invalid([]string{ch.Name}, func(n []string) string {
				return fmt.Sprintf("%s %s: this league's learners are %s, and a resumed league goes on with them (another database starts another league)", n[0], ch.Now, ch.Was)
			})
		}
	}
	return nil
}

// Start is how a run of a league starts: the settings it goes on with,
// and what it says of them first.
type Start struct {
	Config  Config
	New     bool     // no run stored the league's settings or a round yet
	After   int64    // the league's last committed round
	Changes []Change // the given settings that differ from the league's
}

// Prepare resolves the settings of a run on db's league, kit's game, in
// one pass: kit's defaults where given does not report a setting as given
// (ForGame), then the league's stored settings where it has them
// (Resume), then the check (ValidateFor), then the refusals of a given
// setting that the league cannot change or that no learner reads
// (agents.Unread). A flag out of range is so said before it is compared
// with the league. db is nil for a league not made yet. A setting at
// fault is a learn.SettingError, by its stored name.
func Prepare(ctx context.Context, kit *agents.Kit, db *store.DB, cfg Config, given func(name string) bool) (Start, error) {
	cfg = cfg.ForGame(kit, given)
	s := Start{New: true}
	if db != nil {
		stored, err := db.Settings(ctx)
		if err != nil {
			return s, err
		}
		if s.After, err = db.NewestRound(ctx); err != nil {
			return s, err
		}
		s.New = len(stored) == 0 && s.After == 0
		if cfg, s.Changes, err = cfg.resume(stored, given); err != nil {
			return s, err
		}
	}
	if err := cfg.ValidateFor(kit); err != nil {
		return s, err
	}
	if err := refused(s.Changes); err != nil {
		return s, err
	}
	s.Config = cfg
	return s, agents.Unread(cfg.Learners, given)
}

// keepSettings stores the settings a league starts with, if it has none
// yet (see Resume); its networks' size is hidden, the size they have (0:
// it has none).
func (lg *league) keepSettings(ctx context.Context, hidden int) error {
	stored, err := lg.db.Settings(ctx)
	if err != nil || len(stored) > 0 {
		return err
	}
	settings := lg.cfg.Stored()
	if hidden != 0 {
		settings[train.Hidden.Name] = strconv.Itoa(hidden)
	}
	return lg.db.SetSettings(ctx, settings)
}

// run is the run that starts at start, as the league stores it: its
// deadline, its limit of rounds and its workers, which the league does
// not keep from one run to the next.
func (lg *league) run(start time.Time) store.Run {
	r := store.Run{Started: start, Rounds: lg.cfg.Rounds, Workers: lg.cfg.Workers}
	var searches []string
	for _, s := range lg.cfg.Search {
		searches = append(searches, s.String())
	}
	r.Search = strings.Join(searches, ",")
	if lg.cfg.Duration > 0 {
		r.Deadline = start.Add(lg.cfg.Duration)
	}
	return r
}

// ForGame returns c with kit's defaults in place of the settings that
// given does not report as given, by setting name: the game's (Default),
// and those of the league's first method, with the settings that only
// its other methods read (a network's size, an n-tuple network's tuples)
// from the first of them that does. A line of another method learns at
// its own method's rate, unless the learning rate is given.
func (c Config) ForGame(kit *agents.Kit, given func(name string) bool) Config {
	d := Default(kit)
	if given("learners") && len(c.Learners) > 0 {
		d.Learners = c.Learners
		d.Settings = c.Learners[0].Defaults(kit.Game)
		for _, m := range c.Learners[1:] {
			o := m.Defaults(kit.Game)
			for _, st := range m.Own {
				if _, ok := d.Own[st.Name]; !ok {
					d.Own[st.Name] = o.Own[st.Name] // d.Own is new: Defaults made it
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
	for _, st := range Settings {
		if !given(st.Name) {
			st.copy(&c, &d)
		}
	}
	own := maps.Collect(maps.All(c.Own)) // a map of c's own: the caller's stays as it was
	for st, v := range d.own {
		if !given(st.Name) {
			own[st.Name] = v
		}
	}
	c.Own = own
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
			// A built-in player keeps the class of an exhaustive check
			// (tic-tac-toe's), which says how it plays; Connect Four's
			// says nothing of a player that is not a model.
			a.Facts = kit.Check(b.New(nil))
			a.Classed = a.Verify != nil
		}
		s.Builtins = append(s.Builtins, a)
	}
	return s
}
