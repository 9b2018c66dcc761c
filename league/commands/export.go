package commands

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// exportCommand is `ttt export`: a stored network as a plain weight file.
func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a stored network as a plain weight file",
		UsageText: `ttt export [options]

   ttt export -o best.bin                          # 19 inputs: plays both sides
   ttt export --checkpoint best --side O -o ttt_nn.bin   # for ttt-rl's play program
   ttt export -o - | sha256sum                     # - is standard output`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Value: "best", Usage: "the network: `ID|NAME|best|latest`"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "ttt_nn.bin", Usage: "write to `FILE` (- for standard output)"},
			&cli.StringFlag{Name: "side", Usage: "fold the side input for `X|O` and write 18 inputs (ttt-rl's format)"},
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
			out := c.String("output")
			if out == "-" {
				// The file alone, as games export --pgn - writes it.
				if _, err := c.App.Writer.Write(write(a.Net)); err != nil {
					return fmt.Errorf("cannot write the net to standard output: %w", err)
				}
				return nil
			}
			file, err := createOutput(out, c.String(dbFlagName))
			if err != nil {
				return err
			}
			defer file.abort()
			data := write(a.Net)
			if err := file.commit(data); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "Agent %d (%s) written to %s (%d bytes)%s\n", a.ID, a.Name, out, len(data), file.replaced())
			return nil
		},
	}
}
