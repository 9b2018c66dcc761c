package commands

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/league"
	"ttt/store"
)

// leagueShowCommand is `ttt league show`: what a league is, in one
// screen, where `ttt league run` would go on from.
func leagueShowCommand() *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "describe the league: its game, settings, rounds, best and size",
		UsageText: `ttt league show [options]

   ttt league show
   ttt league show --db c4.db --format json

   The settings are those a run without flags goes on with, as league
   run's flags; the size is the database file's with its -wal file.`,
		Flags: []cli.Flag{formatFlag(), dbFlag()},
		Action: func(c *cli.Context) error {
			if err := checkListing(c); err != nil {
				return err
			}
			return runLeagueShow(jobOf(c), c.String(formatFlagName))
		},
	}
}

// runLeagueShow describes the job's league in format: in a table, one
// item a line.
func runLeagueShow(j *job, format string) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	l, err := j.leagueListing(db, format)
	if err != nil {
		return err
	}
	if format != "table" {
		return l.write(j.Stdout, format)
	}
	w := tabwriter.NewWriter(j.Stdout, 0, 0, 2, ' ', 0)
	for i, col := range l.columns {
		if col == "best_ladder_provisional" {
			continue // said in best_ladder's line
		}
		switch cell := l.rows[0][i].(type) {
		case nil:
			fmt.Fprintf(w, "%s:\t-\n", col)
		case float64:
			fmt.Fprintf(w, "%s:\t%.1f\n", col, cell)
		default:
			fmt.Fprintf(w, "%s:\t%v\n", col, cell)
		}
	}
	return w.Flush()
}

// leagueListing is what league show says of db's league, as one row in
// format: a table says in best_ladder's line why it is provisional, and
// has no line best_ladder_provisional.
func (j *job) leagueListing(db *store.DB, format string) (listing, error) {
	path := j.db
	rounds, err := db.NewestRound(j.ctx)
	if err != nil {
		return listing{}, err
	}
	n, err := db.Count(j.ctx)
	if err != nil {
		return listing{}, err
	}
	stored, err := db.Settings(j.ctx)
	if err != nil {
		return listing{}, err
	}
	settings := "none yet: a league run stores them as it starts"
	if len(stored) > 0 {
		cfg, _, err := league.Resume(j.ctx, db, league.Default(agents.KitFor(db.Game())), func(string) bool { return false })
		if err != nil {
			return listing{}, err
		}
		settings = settingFlags(cfg)
	}
	var best, latest, class, elo, ladder, provisional any
	if a, err := league.Lookup(j.ctx, db, store.Best); err == nil {
		best, class = a.Name, a.Verdict()
		if a.Standing != nil {
			elo = a.Standing.Elo
		}
		// Its ladder rating, and whether that is provisional, read
		// together: the extra games that end it are stored with the end
		// of the debt.
		ladders, err := league.DBLadders(j.ctx, db, []int64{a.ID})
		if err != nil {
			return listing{}, err
		}
		if l, ok := ladders.Ratings[a.ID]; ok {
			_, owed := ladders.Owed[a.ID]
			ladder, provisional = l.Elo, owed
			if format == "table" && owed {
				ladder = fmt.Sprintf("%.1f, %s", l.Elo, ladders.Provisional(a.ID))
			}
		}
	} else if !errors.Is(err, store.ErrNoCheckpoints) {
		return listing{}, err
	}
	if a, err := db.Agent(j.ctx, store.Latest); err == nil {
		latest = a.Name
	} else if !errors.Is(err, store.ErrNoCheckpoints) {
		return listing{}, err
	}
	size := fileSize(j.path(path))
	verdict := "best_class"
	if !agents.KitFor(db.Game()).Solved {
		verdict = "best_shares" // of the random and tactical position sets
	}
	return listing{
		object:  true,
		columns: []string{"file", "game", "rounds", "agents", "latest", "best", verdict, "best_elo", "best_ladder", "best_ladder_provisional", "bytes", "settings"},
		rows:    [][]any{{path, db.Game().Name(), rounds, n, latest, best, class, elo, ladder, provisional, size, settings}},
	}, nil
}
