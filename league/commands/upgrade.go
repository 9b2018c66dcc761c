package commands

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"ttt/league"
	"ttt/store"
)

// upgradeCommand is `ttt upgrade`: a league of an older ttt brought up to
// date in place.
func upgradeCommand() *cli.Command {
	return &cli.Command{
		Name:  "upgrade",
		Usage: "bring a league database made by an older ttt up to date, in place",
		UsageText: `ttt upgrade [options]

   ttt upgrade --db old.db

   The commands that only read a league never change its file, so a
   league made by an older ttt is upgraded by this command, or by any
   command that writes to it (ttt league run, ttt import). Every agent and
   match is kept; the upgrade is one transaction, whole or not at all. An
   agent whose name this ttt refuses is renamed kind-id, as the league
   would have named it, and a line says so. Ratings on the scale of an
   older ttt, random at 0 alone, move to the game's scale (its built-in
   players anchored: docs/league.md, "One scale per game") by a refit of every stored
   result, each agent's history by as much as its rating, and a line says
   how far they moved. The file must hold a league: this command never
   makes one.`,
		Flags: []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			return runUpgrade(jobOf(c))
		},
	}
}

// runUpgrade brings the job's league up to date.
func runUpgrade(j *job) error {
	// Opened as a reader first: a missing or empty file, or one with no
	// league, is refused as readers refuse it, and never becomes a new
	// league that is "up to date".
	db, err := j.openLeague(false)
	if errors.Is(err, store.ErrOlderSchema) {
		// An older league has a schema: it is never set up anew.
		db, err = store.Open(j.ctx, j.path(j.db), nil)
		if err = userNames(err, j.path(j.db), j.db); err == nil {
			sayRenamed(j.Stdout, "", db)
		}
	}
	if err != nil {
		return err
	}
	defer func() {
		if db != nil {
			db.Close()
		}
	}()
	from := db.UpgradedFrom()
	on, err := league.OnScale(j.ctx, db)
	if err != nil {
		return err
	}
	if !on {
		// Moving the ratings writes, under the league lock.
		db.Close()
		if db, err = store.Open(j.ctx, j.path(j.db), nil); err != nil {
			return userNames(err, j.path(j.db), j.db)
		}
		if err := db.Lock(); err != nil {
			return err
		}
		if err := j.toScale(db, j.Stdout, ""); err != nil {
			return err
		}
	}
	n, err := db.Count(j.ctx)
	if err != nil {
		return err
	}
	if from > 0 {
		fmt.Fprintf(j.Stdout, "%s upgraded from schema %d, and is up to date: %d agents\n", j.db, from, n)
		return nil
	}
	fmt.Fprintf(j.Stdout, "%s is up to date: %d agents\n", j.db, n)
	return nil
}

// sayRenamed writes a line, after prefix, for each agent that the
// upgrade made by opening db renamed, with the reason: people knew them
// by the names they had.
func sayRenamed(w io.Writer, prefix string, db *store.DB) {
	for _, r := range db.Renamed() {
		fmt.Fprintf(w, "%sagent %d renamed %s: %v\n", prefix, r.ID, r.To, r.Why)
	}
}
