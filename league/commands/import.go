package commands

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents/train"
	"ttt/league"
	"ttt/store"
)

// importCommand is `ttt import`: a plain weight file, or a tic-tac-toe
// table of values, joins the league.
func importCommand() *cli.Command {
	return &cli.Command{
		Name:  "import",
		Usage: "store a plain weight file (18 or 19 inputs) or a table of values in the league",
		UsageText: `ttt import [options] FILE

   ttt import ttt_nn.bin --name ttt-rl     # a net from the original C program
   ttt import --inputs 19 n.bin
   ttt import table.bin                    # a table of values (tic-tac-toe), as ttt train --method table writes it`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "the agent's `NAME` (default: the file's name without extension)"},
			&cli.IntFlag{Name: "inputs", Usage: "inputs of the file, `18|19`, when its size fits both"},
			dbFlag(),
			gameFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, "FILE"); err != nil {
				return err
			}
			path, name := c.Args().First(), c.String("name")
			if name == "" {
				name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
			} else if err := store.CheckName(name); err != nil {
				return usage(c.Command, "--name: %v", err)
			}
			return runImport(jobOf(c), path, name, c.Int("inputs"))
		},
	}
}

// runImport stores the weight file or table file at path in the league
// as an agent called name; inputs is --inputs, 0 for the file's size to
// decide.
func runImport(j *job, path, name string, inputs int) error {
	// The file is read and checked before the league is opened: a broken
	// file changes nothing, not even by creating a database.
	kit, err := j.leagueKit()
	if err != nil {
		return err
	}
	if err := j.checkInputs(inputs, kit.Game); err != nil {
		return err
	}
	net, values, err := readAgentFile(kit.Game, j.path(path), inputs)
	if err != nil {
		return userNames(err, j.path(path), path)
	}
	db, err := j.openLeague(true)
	if err != nil {
		return err
	}
	defer db.Close()
	a := &store.Agent{Kind: store.Imported, Name: name, Net: net, Table: values}
	if values != nil {
		// A table file does not say which learner filled it: the
		// CodeProject article's and Sutton and Barto's write the same
		// file. Stored as the one that plays the same way (a greedy
		// player of its values), with the article's name.
		a.Method = train.MethodTable
	}
	same, seen, err := db.SameAgent(j.ctx, a)
	if err != nil {
		return err
	}
	league.Describe(kit, a)
	err = db.AddAgent(j.ctx, a)
	if errors.Is(err, store.ErrBadName) || errors.Is(err, store.ErrNameTaken) {
		return fmt.Errorf("%w (choose another with --name)", err)
	}
	if err != nil {
		return err
	}
	w := j.Stdout
	if net != nil {
		fmt.Fprintf(w, "%s stored as agent %d (%s), a %d-%d-%d network\n",
			path, a.ID, a.Name, net.Inputs, a.Hidden, net.Outputs)
	} else {
		fmt.Fprintf(w, "%s stored as agent %d (%s), a table of %d values\n", path, a.ID, a.Name, values.Len())
	}
	for i, r := range a.Verify {
		fmt.Fprintf(w, "%s; vs random %s\n", r, oddsText(a.VsRandom[i]))
	}
	if seen {
		// Allowed, as a copy under another name may be meant; but both
		// play in the league, and their games count twice.
		what := "network"
		if values != nil {
			what = "table"
		}
		fmt.Fprintf(w, "the same %s as agent %d (%s), stored already: both play in the league\n", what, same.ID, same.Name)
	}
	return nil
}
