package commands

import (
	"fmt"
	"strings"

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
			a, err := storedNet(c, c.String("checkpoint"))
			if err != nil {
				return err
			}
			data := write(a.Net)
			inputs, side := a.Net.Inputs, strings.ToUpper(c.String("side"))
			if side != "" {
				inputs-- // the side input, folded
			}
			out := c.String("output")
			if out == "-" {
				// The file alone, as games export --pgn - writes it.
				if _, err := c.App.Writer.Write(data); err != nil {
					return fmt.Errorf("cannot write the net to standard output: %w", err)
				}
				return nil
			}
			if out == "" {
				out = fmt.Sprintf("%s-%din.bin", a.Name, inputs)
				if side != "" {
					out = fmt.Sprintf("%s-%s-%din.bin", a.Name, side, inputs)
				}
			}
			file, err := createOutput(c, out)
			if err != nil {
				return err
			}
			defer file.abort()
			if err := checkLayout(c, file, a.Net.Game, inputs, a.Net.Hidden); err != nil {
				return err
			}
			if err := file.commit(data); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "Agent %d (%s) written to %s (%d bytes)%s\n", a.ID, a.Name, out, len(data), file.replaced())
			return nil
		},
	}
}
