package commands

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"ttt/league"
	"ttt/league/pgn"
)

// Games is `ttt games`, whose one subcommand exports the league's games.
var Games = &cli.Command{
	Name:        "games",
	Usage:       "the games of the league",
	Subcommands: []*cli.Command{gamesExport},
}

var gamesExport = &cli.Command{
	Name:  "export",
	Usage: "write every stored game as PGN, for rating programs such as Ordo and BayesElo",
	UsageText: `ttt games export --pgn FILE [options]

   ttt games export --pgn league.pgn
   ordo -p league.pgn -a 0 -A random -z 200.24   # Ordo's ratings, random at 0
   ttt games export --pgn - | grep -c '^\[Result "1/2-1/2"\]'

   White is the agent that played X, Black the one that played O; the
   Moves tag holds the squares played, 0-8 row-major, X first. The league
   stores each pairing's record and the seed of its random games rather
   than the games, so export replays every match move for move, and stops
   with an error if one does not give its stored record. A file is written
   whole or not at all.`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "pgn", Usage: "write the games to `FILE` (- for standard output)"},
		dbFlag,
	},
	Action: func(c *cli.Context) error {
		if c.NArg() > 0 {
			return fmt.Errorf("games export takes no arguments (got %q); name the file with --pgn", c.Args().First())
		}
		out := c.String("pgn")
		if out == "" {
			return fmt.Errorf("say where the games go: --pgn FILE, or --pgn - for standard output")
		}
		dbPath := c.String(dbFlag.Name)
		if same(out, dbPath) {
			return fmt.Errorf("--pgn %s is the league database itself", out)
		}
		db, err := openLeague(c, false)
		if err != nil {
			return err
		}
		defer db.Close()

		// The file is opened before the replay: a path that cannot be
		// written fails now, and a replay that fails leaves nothing.
		var w io.Writer = c.App.Writer
		var file *pendingFile
		if out != "-" {
			if file, err = createPending(out); err != nil {
				return err
			}
			defer file.abort()
			w = file.tmp
		}
		cannotWrite := func(err error) error {
			if file == nil {
				return fmt.Errorf("cannot write the games: %w", err)
			}
			return fmt.Errorf("cannot write %s: %w", out, err)
		}
		pw := pgn.NewWriter(w, filepath.Base(dbPath))
		var bar progress // on a terminal, when the games go to a file
		games, matches := 0, 0
		err = league.Games(c.Context, db, func(g league.StoredGame) error {
			if games == 0 && file != nil {
				bar = newProgress(c, int64(g.Matches), "exporting", "matches")
			}
			bar.set(int64(g.Match - 1))
			games, matches = games+1, g.Matches
			if err := pw.Write(pgn.Game{Round: g.Round, White: g.XName, Black: g.OName, Result: g.Result, Moves: g.Moves}); err != nil {
				return cannotWrite(err)
			}
			return nil
		})
		bar.finish()
		if err != nil {
			return err
		}
		if err := pw.Flush(); err != nil {
			return cannotWrite(err)
		}
		if file == nil {
			return nil
		}
		// The games are in the temporary file: commit puts it in place.
		if err := file.commit(nil); err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "%d games of %d matches written to %s\n", games, matches, out)
		return nil
	},
}

// same reports whether paths a and b name one existing file.
func same(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
