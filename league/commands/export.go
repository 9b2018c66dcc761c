package commands

import (
	"fmt"
	"strings"
	"ttt/agents/nn"

	"github.com/urfave/cli/v2"
)

// exportCommand is `ttt export`: a stored network as a plain weight file.
func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a stored network as a plain weight file",
		UsageText: `ttt export [options]

   ttt export                                      # checkpoint-34-19in.bin: plays both sides
   ttt export --checkpoint best --side O -o ttt_nn.bin   # for ttt-rl's play program
   ttt export -o - | sha256sum                     # - is standard output

   Without -o the file is named after the agent and its inputs, never
   ttt_nn.bin, the name of ttt-rl's 18-input file. A file of another size
   (another layout: inputs or hidden units) is replaced only with --force.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Value: "best", Usage: "the network: `ID|NAME|best|latest`"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (- for standard output)", DefaultText: "NAME-19in.bin, NAME-O-18in.bin with --side O"},
			&cli.StringFlag{Name: "side", Usage: "fold the side input for `X|O` and write 18 inputs (ttt-rl's format)"},
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

// runExport writes the network that o.ref names as a plain weight file.
func runExport(j *job, o exportOptions) error {
	a, err := j.storedNet(o.ref)
	if err != nil {
		return err
	}
	data := o.write(a.Net)
	inputs := a.Net.Inputs
	if o.side != "" {
		inputs-- // the side input, folded
	}
	out := o.out
	if out == "-" {
		// The file alone, as games export --pgn - writes it.
		if _, err := j.Stdout.Write(data); err != nil {
			return fmt.Errorf("cannot write the net to standard output: %w", err)
		}
		return nil
	}
	if out == "" {
		out = fmt.Sprintf("%s-%din.bin", a.Name, inputs)
		if o.side != "" {
			out = fmt.Sprintf("%s-%s-%din.bin", a.Name, o.side, inputs)
		}
	}
	file, err := j.createOutput(out)
	if err != nil {
		return err
	}
	defer file.abort()
	if err := checkLayout(file, a.Net.Game, inputs, a.Net.Hidden, o.force); err != nil {
		return err
	}
	if err := file.commit(data); err != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "Agent %d (%s) written to %s (%d bytes)%s\n", a.ID, a.Name, out, len(data), file.replaced())
	return nil
}
