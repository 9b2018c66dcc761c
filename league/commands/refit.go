package commands

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"ttt/league"
	"ttt/store"
)

// ratingsRefitCommand is `ttt ratings refit`: every rating set to a fit
// of every stored result from scratch.
func ratingsRefitCommand() *cli.Command {
	return &cli.Command{
		Name:  "refit",
		Usage: "fit every stored result from scratch and set every rating to that fit",
		UsageText: `ttt ratings refit [options]

   ttt check --ratings           # how far the ratings are from a refit
   ttt ratings refit             # set them to it

   Fits every stored result anew on the game's scale (the fit ttt check
   --ratings compares with) and sets every agent's rating to it, in one
   transaction: each agent's history moves by as much as its rating, and
   the league goes on from the new ratings. A league's ratings follow a
   full fit within a tenth of an Elo as it runs; this is for one that
   lags further, which ttt check --ratings reports. Not while a league
   runs on the file.`,
		Flags: []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			return runRatingsRefit(jobOf(c))
		},
	}
}

// runRatingsRefit sets the job's league's ratings to a refit.
func runRatingsRefit(j *job) error {
	db, err := j.openToWrite()
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Lock(); err != nil {
		return err
	}
	r, err := league.Rerate(j.ctx, db)
	if err != nil {
		return err
	}
	if r.Agents == 0 {
		fmt.Fprintf(j.Stdout, "%s rates no agent yet: nothing to refit\n", j.db)
		return nil
	}
	fmt.Fprintf(j.Stdout, "%s: every rating set to a refit of %d stored matches on the %s scale: %s\n",
		j.db, r.Results, db.Game().Title(), movedText(r))
	return nil
}

// openToWrite opens the job's league to write it, as the writers do,
// upgrading an older schema, but never makes one: a missing or empty
// file, or one with no league, is refused as the readers refuse it.
func (j *job) openToWrite() (*store.DB, error) {
	db, err := j.openLeague(false)
	switch {
	case err == nil:
		db.Close()
	case !errors.Is(err, store.ErrOlderSchema):
		return nil, err
	}
	return j.openLeague(true)
}

// toScale moves the ratings of db's league to its game's scale if they
// are on an older ttt's, and says so on w after prefix. The caller holds
// the league lock.
func (j *job) toScale(db *store.DB, w io.Writer, prefix string) error {
	on, err := league.OnScale(j.ctx, db)
	if err != nil || on {
		return err
	}
	r, err := league.Rerate(j.ctx, db)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%sthe ratings moved from the scale of an older ttt (random at 0 alone) to the %s scale, by a refit of %d stored matches: %s\n",
		prefix, db.Game().Title(), r.Results, movedText(r))
	return nil
}

// movedText says how many agents a Rerate rated and which moved furthest.
func movedText(r league.Rerated) string {
	g := r.Largest
	return fmt.Sprintf("%d agents, the furthest moved %.3f Elo (agent %d, %s: %.3f, now %.3f)",
		r.Agents, g.Diff(), g.Agent, g.Name, g.Stored, g.Refit)
}
