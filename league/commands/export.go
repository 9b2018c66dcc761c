package commands

import (
	"fmt"
	"strings"
	"ttt/agents/nn"

	"github.com/urfave/cli/v2"
)

// exportCommand is `ttt export`: a stored network as a plain weight
// file, or a stored table of values as a table file.
func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a stored network as a plain weight file, or a stored table of values as a table file",
		UsageText: `ttt export [options]

   ttt export                                      # checkpoint-34-19in.bin: plays both sides
   ttt export --checkpoint best --side O -o ttt_nn.bin   # for ttt-rl's play program
   ttt export -o - | sha256sum                     # - is standard output
   ttt export --checkpoint 7                       # checkpoint-7-table.bin, if agent 7 is a table

   Without -o the file is named after the agent and its inputs (or
   -table for a table of values), never ttt_nn.bin, the name of ttt-rl's
   18-input file. A file of another size (another layout: inputs or hidden
   units) is replaced only with --force; so is a file that is not a table
   file, by a table. A table plays both sides: it takes no --side.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Value: "best", Usage: "the network or table: `ID|NAME|best|latest`"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (- for standard output)", DefaultText: "NAME-19in.bin, NAME-O-18in.bin with --side O, NAME-table.bin for a table"},
			&cli.StringFlag{Name: "side", Usage: "fold the side input for `X|O` and write 18 inputs (ttt-rl's format; a network only)"},
			&cli.BoolFlag{Name: "force", Usage: "replace a file of another layout"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			write, err := weightWriter(c)
			if err != nil {
				return err
			}
			return runExport(jobOf(c), exportOptions{ref: c.String("checkpoint"), out: c.String("output"),
				side: strings.ToUpper(c.String("side")), write: write, force: c.Bool("force")})
		},
	}
}

// exportOptions are ttt export's flags.
type exportOptions struct {
	ref, out string
	side     string // X, O, or "" for both sides
	write    func(*nn.Net) []byte
	force    bool
}

// runExport writes the network or the table of values that o.ref names
// as a file: a plain weight file, or a table file.
func runExport(j *job, o exportOptions) error {
	a, err := j.storedModel(o.ref)
	if err != nil {
		return err
	}
	var (
		data  []byte
		name  string // the file's name without -o
		check func(*outputFile) error
	)
	if a.Table != nil {
		if o.side != "" {
			return j.usage("--side folds a network's side input; agent %d (%s) is a table of values, which plays both sides", a.ID, a.Name)
		}
		data, name = a.Table.Bytes(), a.Name+"-table.bin"
		check = func(file *outputFile) error { return checkTableLayout(file, o.force) }
	} else {
		data = o.write(a.Net)
		inputs := a.Net.Inputs
		name = fmt.Sprintf("%s-%din.bin", a.Name, inputs)
		if o.side != "" {
			inputs-- // the side input, folded
			name = fmt.Sprintf("%s-%s-%din.bin", a.Name, o.side, inputs)
		}
		check = func(file *outputFile) error { return checkLayout(file, a.Net.Game, inputs, a.Net.Hidden, o.force) }
	}
	out := o.out
	if out == "-" {
		// The file alone, as games export --pgn - writes it.
		if _, err := j.Stdout.Write(data); err != nil {
			return fmt.Errorf("cannot write agent %d to standard output: %w", a.ID, err)
		}
		return nil
	}
	if out == "" {
		out = name
	}
	file, err := j.createOutput(out)
	if err != nil {
		return err
	}
	defer file.abort()
	if err := check(file); err != nil {
		return err
	}
	if err := file.commit(data); err != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "Agent %d (%s) written to %s (%d bytes)%s\n", a.ID, a.Name, out, len(data), file.replaced())
	return nil
}
