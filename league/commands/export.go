package commands

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/league"
	"ttt/store"
)

// exportCommand is `ttt export`: a stored model as its plain file.
func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a stored model as its plain file: a network's weights, a table of values, an n-tuple network",
		UsageText: `ttt export [options]

   ttt export                                      # checkpoint-34-19in.bin: plays both sides
   ttt export --checkpoint best --side O -o ttt_nn.bin   # for ttt-rl's play program
   ttt export -o - | sha256sum                     # - is standard output
   ttt export --checkpoint 7                       # checkpoint-7-table.bin, if agent 7 is a table
   ttt export --db c4.db                           # checkpoint-90-ntuple.bin, a Connect Four n-tuple network

   Without -o the file is named after the agent and its inputs (a policy
   network: 19in, or 18in for one side) or its method, never ttt_nn.bin,
   the name of ttt-rl's 18-input file. A policy network's file is ttt-rl's
   headerless layout; the other models' files start with a header that
   says their kind, game and side, so that every file ttt writes reads
   back with no flags (docs/files.md). --side writes a file of one side:
   a network without its side input (the C program's 18 or 84 inputs),
   a table or an n-tuple network with that side's values only; it plays
   that side as the checkpoint does. A file of another size (another
   layout: inputs or hidden units), or of another kind, is replaced only
   with --force.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Value: "best", Usage: "the model: `ID|NAME|best|latest`"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (- for standard output)", DefaultText: "NAME-19in.bin, NAME-O-18in.bin with --side O, NAME-METHOD.bin for the other models"},
			&cli.StringFlag{Name: "side", Usage: "write a file of one side, `X|O` (a policy network: the side input folded, 18 inputs, ttt-rl's layout)"},
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
	if a.Kind == store.Searched {
		return j.usage("%s is %s searched: the search is no part of its file (export %s, and play it with the search as %s)",
			a.Name, a.Name[:strings.LastIndexByte(a.Name, '@')], a.Name[:strings.LastIndexByte(a.Name, '@')], a.Name)
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
		out = league.FileName(a.Agent, m, o.side)
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
	data := m.FileFor(*side)
	if data == nil {
		return nil, fmt.Errorf("is a %s, which plays both sides from one file: it takes no --side", m.Describe())
	}
	return data, nil
}
