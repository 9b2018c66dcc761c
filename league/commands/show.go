package commands

import (
	"errors"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents/nn"
	"ttt/store"
)

// Show is `ttt show`: everything the league knows about one agent.
var Show = &cli.Command{
	Name:  "show",
	Usage: "describe one agent: kind, lineage, network, Elo, record and verify figures",
	UsageText: `ttt show [options] ID|NAME|best|latest

   ttt show best
   ttt show 12`,
	Flags: []cli.Flag{dbFlag},
	Action: func(c *cli.Context) error {
		if c.NArg() != 1 {
			return fmt.Errorf("show takes one agent: ID, NAME, best or latest (flags go before it)")
		}
		db, err := openLeague(c, false)
		if err != nil {
			return err
		}
		defer db.Close()
		a, err := db.Agent(c.Context, c.Args().First())
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w (see ttt checkpoints)", err)
		}
		if err != nil {
			return err
		}
		parent := "none"
		if a.ParentID != 0 {
			p, err := db.Agent(c.Context, strconv.FormatInt(a.ParentID, 10))
			if err != nil {
				return err
			}
			parent = fmt.Sprintf("%d (%s)", p.ID, p.Name)
		}
		record, err := db.Record(c.Context, a.ID)
		if err != nil {
			return err
		}

		w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
		fmt.Fprintf(w, "agent:\t%d (%s)\n", a.ID, a.Name)
		fmt.Fprintf(w, "kind:\t%s\n", a.Kind)
		fmt.Fprintf(w, "parent:\t%s\n", parent)
		fmt.Fprintf(w, "generation:\t%d\n", a.Generation)
		fmt.Fprintf(w, "training games:\t%d\n", a.TrainGames)
		if a.Net != nil {
			fmt.Fprintf(w, "network:\t%d-%d-%d, %d parameters\n", nn.Inputs, a.Hidden, nn.Outputs, nn.Params(nn.Inputs, a.Hidden))
		} else {
			fmt.Fprintf(w, "network:\tnone (a built-in player)\n")
		}
		fmt.Fprintf(w, "created:\t%s\n", a.CreatedAt.Format(time.RFC3339))
		if r := a.Rating; r != nil {
			fmt.Fprintf(w, "Elo:\t%.1f (95%%: %.1f to %.1f) over %d games, after round %d\n", r.Elo, r.Lo, r.Hi, r.Games, r.Round)
		} else {
			fmt.Fprintf(w, "Elo:\tnot rated yet\n")
		}
		fmt.Fprintf(w, "games:\t%s\n", record)
		for _, r := range a.Verify {
			fmt.Fprintf(w, "verify:\t%s\n", r)
		}
		if a.Verify == nil {
			fmt.Fprintf(w, "verify:\tnone (a random player has no fixed line to check)\n")
		}
		return w.Flush()
	},
}
