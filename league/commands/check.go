package commands

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"ttt/league"
)

// errDamaged makes `ttt check` exit non-zero without another message: the
// lines above it say what is wrong.
var errDamaged = errors.New("the league is damaged")

// checkCommand is `ttt check`: is the league file sound?
func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "check a league file: SQLite's checks, the checksums of every stored net, the ratings, replayed matches",
		UsageText: `ttt check [options]

   ttt check
   ttt check --sample 1          # replay every match

   Runs SQLite's integrity check, checks every stored network and move
   table against the checksum stored with it (SQLite cannot see into
   them), checks the ratings (finite numbers; every agent that played
   rated; each standing its agent's last history row), and replays every
   --sample-th stored match, which must give its stored record. Prints what is wrong and where, one line each, and exits
   with 1 if anything is; it only reads.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "sample", Value: 100, Usage: "replay one match in `N`"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			if c.Int("sample") < 1 {
				return usage(c.Command, "--sample must be at least 1 (got %d)", c.Int("sample"))
			}
			db, err := jobOf(c).openLeague(false)
			if err != nil {
				return err
			}
			defer db.Close()
			w := c.App.Writer
			problems := 0
			found := func(what string) {
				problems++
				fmt.Fprintln(w, what)
			}
			blobs, err := db.Check(c.Context, found)
			if err != nil {
				return err
			}
			replayed, err := league.Replay(c.Context, db, c.Int("sample"), found)
			if err != nil {
				return err
			}
			if problems > 0 {
				fmt.Fprintf(w, "%s: %d problems found\n", dbName(c), problems)
				return errDamaged
			}
			fmt.Fprintf(w, "%s is healthy: SQLite's checks pass, %d stored blobs match their checksums, %d replayed matches their records\n",
				dbName(c), blobs, replayed)
			return nil
		},
	}
}
