package commands

import (
	"fmt"

	"github.com/urfave/cli/v2"
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
   match is kept; the upgrade is one transaction, whole or not at all.`,
		Flags: []cli.Flag{dbFlag()},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			db, err := openLeague(c, true)
			if err != nil {
				return err
			}
			defer db.Close()
			n, err := db.Count(c.Context)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "%s is up to date: %d agents\n", c.String(dbFlagName), n)
			return nil
		},
	}
}
