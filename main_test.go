package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"ttt/agents/testkit"
	"ttt/league/commands/clitest"
)

// The tests of this package need a real process: signals, SIGKILL,
// another user, resource limits, and main's own exit status. The command
// line itself is tested in-process, in league/commands.

// bin is the ttt program, built once for the package's tests.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ttt-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "ttt")
	if out, err := testkit.DieWithTest(exec.Command("go", "build", "-o", bin, ".")).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// built is the ttt program, run in a new directory.
func built(t *testing.T) clitest.TTT {
	return clitest.TTT{Dir: t.TempDir(), Bin: bin}
}

// main hands the exit status and the streams of commands.Run to the
// process: 0 and stdout on success, 1 and one line on stderr on failure,
// 2 for a command line that does not parse, and TTT_DB read from the
// environment.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	p := built(t)
	if out := p.OK(t, "--version"); !strings.HasPrefix(out, "ttt version ") {
		t.Errorf("ttt --version said %q", out)
	}
	p.Refused(t, "no league database at league.db", "ratings")
	p.Usage(t, `unknown command "lauge"; did you mean league?`, "lauge", "run")

	cmd := p.Command("train", "--games", "100", "--hidden", "4")
	cmd.Env = append(cmd.Env, "TTT_DB=env.db")
	if out, errOut, code := clitest.Execute(t, cmd); code != 0 || !strings.Contains(out, "in env.db") {
		t.Errorf("train with TTT_DB=env.db: exit %d\n%s%s", code, out, errOut)
	}
}

// TestReadme follows the documents as a new user would: every command of
// their shell blocks and of the sessions they show, as written and in the
// order written, in a directory of its own where the program built for
// these tests is ./ttt, and ttt on the PATH. README.md comes first; then
// each document of docs/, alone, in a copy of the directory README.md
// left (a reader starts from the README, then opens any page). Each
// command must succeed, but for one whose shown session ends with an
// error line, which must fail with that line (verify of a net that can be
// beaten). The ones that run until Ctrl-C (a league run of hours, ttt
// serve, an event stream) get SIGINT: the league after a few seconds, the
// server once every command after it in its document has run. Not run:
// go test (this is it) and go build (the program is built); go run . ARGS
// is the program run with ARGS; other programs (ordo) are not ours.
//
// The quick tier (go test -short) runs every command too, but its
// longest within the budget that quickBudget states (a Connect Four
// round of 20,000 games, not five million); the long tier runs them
// whole. The documents after the README run side by side, each with a
// port of its own.
func TestReadme(t *testing.T) {
	t.Parallel()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no documents in docs/")
	}
	dir := t.TempDir()
	// The program is linked, not copied, into each document's directory:
	// writing an executable while another test of the package starts a
	// process lets the child inherit the open file, and running it then
	// fails with "text file busy" (golang/go#22315).
	if err := os.Link(bin, filepath.Join(dir, "ttt")); err != nil {
		t.Fatal(err)
	}
	// The documents' server listens on 8080, which this machine may be
	// using for something else: the commands use a free port in its place.
	if !t.Run("README.md", func(t *testing.T) { followDocument(t, "README.md", dir, freePort(t)) }) {
		return // the documents start where the README leaves off
	}
	for _, doc := range docs {
		t.Run(doc, func(t *testing.T) {
			t.Parallel()
			own := t.TempDir()
			copyFiles(t, dir, own)
			followDocument(t, doc, own, freePort(t))
		})
	}
}

// followDocument runs the commands of the document at path in dir, as
// TestReadme says.
func followDocument(t *testing.T, path, dir, port string) {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var servers []*exec.Cmd
	t.Cleanup(func() {
		for _, s := range servers {
			if s.ProcessState == nil {
				s.Process.Kill()
				s.Wait()
			}
		}
	})
	for _, c := range readmeCommands(string(text)) {
		line := c.line
		cmd := strings.ReplaceAll(line, ":8080", ":"+port)
		switch words := strings.Fields(line); {
		case strings.Contains(line, "go test"), line == "go build":
			continue
		case strings.HasPrefix(line, "go run . "):
			cmd = "./ttt " + strings.TrimPrefix(line, "go run . ")
		case !slices.Contains([]string{"./ttt", "ttt", "printf", "curl"}, words[0]):
			t.Logf("not ours: %s", line)
			continue
		}
		if budgeted := quickBudget(cmd); budgeted != cmd && testing.Short() {
			t.Logf("the quick tier's budget: %s", budgeted)
			cmd = budgeted
		}
		// The shell execs a command that it would otherwise fork, so that
		// a signal (Ctrl-C) reaches the command itself, and that the
		// command dies with the test as the shell would: the kernel's
		// parent-death signal passes through exec, not to a child. A
		// pipeline's commands are forked, and end with their input.
		if !strings.ContainsAny(cmd, "|>;") && !strings.Contains(cmd, "&&") ||
			strings.Contains(cmd, "ttt serve") || strings.Contains(cmd, "league run") {
			cmd = "exec " + cmd
		}
		sh := testkit.DieWithTest(exec.Command("/bin/sh", "-c", cmd))
		sh.Dir = dir
		sh.Env = []string{"PATH=" + dir + ":" + os.Getenv("PATH"), "HOME=" + dir}
		var out lockedBuffer
		sh.Stdout, sh.Stderr = &out, &out
		switch {
		case strings.Contains(cmd, "league run") && strings.Contains(cmd, "--duration"),
			strings.Contains(cmd, "/api/events"):
			said := "\n" // a league run's first line, which says what it starts
			if strings.Contains(cmd, "/api/events") {
				said = "event: round"
			}
			runUntilSaid(t, sh, &out, said)
			if !strings.Contains(out.String(), "stopped: ") && !strings.Contains(out.String(), "event: round") {
				t.Errorf("%s, stopped once it said %q, said:\n%s", line, said, out.String())
			}
			continue
		case strings.Contains(cmd, "ttt serve"):
			if !strings.Contains(cmd, "--addr") {
				cmd += " --addr 127.0.0.1:" + port
			}
			for _, s := range servers {
				if strings.Contains(cmd, ":"+port) && strings.Contains(s.Args[2], ":"+port) {
					stop(t, s) // one server on the port at a time, as for a user
				}
			}
			sh.Args[2] = cmd
			if err := sh.Start(); err != nil {
				t.Fatal(err)
			}
			servers = append(servers, sh)
			for deadline := time.Now().Add(clitest.Patience(t)); !strings.Contains(out.String(), "serving ") && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			if !strings.Contains(out.String(), "serving ") {
				t.Fatalf("%s said %q", line, out.String())
			}
			continue
		}
		began := time.Now()
		err := sh.Run()
		t.Logf("%s: %v", line, time.Since(began).Round(time.Millisecond))
		switch {
		case c.fails == "" && err != nil:
			t.Errorf("%s: %v\n%s", line, err, out.String())
		case c.fails != "" && (err == nil || !strings.Contains(out.String(), "ttt: "+c.fails)):
			t.Errorf("%s: %v, want it to fail with %q as the document shows\n%s", line, err, c.fails, out.String())
		}
	}
	for _, s := range servers {
		stop(t, s)
	}
}

// The quick tier's budget for a document's longest commands, each a
// bound of the command's own, added to it as written: a Connect Four
// league run to its --rounds trains quickGames a round (seconds) in
// place of the default five million (minutes on two cores), and
// evaluates its snapshot from the empty board alone with no extra ladder
// games (quickEvaluation: at the default openings and ladder interval,
// the first best's games against the solver and the MCTS players were
// two thirds of that round's CPU); a league run
// plays quickRounds rounds at most; a Connect Four analysis stops after
// quickAnalysis (its --time). What follows such a command in its
// document (ratings, verify, play, export, a search) reads the league or
// the output as it would read the whole one's. A run of --duration is
// stopped once it has said its first line, in both tiers.
const (
	quickGames      = "20000"
	quickEvaluation = "--openings 0 --ladder-interval 200"
	quickRounds     = 20
	quickAnalysis   = "2s"
)

// roundsFlag finds a command's --rounds N.
var roundsFlag = regexp.MustCompile(`--rounds (\d+)\b`)

// quickBudget is cmd within the quick tier's budget.
func quickBudget(cmd string) string {
	switch {
	case strings.Contains(cmd, "league run") && strings.Contains(cmd, "--rounds"):
		if strings.Contains(cmd, "--game connect4") && !strings.Contains(cmd, "--games-per-round") {
			cmd += " --games-per-round " + quickGames
			if !strings.Contains(cmd, "--openings") && !strings.Contains(cmd, "--ladder-interval") {
				cmd += " " + quickEvaluation
			}
		}
		if m := roundsFlag.FindStringSubmatch(cmd); m != nil {
			if n, _ := strconv.Atoi(m[1]); n > quickRounds {
				cmd = strings.Replace(cmd, m[0], "--rounds "+strconv.Itoa(quickRounds), 1)
			}
		}
	case strings.Contains(cmd, "analyze --game connect4") && !strings.Contains(cmd, "--time"):
		cmd += " --time " + quickAnalysis
	}
	return cmd
}

// The quick tier's budget changes the documents' longest commands alone,
// and only by the bounds it states.
func TestQuickBudget(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]string{
		"./ttt league run --game connect4 --db c4.db --rounds 1":          "./ttt league run --game connect4 --db c4.db --rounds 1 --games-per-round 20000 --openings 0 --ladder-interval 200",
		"./ttt league run --db four.db --learners policy --rounds 60":     "./ttt league run --db four.db --learners policy --rounds 20",
		"./ttt analyze --game connect4 4453":                              "./ttt analyze --game connect4 4453 --time 2s",
		"./ttt league run --rounds 20":                                    "./ttt league run --rounds 20",
		"./ttt league run --db c4.db --duration 8h":                       "./ttt league run --db c4.db --duration 8h",
		"./ttt league run --game connect4 --games-per-round 2 --rounds 1": "./ttt league run --game connect4 --games-per-round 2 --rounds 1",
		"./ttt analyze 408":                                               "./ttt analyze 408",
	} {
		if got := quickBudget(cmd); got != want {
			t.Errorf("%s: within the quick tier's budget %q, want %q", cmd, got, want)
		}
	}
}

// copyFiles copies the regular files of directory from into directory
// to, keeping their modes: the league files, the models and the program
// that a document's commands leave. Executables are linked (see
// TestReadme).
func copyFiles(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		if info.Mode().Perm()&0o111 != 0 {
			if err := os.Link(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDocumentLinks follows every link between the documents (README.md
// and docs/*.md), and to the files beside them (the screenshots): each
// must lead to a file that is there and, where it names a heading
// (#anchor), to a heading of that document, as GitHub makes its anchor.
// Links to other sites are not followed.
func TestDocumentLinks(t *testing.T) {
	t.Parallel()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{"README.md"}, docs...)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		anchors[path] = headingAnchors(string(data))
		return anchors[path]
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, link := range documentLinks(string(data)) {
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, anchor, _ := strings.Cut(link, "#")
			path := doc
			if target != "" {
				path = filepath.Join(filepath.Dir(doc), target)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %s: %v", doc, link, err)
					continue
				}
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[anchor] {
				t.Errorf("%s: link %s: %s has no heading whose anchor is #%s", doc, link, path, anchor)
			}
		}
	}
}

// documentLinks returns the targets of the links and images of a
// Markdown document, outside its code blocks and code spans: [text](target),
// ![alt](target) and <img src="target">.
func documentLinks(doc string) []string {
	var links []string
	blocks := strings.Split(doc, "```")
	for i := 0; i < len(blocks); i += 2 {
		text := blocks[i]
		// Code spans hold no links.
		spans := strings.Split(text, "`")
		for j := 0; j < len(spans); j += 2 {
			s := spans[j]
			for {
				k := strings.Index(s, "](")
				if k < 0 {
					break
				}
				s = s[k+2:]
				end := strings.IndexByte(s, ')')
				if end < 0 {
					break
				}
				links = append(links, s[:end])
				s = s[end:]
			}
			for rest := spans[j]; ; {
				k := strings.Index(rest, `src="`)
				if k < 0 {
					break
				}
				rest = rest[k+5:]
				end := strings.IndexByte(rest, '"')
				if end < 0 {
					break
				}
				links = append(links, rest[:end])
				rest = rest[end:]
			}
		}
	}
	return links
}

// headingAnchors returns the anchors of a Markdown document's headings,
// as GitHub makes them: the heading's text in lower case, without its
// punctuation but hyphens and underscores, its spaces as hyphens, and
// -1, -2... after a repeated one.
func headingAnchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	blocks := strings.Split(doc, "```")
	for i := 0; i < len(blocks); i += 2 {
		for _, line := range strings.Split(blocks[i], "\n") {
			text, ok := strings.CutPrefix(line, "#")
			if !ok {
				continue
			}
			text = strings.TrimLeft(text, "#")
			if !strings.HasPrefix(text, " ") {
				continue
			}
			var b strings.Builder
			for _, r := range strings.ToLower(strings.TrimSpace(text)) {
				switch {
				case r == ' ':
					b.WriteRune('-')
				case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
					b.WriteRune(r)
				}
			}
			a := b.String()
			if n := seen[a]; n > 0 {
				anchors[fmt.Sprintf("%s-%d", a, n)] = true
			} else {
				anchors[a] = true
			}
			seen[a]++
		}
	}
	return anchors
}

// lockedBuffer collects a process's output while the test reads it: os/exec
// copies into it from a goroutine of its own.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// stop interrupts a server as Ctrl-C would, once, and fails the test
// unless it then ends cleanly: exit status 130, the shell's 128 + SIGINT.
func stop(t *testing.T, s *exec.Cmd) {
	t.Helper()
	if s.ProcessState != nil {
		return
	}
	if err := s.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(); s.ProcessState.ExitCode() != 130 {
		t.Errorf("%s, stopped by Ctrl-C: %v", strings.Join(s.Args[2:], " "), err)
	}
}

// freePort returns a TCP port on the loopback interface that nothing
// listens on.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// readmeCommand is a command of the README, and the error line that the
// README shows it ending with, if any ("ttt: ...").
type readmeCommand struct {
	line, fails string
}

// readmeCommands returns the commands of a README, in order: every line
// of its shell blocks (where a block shows a session, the lines after its
// "$ " prompts), and the lines after the prompts of its other blocks,
// which show a session with its output; comments cut off.
func readmeCommands(readme string) []readmeCommand {
	var list []readmeCommand
	blocks := strings.Split(readme, "```")
	for i := 1; i < len(blocks); i += 2 {
		shell, block, _ := strings.Cut(blocks[i], "\n")
		lines := strings.Split(block, "\n")
		session := slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "$ ") })
		if shell != "sh" && !session {
			continue // output alone, or a language that is not the shell's
		}
		for _, l := range lines {
			if rest, ok := strings.CutPrefix(l, "ttt: "); ok && len(list) > 0 && session {
				list[len(list)-1].fails = rest
			}
			if session {
				var ok bool
				if l, ok = strings.CutPrefix(l, "$ "); !ok {
					continue
				}
			}
			if l = strings.TrimSpace(uncomment(l)); l != "" {
				list = append(list, readmeCommand{line: l})
			}
		}
	}
	return list
}

// uncomment cuts a shell comment off line: a # that begins a word outside
// quotes.
func uncomment(line string) string {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' '):
			return line[:i]
		}
	}
	return line
}

// runUntilSaid runs cmd until it has written said on out, interrupts it
// then as Ctrl-C would, and waits for it; it fails the test unless the
// command then ends cleanly.
func runUntilSaid(t *testing.T, cmd *exec.Cmd, out *lockedBuffer, said string) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	for !strings.Contains(out.String(), said) {
		select {
		case err := <-ended:
			t.Fatalf("%s ended (%v) before it said %q:\n%s", strings.Join(cmd.Args[2:], " "), err, said, out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	// A command stopped so exits 130 (the shell's 128 + SIGINT).
	err := <-ended
	if exit, ok := errors.AsType[*exec.ExitError](err); ok && exit.ExitCode() == 130 {
		err = nil
	}
	if err != nil && !strings.HasPrefix(strings.Join(cmd.Args[2:], " "), "exec curl") {
		t.Errorf("%s, stopped by Ctrl-C: %v", strings.Join(cmd.Args[2:], " "), err)
	}
}
