package commands

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/learn"
	"ttt/league"
)

// leagueDefaults are league run's settings where no flag says otherwise,
// those of the default game (the first of agents.Games).
var leagueDefaults = league.Default(agents.Games[0])

// perGame gives the flags of a league's settings whose default differs
// from game to game the defaults of each game, "policy in tic-tac-toe,
// ntuple in Connect Four", where the flag alone would show tic-tac-toe's.
func perGame(flags []cli.Flag) []cli.Flag {
	for _, f := range flags {
		setting := strings.ReplaceAll(f.Names()[0], "-", "_")
		var values []string
		for _, k := range agents.Games {
			if v, ok := league.Default(k).Stored()[setting]; ok {
				values = append(values, v)
			}
		}
		if len(values) < len(agents.Games) {
			continue
		}
		text := perGameText(values)
		switch f := f.(type) {
		case *cli.IntFlag:
			f.DefaultText = text
		case *cli.StringFlag:
			f.DefaultText = text
		case *cli.Float64Flag:
			f.DefaultText = text
		}
	}
	return flags
}

// perGameText says the values of a default in each game of agents.Games:
// the one value if they agree, else each with its game.
func perGameText(values []string) string {
	if slices.Equal(values, slices.Repeat(values[:1], len(values))) {
		return values[0]
	}
	var out []string
	for i, v := range values {
		out = append(out, v+" in "+agents.Games[i].Title())
	}
	return strings.Join(out, ", ")
}

// leagueFlags are the flags of ttt league run that give the league's
// settings (league.Settings), with the default game's defaults, and the
// settings of the methods' own.
func leagueFlags() []cli.Flag {
	var flags []cli.Flag
	for _, st := range league.Settings {
		if !st.Learner {
			flags = append(flags, settingFlag(st, leagueDefaults))
		}
	}
	return append(flags, learningFlags(leagueDefaults.Settings, "")...)
}

// settingFlag is the flag of the league's setting st, d's value its
// default. The learners' flag lists the methods to choose from.
func settingFlag(st league.Setting, d league.Config) cli.Flag {
	name, usage := strings.TrimPrefix(flagOf(st.Name), "--"), st.Usage
	var aliases []string
	if st.Alias != "" {
		aliases = []string{st.Alias}
	}
	if st.Name == "learners" {
		usage += " of " + methods()
	}
	switch v := st.Value(d).(type) {
	case int:
		return &cli.IntFlag{Name: name, Aliases: aliases, Value: v, Usage: usage}
	case uint64:
		return &cli.Uint64Flag{Name: name, Aliases: aliases, Value: v, Usage: usage}
	case float64:
		f := floatFlag(name, v, usage).(*cli.Float64Flag)
		f.Aliases = aliases
		return f
	}
	return &cli.StringFlag{Name: name, Aliases: aliases, Value: st.Get(&d), Usage: usage}
}

// putFlags reads into cfg the flags of the league's settings, those of
// the learners (Setting.Learner) or the others, as the flags' types hold
// them; a setting held as text is read as the league reads it.
func putFlags(c *cli.Context, cfg *league.Config, learner bool) error {
	for _, st := range league.Settings {
		if st.Learner != learner {
			continue
		}
		name := strings.TrimPrefix(flagOf(st.Name), "--")
		err := st.Put(cfg, c.Value(name))
		if _, ok := errors.AsType[*learn.SettingError](err); ok {
			return usage(c.Command, "%v", flagged(err, flagOf)) // it names the flag itself
		}
		if err != nil {
			return usage(c.Command, "--%s %s: %v", name, c.String(name), err)
		}
	}
	return nil
}

// flagOf is the flag of ttt league run (or ttt train) that gives a
// setting, by the setting's stored name (league.Config.Settings): the
// name with dashes, self_play's --self-play.
func flagOf(setting string) string { return "--" + strings.ReplaceAll(setting, "_", "-") }

// givenFlags reports whether c's command line gave a setting, by the
// setting's stored name.
func givenFlags(c *cli.Context) func(setting string) bool {
	return func(setting string) bool { return c.IsSet(strings.TrimPrefix(flagOf(setting), "--")) }
}

// flagged is err said with the flags that give the settings it names,
// when it holds a learn.SettingError; flag names each setting's flag.
// errors.Is and As see err as it was.
func flagged(err error, flag func(setting string) string) error {
	if se, ok := errors.AsType[*learn.SettingError](err); ok {
		return &renamed{err: err, msg: strings.Replace(err.Error(), se.Error(), se.Say(flag), 1)}
	}
	return err
}

// settingFlags writes cfg's settings as ttt league run's flags, in the
// order of their names: what a run goes on with, to see or to type again.
func settingFlags(cfg league.Config) string {
	settings := cfg.Stored()
	var flags []string
	for _, name := range slices.Sorted(maps.Keys(settings)) {
		flags = append(flags, flagOf(name)+" "+settings[name])
	}
	return strings.Join(flags, " ")
}
