package testkit_test

import (
	"testing"

	"ttt/agents/testkit"
)

// A long test skips under -short, and runs without it.
func TestLong(t *testing.T) {
	ran := false
	t.Run("long", func(t *testing.T) {
		testkit.Long(t, "the marker's own test")
		ran = true
	})
	if ran == testing.Short() {
		t.Errorf("with -short %v, a long test ran: %v", testing.Short(), ran)
	}
}
