package commands

import (
	"fmt"
	"ttt/agents"

	"github.com/urfave/cli/v2"
)

// checkpointsCommand is `ttt checkpoints`: the stored agents, one line
// each, a page at a time.
func checkpointsCommand() *cli.Command {
	return &cli.Command{
		Name:  "checkpoints",
		Usage: "list the league's agents with their Elo, a page at a time",
		UsageText: `ttt checkpoints [options]

   ttt checkpoints                    # the newest 50
   ttt checkpoints --after 0          # the first 50
   ttt checkpoints --after 1200       # the 50 after agent 1200
   ttt checkpoints --all --format csv > agents.csv

   A league of a night holds tens of thousands of agents: a page is
   --limit of them (50), the newest unless --after names the agent to go
   on from.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Value: 50, Usage: "list at most `N` agents"},
			&cli.Int64Flag{Name: "after", Value: -1, Usage: "list the agents after the one with this `ID` (0: from the first)", DefaultText: "the newest page"},
			&cli.BoolFlag{Name: "all", Usage: "list every agent"},
			formatFlag(), dbFlag(),
		},
		Action: func(c *cli.Context) error {
			limit, after := c.Int("limit"), c.Int64("after")
			switch {
			case limit < 1:
				return usage(c.Command, "--limit must be at least 1 (got %d)", limit)
			case c.IsSet("after") && after < 0:
				return usage(c.Command, "--after must be an agent id, 0 or more (got %d)", after)
			case c.Bool("all"):
				after, limit = 0, 0
			}
			if err := checkListing(c); err != nil {
				return err
			}
			return runCheckpoints(jobOf(c), after, limit, c.String(formatFlagName))
		},
	}
}

// runCheckpoints lists limit agents (0: all) after the agent after, or
// with after negative the newest page, in format.
func runCheckpoints(j *job, after int64, limit int, format string) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	total, err := db.Count(j.ctx)
	if err != nil {
		return err
	}
	if after < 0 { // ids are dense from 1: the newest page
		after = int64(max(total-limit, 0))
	}
	list, err := db.Agents(j.ctx, after, limit)
	if err != nil {
		return err
	}
	verdict := "class"
	if !agents.KitFor(db.Game()).Solved {
		verdict = "shares" // of the random and tactical position sets
	}
	l := listing{columns: []string{"id", "kind", "method", "name", "generation", "train_games", "hidden", "elo", verdict}}
	for _, a := range list {
		var hidden, elo, class any // none for random and perfect, while unrated, for random
		if a.Hidden > 0 {
			hidden = a.Hidden
		}
		if v := a.Verdict(); v != "" {
			class = v
		}
		if a.Standing != nil {
			elo = a.Standing.Elo
		}
		l.rows = append(l.rows, []any{a.ID, a.Kind, methodOf(a), a.Name, a.Generation, a.TrainGames, hidden, elo, class})
	}
	if err := l.write(j.Stdout, format); err != nil {
		return err
	}
	switch {
	case format != "table" || len(list) == total:
	case len(list) == 0:
		// Past the end: a hint to go on from there would loop.
		fmt.Fprintf(j.Stdout, "(no agents after %d: the league's %d end at agent %d; --after 0 from the first, --all for every one)\n", after, total, total)
	default:
		// The ids listed, not after plus the count: no sum of the user's
		// number to overflow.
		first, last := list[0].ID, list[len(list)-1].ID
		next := fmt.Sprintf("--after %d for the next page", last)
		if last >= int64(total) {
			next = "--after 0 from the first"
		}
		fmt.Fprintf(j.Stdout, "(agents %d to %d of %d: %s, --all for every one)\n", first, last, total, next)
	}
	return nil
}
