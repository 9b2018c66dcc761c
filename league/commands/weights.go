package commands

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
)

// maxModelFile is the size of the largest plain file of any model of
// any game (agents.MaxFileSize): nothing larger is read.
var maxModelFile = agents.MaxFileSize()

// readModelFile reads the plain file at path of a model meant for g (nil:
// any game), and with inputs inputs where that is not 0 (--inputs, for a
// headerless weight file whose size fits two networks). It names the
// file in any error; a file that reads as more than one model is refused
// with an *learn.AmbiguousError, which a command line answers with exit 2.
// It reads regular files only, and never more than a model's file can
// hold: /dev/zero or a file of gigabytes is refused, not read into
// memory.
func readModelFile(g game.Game, path string, inputs int) (learn.Reading, error) {
	// Stat before opening: opening a named pipe would wait for a writer.
	info, err := os.Stat(path)
	if err != nil {
		return learn.Reading{}, fmt.Errorf("cannot read the model: %w", err)
	}
	if err := checkModelFile(path, info); err != nil {
		return learn.Reading{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return learn.Reading{}, fmt.Errorf("cannot read the model: %w", err)
	}
	defer f.Close()
	// The file opened may not be the one checked.
	if info, err = f.Stat(); err != nil {
		return learn.Reading{}, fmt.Errorf("cannot read the model: %w", err)
	}
	if err := checkModelFile(path, info); err != nil {
		return learn.Reading{}, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxModelFile+1))
	if err != nil {
		return learn.Reading{}, fmt.Errorf("cannot read the model: %w", err)
	}
	if int64(len(data)) > maxModelFile { // it grew since
		return learn.Reading{}, tooLarge(path)
	}
	var want func(learn.Reading) bool
	if inputs != 0 {
		want = func(r learn.Reading) bool {
			net := r.Model.Layout().Inputs != 0 // a network's inputs tell its layouts apart
			return net && r.Model.Layout().Inputs == inputs || !net && r.Side == nil && inputs == r.Model.Plays().Inputs()
		}
	}
	r, err := agents.ReadFile(g, data, want)
	if err != nil {
		return learn.Reading{}, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// checkLayout refuses, unless force (--force) says otherwise, to replace
// a file of another layout than data, the file a command is about to
// write: one of another kind (another magic) or, for a headerless weight
// file, of another size, another network's. A program that reads the
// name (ttt-rl's play program reads ttt_nn.bin) would load the new one
// as garbage. createOutput has refused what is not a regular file.
func checkLayout(file *outputFile, data []byte, force bool) error {
	old := file.replaces
	if old == nil || force {
		return nil
	}
	if !learn.HasMagic(data, learn.MagicPrefix) {
		if old.Size() == int64(len(data)) {
			return nil
		}
		return fmt.Errorf("cannot write %s: it is a file of %d bytes, and this writes %d, a network of another layout: replace it with --force, or choose another -o",
			file.path, old.Size(), len(data))
	}
	f, err := os.Open(file.target)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", file.path, err)
	}
	defer f.Close()
	head := make([]byte, len(learn.MagicPrefix)+4)
	n, _ := io.ReadFull(f, head) // a shorter file is of no kind
	if learn.HasMagic(data, string(head[:n])) && n == len(head) {
		return nil
	}
	return fmt.Errorf("cannot write %s: it is a file of %d bytes of another kind: replace it with --force, or choose another -o", file.path, old.Size())
}

// readModel is readModelFile of the job's path, with the file named as
// the user named it; a file that reads more than one way is a wrong
// command line (exit 2), whose message names the ways and the flags that
// choose among them.
func (j *job) readModel(g game.Game, path string, inputs int) (learn.Reading, error) {
	r, err := readModelFile(g, j.path(path), inputs)
	if errors.Is(err, learn.ErrAmbiguous) {
		return r, j.usage("%v (say which with --inputs, or --game)", userNames(err, j.path(path), path))
	}
	return r, userNames(err, j.path(path), path)
}

// checkInputs refuses an --inputs n of a command that reads a weight
// file: 0 (the file decides), or the inputs of a game's network with or
// without the side input.
func (j *job) checkInputs(n int) error {
	if n == 0 {
		return nil
	}
	var allowed []string
	for _, k := range agents.Games {
		if n == k.Inputs() || n == k.Inputs()-1 {
			return nil
		}
		allowed = append(allowed, fmt.Sprintf("%d or %d (%s)", k.Inputs()-1, k.Inputs(), k.Title()))
	}
	return j.usage("--inputs must be %s, not %d", strings.Join(allowed, ", "), n)
}

// checkModelFile refuses a file that cannot be a model's file for its
// type or its size.
func checkModelFile(path string, info fs.FileInfo) error {
	mode := info.Mode()
	if mode.IsRegular() {
		if info.Size() > maxModelFile {
			return tooLarge(path)
		}
		return nil
	}
	kind := "not a regular file"
	switch {
	case mode.IsDir():
		kind = "a directory"
	case mode&fs.ModeDevice != 0:
		kind = "a device"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case mode&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("%s is %s, not a model's file", path, kind)
}

// tooLarge is the error of a file larger than any model's file.
func tooLarge(path string) error {
	return fmt.Errorf("%s is larger than any model's file (at most %d bytes)", path, maxModelFile)
}

// sideFlag reads c's --side: nil for none.
func sideFlag(c *cli.Context) (*game.Side, error) {
	v := c.String("side")
	if v == "" {
		return nil, nil
	}
	s, err := game.ParseSide(v)
	if err != nil {
		return nil, usage(c.Command, "--side: %v", err)
	}
	return &s, nil
}
