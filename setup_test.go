package main_test

import (
	"os"
	"strings"
	"testing"
)

// A newcomer follows README.md from its top: before its test command
// meets an error, its set-up (the section of the two commands) names what
// the tests need besides Go (gcc for the race detector, Chromium and
// strace for two tests), says what happens without each, and that the
// first build and the tests are silent for minutes, and for how long; and
// .ci/run installs all three where they are missing, and says before its
// builds that they are silent.
func TestSetUpSaysWhatTheTestsNeed(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, setUp, ok := strings.Cut(string(readme), "\n## Two commands\n")
	if !ok {
		t.Fatal(`README.md has no section "## Two commands"`)
	}
	setUp, _, _ = strings.Cut(setUp, "\n## ")
	for _, want := range []string{
		"go run . league run", "go test -race -timeout 30m ./...",
		"`-race requires cgo`", "apt-get install gcc", "`go test -timeout 30m ./...`",
		"**Chromium**", "**strace**", "skip, each with a line saying what\n  to install",
		"silent for minutes the first time", "2 minutes 40 seconds", "about half an hour", "`go build -v`",
	} {
		if !strings.Contains(setUp, want) {
			t.Errorf("README's set-up, its section of the two commands, does not say %q", want)
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
	if !strings.Contains(string(ci), "echo \"ci: go test -race") {
		t.Error(".ci/run does not say, before the race build, that it is silent")
	}
}
