package commands

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents/nn"
	"ttt/store"
)

// Import is `ttt import`: a plain weight file joins the league.
var Import = &cli.Command{
	Name:  "import",
	Usage: "store a plain weight file (18 or 19 inputs) in the league",
	UsageText: `ttt import [options] FILE

   ttt import --name ttt-rl ttt_nn.bin     # a net from the original C program
   ttt import --inputs 19 n.bin`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "name", Usage: "the agent's `NAME` (default: the file's name without extension)"},
		&cli.IntFlag{Name: "inputs", Usage: "inputs of the file, `18|19`, when its size fits both"},
		dbFlag,
	},
	Action: func(c *cli.Context) error {
		if c.NArg() != 1 {
			return fmt.Errorf("import takes one FILE (flags go before it)")
		}
		path := c.Args().First()
		// The file is read and checked before the league is opened: a
		// broken file changes nothing, not even by creating a database.
		net, err := readWeightFile(path, c.Int("inputs"))
		if err != nil {
			return err
		}
		name := c.String("name")
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		}
		db, err := openLeague(c, true)
		if err != nil {
			return err
		}
		defer db.Close()
		a := &store.Agent{Kind: store.Imported, Name: name, Net: net}
		err = db.AddAgent(c.Context, a)
		if errors.Is(err, store.ErrBadName) || errors.Is(err, store.ErrNameTaken) {
			return fmt.Errorf("%w (choose another with --name)", err)
		}
		if err != nil {
			return err
		}
		w := c.App.Writer
		fmt.Fprintf(w, "%s stored as agent %d (%s), a %d-%d-%d network\n",
			path, a.ID, a.Name, nn.Inputs, a.Hidden, nn.Outputs)
		for _, r := range a.Verify {
			fmt.Fprintln(w, r)
		}
		return nil
	},
}
