package commands

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/agents/table"
)

// maxWeightFile is the size of the largest file of an agent of a game: a
// plain weight file with all its inputs and nn.MaxHidden hidden units,
// or in tic-tac-toe a table of values of every state (smaller). Nothing
// larger is read.
func maxWeightFile(g game.Game) int64 {
	size := int64(4 * nn.Params(g.Inputs(), nn.MaxHidden, g.Moves()))
	if g == tictactoe.Game {
		size = max(size, int64(table.MaxFileSize))
	}
	return size
}

// readAgentFile reads the file of an agent of g: a plain weight file, or
// in tic-tac-toe a table of values, which its magic tells apart (a weight
// file has no header). It names the file in any error. It reads regular
// files only, and never more than such a file can hold: /dev/zero or a
// file of gigabytes is refused, not read into memory.
func readAgentFile(g game.Game, path string, inputs int) (*nn.Net, *table.Table, error) {
	// Stat before opening: opening a named pipe would wait for a writer.
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read weights: %w", err)
	}
	if err := checkWeightFile(g, path, info); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read weights: %w", err)
	}
	defer f.Close()
	// The file opened may not be the one checked.
	if info, err = f.Stat(); err != nil {
		return nil, nil, fmt.Errorf("cannot read weights: %w", err)
	}
	if err := checkWeightFile(g, path, info); err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxWeightFile(g)+1))
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read weights: %w", err)
	}
	if int64(len(data)) > maxWeightFile(g) { // it grew since
		return nil, nil, tooLarge(g, path)
	}
	if table.IsFile(data) {
		if g != tictactoe.Game {
			return nil, nil, fmt.Errorf("%s is a table of values, a tic-tac-toe player, not one of %s", path, g.Title())
		}
		t, err := table.Parse(data)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return nil, t, nil
	}
	net, err := nn.Parse(g, data, nn.Shape{Inputs: inputs})
	if errors.Is(err, nn.ErrAmbiguous) {
		return nil, nil, fmt.Errorf("%s: %w (say which with --inputs)", path, err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return net, nil, nil
}

// checkLayout refuses, unless force (--force) says otherwise, to replace
// a file of another size than the weight file of inputs inputs and hidden
// units for g that a command is about to write: a file of another size is
// a net of another layout, and a program that reads the name (ttt-rl's
// play program reads ttt_nn.bin) would load the new one as garbage.
func checkLayout(file *outputFile, g game.Game, inputs, hidden int, force bool) error {
	size := int64(4 * nn.Params(inputs, hidden, g.Moves()))
	if old := file.replaces; old == nil || old.Size() == size || force {
		return nil
	}
	return fmt.Errorf("cannot write %s: it is a file of %d bytes, and this writes %d (%d inputs, %d hidden units), another layout: replace it with --force, or choose another -o",
		file.path, file.replaces.Size(), size, inputs, hidden)
}

// checkTableLayout is checkLayout for a table of values: unless force
// (--force) says otherwise, it refuses to replace a file that is not a
// table file, such as a network's weights that a program loads by that
// name. createOutput has refused what is not a regular file.
func checkTableLayout(file *outputFile, force bool) error {
	if file.replaces == nil || force {
		return nil
	}
	f, err := os.Open(file.target)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", file.path, err)
	}
	defer f.Close()
	head := make([]byte, len(table.Magic))
	n, _ := io.ReadFull(f, head) // a shorter file is no table file
	if table.IsFile(head[:n]) {
		return nil
	}
	return fmt.Errorf("cannot write %s: it is a file of %d bytes that is not a table of values: replace it with --force, or choose another -o",
		file.path, file.replaces.Size())
}

// checkInputs refuses an --inputs n of a command that reads a weight
// file of g: 0 (the size decides), or g's inputs with or without the side
// input.
func (j *job) checkInputs(n int, g game.Game) error {
	if n != 0 && n != g.Inputs() && n != g.Inputs()-1 {
		return j.usage("--inputs must be %d or %d, not %d", g.Inputs()-1, g.Inputs(), n)
	}
	return nil
}

// checkWeightFile refuses a file that cannot be a weight file for its
// type or its size.
func checkWeightFile(g game.Game, path string, info fs.FileInfo) error {
	mode := info.Mode()
	if mode.IsRegular() {
		if info.Size() > maxWeightFile(g) {
			return tooLarge(g, path)
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
	return fmt.Errorf("%s is %s, not a weight file", path, kind)
}

// tooLarge is the error of a file larger than any weight file of g.
func tooLarge(g game.Game, path string) error {
	return fmt.Errorf("%s is larger than any weight file (at most %d bytes: %d inputs, %d hidden units)",
		path, maxWeightFile(g), g.Inputs(), nn.MaxHidden)
}

// weightWriter returns how a net becomes a plain weight file: 19 inputs,
// or 18 folded for the side that c's --side names, "X" or "O".
func weightWriter(c *cli.Context) (func(*nn.Net) []byte, error) {
	side := c.String("side")
	if side == "" {
		return (*nn.Net).Bytes, nil
	}
	s, err := game.ParseSide(side)
	if err != nil {
		return nil, usage(c.Command, "--side: %v", err)
	}
	return func(n *nn.Net) []byte { return n.FoldedBytes(s) }, nil
}
