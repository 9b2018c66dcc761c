package main_test

import (
	"os"
	"strings"
	"testing"
)

// A newcomer follows README.md from its top: before its test command
// meets an error, its set-up names what the tests need besides Go (gcc
// for the race detector, Chromium and strace for two tests), says what
// happens without each and how long the first build and the tests take;
// and .ci/run installs all three where they are missing.
func TestSetUpSaysWhatTheTestsNeed(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	setUp, _, _ := strings.Cut(string(readme), "\n## The game")
	for _, want := range []string{
		"go test -race -timeout 30m ./...",
		"`-race requires cgo`", "apt-get install gcc", "`go test -timeout 30m ./...`",
		"**Chromium**", "**strace**", "skip, each with a line saying what\n  to install",
		"### How long the first run and the tests take", "2 minutes 40 seconds", "about 11 minutes",
	} {
		if !strings.Contains(setUp, want) {
			t.Errorf("README's set-up, before its first section on the game, does not say %q", want)
		}
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"gcc", "chromium", "strace"} {
		if !strings.Contains(string(ci), "command -v "+tool+" >/dev/null 2>&1 || missing+=("+tool+")") {
			t.Errorf(".ci/run does not install %s where it is missing", tool)
		}
	}
}
