package main_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/store"
)

// ttt is the built program, run in a directory of its own.
type ttt struct {
	bin, dir string
	sys      *syscall.SysProcAttr // how its processes start (as another user, say); nil: as the test's
}

// buildTTT builds the real binary into a temporary directory.
func buildTTT(t *testing.T) ttt {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "ttt")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return ttt{bin: bin, dir: dir}
}

// command is ttt with args, in its directory, without the caller's TTT_DB.
func (p ttt) command(args ...string) *exec.Cmd {
	cmd := exec.Command(p.bin, args...)
	cmd.Dir = p.dir
	cmd.SysProcAttr = p.sys
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TTT_DB=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}

// run runs ttt with args and returns its stdout, stderr and exit code.
func (p ttt) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return execute(t, p.command(args...))
}

// execute runs cmd and returns its stdout, stderr and exit code.
func execute(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// ok runs ttt and fails the test unless it succeeds.
func (p ttt) ok(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := p.run(t, args...)
	if code != 0 {
		t.Fatalf("ttt %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// refused runs ttt and checks that it fails with exit code 1 and one line
// on stderr that contains want.
func (p ttt) refused(t *testing.T, want string, args ...string) {
	t.Helper()
	out, errOut, code := p.run(t, args...)
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "ttt: ") || !strings.Contains(errOut, want) {
		t.Errorf("ttt %s: exit %d, stderr %q; want exit 1 and one line with %q (stdout %q)",
			strings.Join(args, " "), code, errOut, want, out)
	}
}

// file reads a file in the program's directory.
func (p ttt) file(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// write writes a file in the program's directory.
func (p ttt) write(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEndToEnd(t *testing.T) {
	p := buildTTT(t)

	// Train ttt-rl's way straight into a new league.
	if out := p.ok(t, "train", "--games", "2000", "--db", "league.db"); !strings.Contains(out, "stored as agent 3 (baseline-3)") {
		t.Errorf("train --db said:\n%s", out)
	}
	rows, err := csv.NewReader(strings.NewReader(p.ok(t, "checkpoints", "--format", "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"id", "kind", "name", "generation", "train_games", "hidden", "elo"},
		{"1", "random", "random", "0", "0", "", ""},
		{"2", "perfect", "perfect", "0", "0", "", ""},
		{"3", "baseline", "baseline-3", "0", "2000", "100", ""},
	}
	if got, want := strings.Join(flatten(rows), ","), strings.Join(flatten(want), ","); got != want {
		t.Errorf("checkpoints --format csv:\n got %s\nwant %s", got, want)
	}

	// Export: 19 inputs, and 18 folded for O in ttt-rl's size.
	p.ok(t, "export", "--checkpoint", "latest", "-o", "full.bin")
	full := p.file(t, "full.bin")
	net, err := nn.Parse(full, 19)
	if err != nil {
		t.Fatal(err)
	}
	p.ok(t, "export", "--side", "O")
	folded := p.file(t, "ttt_nn.bin")
	if got, want := len(folded), 11236; got != want {
		t.Errorf("export --side O wrote %d bytes, want %d", got, want)
	}
	if !bytes.Equal(folded, net.FoldedBytes(game.O)) {
		t.Error("export --side O is not the stored net folded for O")
	}

	// Import and export again: the same bytes.
	if out := p.ok(t, "import", "--name", "copy", "full.bin"); !strings.Contains(out, "agent 4 (copy)") {
		t.Errorf("import said:\n%s", out)
	}
	p.ok(t, "export", "--checkpoint", "copy", "-o", "copy.bin")
	if !bytes.Equal(p.file(t, "copy.bin"), full) {
		t.Error("export of an imported file differs from the file")
	}

	// verify ID checks the stored net as verify FILE checks the file.
	byID, _, codeID := p.run(t, "verify", "3")
	byFile, _, codeFile := p.run(t, "verify", "full.bin")
	if byID != byFile || codeID != codeFile || !strings.Contains(byID, "O: ") {
		t.Errorf("verify 3 (exit %d):\n%s\nverify full.bin (exit %d):\n%s", codeID, byID, codeFile, byFile)
	}

	// Refusals: one line on stderr, exit 1, and nothing changed.
	nan := bytes.Clone(full)
	binary.LittleEndian.PutUint32(nan[400:], math.Float32bits(float32(math.NaN())))
	p.write(t, "truncated.bin", full[:len(full)-6])
	p.write(t, "wrongsize.bin", append(bytes.Clone(full), 0, 0, 0, 0))
	p.write(t, "nan.bin", nan)
	p.write(t, "empty.bin", nil)
	p.write(t, "notes.db", []byte("my notes, not a database\n"))
	empty, err := store.Open(context.Background(), filepath.Join(p.dir, "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	empty.Close()
	before := snapshot(t, p.dir)
	p.refused(t, "not a whole number of float32", "import", "truncated.bin")
	p.refused(t, "fits no network", "import", "wrongsize.bin")
	p.refused(t, "NaN", "import", "nan.bin")
	p.refused(t, "empty", "import", "empty.bin")
	p.refused(t, "no such file", "import", "missing.bin")
	p.refused(t, `agent with that name exists: "copy"`, "import", "--name", "copy", "full.bin")
	p.refused(t, `no such agent: "99"`, "show", "99")
	p.refused(t, `no such agent: "99"`, "export", "--checkpoint", "99", "-o", "x.bin")
	p.refused(t, "no checkpoints yet", "export", "--db", "empty.db", "-o", "x.bin")
	p.refused(t, "side must be X or O", "export", "--side", "Q", "-o", "x.bin")
	p.refused(t, "cannot write", "export", "-o", filepath.Join("no", "such", "dir", "x.bin"))
	p.refused(t, "not a network", "export", "--checkpoint", "perfect", "-o", "x.bin")
	p.refused(t, "no league database at nowhere.db", "checkpoints", "--db", "nowhere.db")
	p.refused(t, "not a ttt database", "checkpoints", "--db", "notes.db")
	p.refused(t, "--format must be", "checkpoints", "--format", "xml")
	p.refused(t, `no file nobody, and no such agent: "nobody"`, "verify", "nobody")
	if after := snapshot(t, p.dir); after != before {
		t.Errorf("refused commands changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

// flatten joins each row into one string, so tables compare as strings.
func flatten(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, "|"))
	}
	return out
}

// snapshot names every file in dir with a hash of its content, so that a
// changed, added or removed file shows.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%s %x; ", e.Name(), sha256.Sum256(data))
	}
	return sb.String()
}

// The same seed and flags give byte-identical ratings and rating history
// whatever the number of workers: evaluation games are seeded by match,
// not by the goroutine that plays them. (Rounds are shorter here than by
// default so that the test stays quick under -race; the rounds' number
// and the flags are otherwise as a user would give them.)
func TestLeagueSameForAnyWorkers(t *testing.T) {
	p := buildTTT(t)
	outputs := map[string][2]string{}
	for _, workers := range []string{"1", "2"} {
		db := "w" + workers + ".db"
		p.ok(t, "league", "run", "--db", db, "--rounds", "10", "--seed", "7", "--games-per-round", "2000", "--workers", workers)
		outputs[workers] = [2]string{
			p.ok(t, "ratings", "--db", db, "--format", "csv"),
			p.ok(t, "ratings", "history", "--db", db, "--format", "csv"),
		}
	}
	one, two := outputs["1"], outputs["2"]
	for i, what := range []string{"ratings", "ratings history"} {
		if one[i] != two[i] {
			t.Errorf("%s differ between 1 and 2 workers:\n%s\n---\n%s", what, one[i], two[i])
		}
	}
	// Ten rounds: ten checkpoints, each rated in every round from its own.
	if n := strings.Count(one[0], "checkpoint-"); n != 10 {
		t.Errorf("ratings list %d checkpoints, want 10:\n%s", n, one[0])
	}
	if rows := strings.Count(one[1], "\n") - 1; rows < 10*2 {
		t.Errorf("history has %d rows, want at least one for random and perfect each round", rows)
	}
}
