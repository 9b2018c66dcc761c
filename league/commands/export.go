package commands

import (
	"fmt"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/league"

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
			side, err := sideFlag(c)
			if err != nil {
				return err
			}
			return runExport(jobOf(c), exportOptions{ref: c.String("checkpoint"), out: c.String("output"), side: side, force: c.Bool("force")})
		},
	}
}

// exportOptions are ttt export's flags.
type exportOptions struct {
	ref, out string
	side     *game.Side // nil for both sides
	force    bool
}

// runExport writes the model that o.ref names as its plain file.
func runExport(j *job, o exportOptions) error {
	a, m, err := j.storedModel(o.ref)
	if err != nil {
		return err
	}
	data, err := modelFile(m, o.side)
	if err != nil {
		return j.usage("--side: agent %d (%s) %v", a.ID, a.Name, err)
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
		out = league.FileName(a, m, o.side)
	}
	file, err := j.createOutput(out)
	if err != nil {
		return err
	}
	defer file.abort()
	if err := checkLayout(file, data, o.force); err != nil {
		return err
	}
	if err := file.commit(data); err != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "Agent %d (%s) written to %s (%d bytes)%s\n", a.ID, a.Name, out, len(data), file.replaced())
	return nil
}

// modelFile returns m's plain file, for one side where side is not nil;
// an error for a model that has no file of one side.
func modelFile(m learn.Model, side *game.Side) ([]byte, error) {
	if side == nil {
		return m.File(), nil
	}
	sided, ok := m.(learn.Sided)
	if !ok {
		return nil, fmt.Errorf("is a %s, which plays both sides from one file: it takes no --side", m.Describe())
	}
	return sided.FileFor(*side), nil
}
