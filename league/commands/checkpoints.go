package commands

import (
	"github.com/urfave/cli/v2"
)

// Checkpoints is `ttt checkpoints`: every stored agent, one line each.
var Checkpoints = &cli.Command{
	Name:  "checkpoints",
	Usage: "list the league's agents with their latest Elo",
	UsageText: `ttt checkpoints [options]

   ttt checkpoints
   ttt checkpoints --format csv > agents.csv`,
	Flags: []cli.Flag{formatFlag, dbFlag},
	Action: func(c *cli.Context) error {
		db, err := openForListing(c)
		if err != nil {
			return err
		}
		defer db.Close()
		list, err := db.Agents(c.Context)
		if err != nil {
			return err
		}
		l := listing{columns: []string{"id", "kind", "name", "generation", "train_games", "hidden", "elo"}}
		for _, a := range list {
			var hidden, elo any // none for random and perfect, and while unrated
			if a.Hidden > 0 {
				hidden = a.Hidden
			}
			if a.Rating != nil {
				elo = a.Rating.Elo
			}
			l.rows = append(l.rows, []any{a.ID, a.Kind, a.Name, a.Generation, a.TrainGames, hidden, elo})
		}
		return l.write(c.App.Writer, c.String(formatFlag.Name))
	},
}
