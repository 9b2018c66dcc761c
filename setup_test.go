package main_test

import (
	"os"
	"strings"
	"testing"
)

// A newcomer follows README.md from its top: its set-up (the section of
// the two commands) has two commands that do everything, one that runs
// the main job and one that runs the tests, the quick tier; it says what
// each tier proves and how long each takes, names what the tests need
// besides Go (Chromium and strace for some tests, gcc for CI's race
// detector) and what happens without each, and that the first build and
// the tests are silent at first, and for how long. .ci/run runs exactly
// the README's test command, then the long tier the README names; it
// installs all three tools where they are missing, and says before its
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
	commands := readmeCommands(setUp)
	if len(commands) != 2 || !strings.HasPrefix(commands[0].line, "go run . ") || !strings.HasPrefix(commands[1].line, "go test ") {
		t.Fatalf("README's set-up has the commands %q; want two, go run . and go test", commands)
	}
	quick := commands[1].line
	const long = "go test -timeout 40m ./..."
	// The wording is read with its lines joined: a paragraph may wrap
	// anywhere.
	words := strings.Join(strings.Fields(setUp), " ")
	for _, want := range []string{
		"`" + quick + "`", "**The quick tier** (`-short`, the command above) proves", "**The long tier** (`" + long + "`",
		"`-race requires cgo`", "apt-get install gcc", "**Chromium**", "**strace**",
		"Without them those tests skip, each with a line saying what to install",
		"silent at first", "2 minutes 40 seconds", "`go build -v`",
	} {
		if !strings.Contains(words, want) {
			t.Errorf("README's set-up, its section of the two commands, does not say %q", want)
		}
	}
	if !strings.Contains(quick, "-short") {
		t.Errorf("README's test command %q is not the quick tier (-short)", quick)
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
	// The commands .ci/run runs, in order: the checks, the README's test
	// command as written, the race detector's, then the long tier.
	var run []string
	for _, line := range strings.Split(string(ci), "\n") {
		if strings.HasPrefix(line, "go ") {
			run = append(run, line)
		}
	}
	if len(run) < 5 || !strings.HasPrefix(run[0], "go vet ") || !strings.Contains(run[1], "staticcheck") ||
		run[2] != quick || run[len(run)-1] != long {
		t.Fatalf(".ci/run runs %q; want go vet, staticcheck, %q, the race detector on quick tests, then %q", run, quick, long)
	}
	for _, race := range run[3 : len(run)-1] {
		if !strings.HasPrefix(race, "go test -race -short ") {
			t.Errorf(".ci/run runs %q between the quick tier and the long: want the race detector on quick tests alone", race)
		}
	}
	for _, said := range []string{"echo \"ci: " + quick, "echo \"ci: go test -race", "echo \"ci: " + long} {
		if !strings.Contains(string(ci), said) {
			t.Errorf(".ci/run does not say, before %s, what it runs", strings.TrimPrefix(said, "echo \"ci: "))
		}
	}
}
