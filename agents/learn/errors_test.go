package learn_test

import (
	"errors"
	"strings"
	"testing"

	"ttt/agents/learn"
)

// A setting out of range is named as the league stores it, and a command
// line says it with its own names for the settings.
func TestSettingErrorNamesTheSetting(t *testing.T) {
	t.Parallel()
	l := learn.Settings{LR: 0.1,
		Epsilon: learn.Schedule{Start: 2, End: 0.5}}
	err := l.Validate(nil)
	se, ok := errors.AsType[*learn.SettingError](err)
	if !ok || strings.Join(se.Settings, ",") != "epsilon,epsilon_end" {
		t.Fatalf("Validate: %v (%T), want a SettingError of epsilon and epsilon-end", err, err)
	}
	if got, want := se.Error(), "epsilon and epsilon_end must be within 0..1 (got 2 and 0.5)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	flag := func(s string) string { return "-" + strings.ToUpper(s) }
	if got, want := se.Say(flag), "-EPSILON and -EPSILON_END must be within 0..1 (got 2 and 0.5)"; got != want {
		t.Errorf("Say = %q, want %q", got, want)
	}
}
