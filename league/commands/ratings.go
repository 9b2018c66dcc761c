package commands

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"ttt/agents/verify"
	"ttt/store"
)

// Ratings is `ttt ratings`: the leaderboard, and the rating history.
var Ratings = &cli.Command{
	Name:  "ratings",
	Usage: "the leaderboard: rank, agent, Elo, interval, games, W/D/L, verify",
	UsageText: `ttt ratings [options]

   ttt ratings
   ttt ratings --format csv
   ttt ratings history --agent best`,
	Flags:       []cli.Flag{formatFlag, dbFlag},
	Subcommands: []*cli.Command{ratingsHistory, ratingsPlot},
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
		// Rated agents, best first; ties by id, so the order is the same
		// for every run of the same league.
		list = slices.DeleteFunc(list, func(a *store.Agent) bool { return a.Rating == nil })
		slices.SortStableFunc(list, func(a, b *store.Agent) int {
			return cmp.Or(cmp.Compare(b.Rating.Elo, a.Rating.Elo), cmp.Compare(a.ID, b.ID))
		})
		records, err := db.Records(c.Context)
		if err != nil {
			return err
		}
		l := listing{columns: []string{"rank", "id", "agent", "kind", "elo", "lo", "hi", "games", "wins", "draws", "losses", "verify_x", "verify_o"}}
		for i, a := range list {
			rec := records[a.ID]
			row := []any{i + 1, a.ID, a.Name, a.Kind, a.Rating.Elo, a.Rating.Lo, a.Rating.Hi, a.Rating.Games, rec.Wins, rec.Draws, rec.Losses}
			for s := range 2 {
				var v any // random has no single line to check
				if s < len(a.Verify) {
					v = verdict(a.Verify[s])
				}
				row = append(row, v)
			}
			l.rows = append(l.rows, row)
		}
		return l.write(c.App.Writer, c.String(formatFlag.Name))
	},
}

var ratingsHistory = &cli.Command{
	Name:  "history",
	Usage: "Elo after every round, per agent",
	UsageText: `ttt ratings history [options]

   ttt ratings history --agent 12 --format csv`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "agent", Usage: "only this agent: `ID|NAME|best|latest`"},
		formatFlag, dbFlag,
	},
	Action: func(c *cli.Context) error {
		db, err := openForListing(c)
		if err != nil {
			return err
		}
		defer db.Close()
		var agent int64
		if ref := c.String("agent"); ref != "" {
			a, err := db.Agent(c.Context, ref)
			if err != nil {
				return err
			}
			agent = a.ID
		}
		names := map[int64]string{}
		list, err := db.Agents(c.Context)
		if err != nil {
			return err
		}
		for _, a := range list {
			names[a.ID] = a.Name
		}
		history, err := db.History(c.Context, agent)
		if err != nil {
			return err
		}
		l := listing{columns: []string{"round", "id", "agent", "elo", "lo", "hi", "games"}}
		for _, r := range history {
			l.rows = append(l.rows, []any{r.Round, r.Agent, names[r.Agent], r.Elo, r.Lo, r.Hi, r.Games})
		}
		return l.write(c.App.Writer, c.String(formatFlag.Name))
	},
}

// verdict sums up one side of the exhaustive check: whether any opponent
// line beats the agent, and the share of its moves that keep the game's
// value.
func verdict(r verify.Report) string {
	if r.Unbeatable() {
		return fmt.Sprintf("unbeatable %.1f%%", 100*r.OptimalShare())
	}
	return fmt.Sprintf("lost %d/%d %.1f%%", r.LostLines, r.Lines, 100*r.OptimalShare())
}
