package commands

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/league"
	"ttt/league/pgn"
	"ttt/store"
)

// gamesCommand is `ttt games`, whose one subcommand exports the league's
// games.
func gamesCommand() *cli.Command {
	return &cli.Command{
		Name:        "games",
		Usage:       "the games of the league",
		UsageText:   "ttt games export --pgn FILE [options]",
		Subcommands: []*cli.Command{gamesExportCommand()},
		Action:      showSubcommands,
	}
}

// gamesExportCommand is `ttt games export`.
func gamesExportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write stored games as PGN, for rating programs such as Ordo and BayesElo",
		UsageText: `ttt games export --pgn FILE [options]

   ttt games export --pgn league.pgn
   ordo -p league.pgn -a 0 -A random -z 200.24   # Ordo's ratings, random at 0
   ttt games export --agent best --pgn best.pgn  # the games of one agent
   ttt games export --rounds 100-199 --pgn - | grep -c '^\[Result "1/2-1/2"\]'
   ttt games export --ladder --pgn ladder.pgn    # the games of the ladder ratings

   White is the agent that played X, Black the one that played O; the
   Moves tag holds the squares played, 0-8 row-major, X first. The league
   stores each pairing's record and the seed of its random games rather
   than the games, so export replays every match move for move, streaming
   (a night of games is gigabytes of PGN), and stops with an error if one
   does not give its stored record. A file is written whole or not at all.
   With --ladder, only the games against the built-in players, and the
   extra games a best or an import played against them for its ladder
   rating (which the league's Elo does not count): what the ladder
   ratings are fitted from.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "pgn", Usage: "write the games to `FILE` (- for standard output)"},
			&cli.StringFlag{Name: "agent", Usage: "only the games of `ID|NAME|best|latest`"},
			&cli.StringFlag{Name: "rounds", Usage: "only the games of rounds `A-B` (A-, -B and A also do)"},
			&cli.BoolFlag{Name: "ladder", Usage: "only the games against the built-in players, the extra ones of the ladder ratings among them"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			out := c.String("pgn")
			if out == "" {
				return usage(c.Command, "say where the games go: --pgn FILE, or --pgn - for standard output")
			}
			f := store.MatchFilter{Ladder: c.Bool("ladder")}
			if r := c.String("rounds"); r != "" {
				var err error
				if f.First, f.Last, err = parseRounds(r); err != nil {
					return usage(c.Command, "%v", err)
				}
			}
			return runGamesExport(jobOf(c), out, c.String("agent"), f)
		},
	}
}

// runGamesExport writes the games of the matches f chooses, and of the
// agent ref names unless ref is "", to out as PGN (- for stdout).
func runGamesExport(j *job, out, ref string, f store.MatchFilter) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	if ref != "" {
		a, err := j.lookup(db, ref)
		if err != nil {
			return err
		}
		f.Agent = a.ID
	}
	total, err := db.MatchCount(j.ctx, f)
	if err != nil {
		return err
	}

	// The file is opened before the replay: a path that cannot be written
	// fails now, and a replay that fails leaves nothing.
	var w io.Writer = j.Stdout
	var file *outputFile
	if out != "-" {
		if file, err = j.createOutput(out); err != nil {
			return err
		}
		defer file.abort()
		w = file
	}
	cannotWrite := func(err error) error {
		if file == nil {
			return fmt.Errorf("cannot write the games: %w", err)
		}
		return err // the file's own error names it
	}
	pw := pgn.NewWriter(w, filepath.Base(j.db), db.Game())
	var bar progress // on a terminal, when the games go to a file
	if file != nil {
		bar = j.progress(int64(total), "exporting", "matches")
	}
	// A match's games come one after another: the bar counts a match at
	// its first game, whatever its number of games.
	games, matches, last := 0, 0, [2]int64{}
	err = league.Games(j.ctx, db, f, func(g league.StoredGame) error {
		games++
		if pair := [2]int64{min(g.X, g.O), max(g.X, g.O)}; pair != last {
			matches, last = matches+1, pair
			bar.set(int64(matches))
		}
		if err := pw.Write(pgn.Game{Round: g.Round, Date: g.Date, White: g.XName, Black: g.OName, Result: g.Result, Moves: g.Moves}); err != nil {
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
	// Ctrl-C or a hang-up after the last game still ends the export
	// without a file, as one during the games does.
	if err := j.ctx.Err(); err != nil {
		return fmt.Errorf("games export stopped: %w; %s was not written", err, out)
	}
	// The games are in the temporary file: commit puts it in place.
	if err := file.commit(nil); err != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "%d games of %d matches written to %s%s\n", games, total, out, file.replaced())
	return nil
}

// parseRounds reads a range of rounds: A-B, A- (from A on), -B (up to B)
// or A (that round alone); 0 is no bound.
func parseRounds(s string) (first, last int64, err error) {
	from, to, isRange := strings.Cut(s, "-")
	if !isRange {
		to = from
	}
	bound := func(v string) int64 {
		if v == "" || err != nil {
			return 0
		}
		n, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil || n < 1 {
			err = fmt.Errorf("--rounds %s: want A-B, A-, -B or A, rounds counted from 1", s)
		}
		return n
	}
	first, last = bound(from), bound(to)
	if err == nil && (s == "-" || (first != 0 && last != 0 && first > last)) {
		err = fmt.Errorf("--rounds %s: want A-B with A at most B", s)
	}
	return first, last, err
}
