package learn

import (
	"fmt"
	"slices"
)

// SettingError is a setting out of its range, or one that cannot go with
// the others. The packages that check settings name them as a league
// stores them ("lr", "games-per-round"), never as a command line spells
// its flags: a command line says the error with its own names (Say), so
// that renaming a flag changes neither the checks nor a stored league.
type SettingError struct {
	// Settings are the settings at fault, by their stored names.
	Settings []string
	// say writes the message, given what to call each of Settings, in
	// their order.
	say func(names []string) string
}

// Invalid returns the error that say writes of settings.
func Invalid(settings []string, say func(names []string) string) *SettingError {
	return &SettingError{Settings: settings, say: say}
}

// OutOfRange is the error of one setting whose value got breaks rule
// ("must be within 0..1", "must not be negative").
func OutOfRange(setting, rule string, got any) *SettingError {
	return Invalid([]string{setting}, func(n []string) string { return fmt.Sprintf("%s %s (got %v)", n[0], rule, got) })
}

// Error says the settings by their stored names.
func (e *SettingError) Error() string { return e.say(e.Settings) }

// Say is the message with each setting called as name calls it.
func (e *SettingError) Say(name func(setting string) string) string {
	names := slices.Clone(e.Settings)
	for i, s := range names {
		names[i] = name(s)
	}
	return e.say(names)
}
