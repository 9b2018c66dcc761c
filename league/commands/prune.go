package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"github.com/urfave/cli/v2"

	"ttt/league"
	"ttt/store"
)

// pruneCommand is `ttt prune`: a night's league made lighter by dropping
// the weights of the checkpoints nobody will export or play.
func pruneCommand() *cli.Command {
	return &cli.Command{
		Name:  "prune",
		Usage: "drop the weights of all but the best, the newest and every Nth round's checkpoints; ratings, records and games stay",
		UsageText: `ttt prune [options]

   ttt prune                          # keep the 10 best, the newest, one every 100 rounds
   ttt prune --best 3 --every 0

   A tic-tac-toe checkpoint is 11.6 KB of weights (100 hidden units), or
   a table of values of up to 108 KB, and about 4 KB of everything else:
   its move table, its matches, its rating history. Pruning drops the
   weights (or the table) of the checkpoints it does not keep, and
   nothing else: every rating, record, history row and move table stays,
   so the ratings do not move, games export replays every game, and the
   league goes on playing pruned checkpoints by their move tables. A
   pruned checkpoint cannot be exported, verified or played (ttt show
   says it is pruned). Networks and tables imported or trained by ttt
   train are kept, and Connect Four's checkpoints, which the league plays
   by their weights. The file is then compacted (SQLite's VACUUM), which
   needs as much free disk space again. Not while a league runs on the
   file.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "best", Value: 10, Usage: "keep the weights of this many best networks (the best rule of ttt ratings)"},
			&cli.IntFlag{Name: "every", Value: 100, Usage: "keep the checkpoint of every round that this divides (0: none)"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			keepBest, every := c.Int("best"), c.Int("every")
			if keepBest < 1 {
				return usage(c.Command, "--best must be at least 1 (got %d): the best is always kept", keepBest)
			}
			if every < 0 {
				return usage(c.Command, "--every must not be negative (got %d)", every)
			}
			return runPrune(jobOf(c), keepBest, every)
		},
	}
}

// runPrune drops the weights of the checkpoints but the keepBest best,
// the newest and those of every every-th round, and compacts the file.
func runPrune(j *job, keepBest, every int) error {
	file := j.path(j.db)
	// A missing file is refused as the readers refuse it, never made into
	// an empty league to prune.
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no league database at %s (ttt league run makes one; choose another with --db or TTT_DB)", j.db)
	}
	before := fileSize(file)
	db, err := j.openLeague(true)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Lock(); err != nil {
		return err
	}
	best, err := league.Best(j.ctx, db, keepBest)
	if err != nil {
		return err
	}
	keep := make([]int64, 0, len(best)+1)
	for _, a := range best {
		keep = append(keep, a.ID)
	}
	// The newest, the learner's parent, keeps its net: its name is
	// latest, and a resumed league starts from it.
	switch latest, err := db.Agent(j.ctx, store.Latest); {
	case err == nil:
		keep = append(keep, latest.ID)
	case !errors.Is(err, store.ErrNoCheckpoints):
		return err
	}
	n, bytes, err := db.Prune(j.ctx, keep, every)
	if err != nil {
		return err
	}
	if n > 0 {
		if err := db.Vacuum(j.ctx); err != nil {
			return err
		}
	}
	if err := db.Close(); err != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "dropped the weights of %s (%s MB); %s: %s MB before, %s MB now",
		plural(n, "checkpoint"), megabytes(bytes), j.db, megabytes(before), megabytes(fileSize(file)))
	if info, err := os.Stat(file + "-wal"); err == nil && info.Size() > 0 {
		// Another ttt read the league all along (see store.DB.Vacuum).
		fmt.Fprintf(j.Stdout, ", %s MB of it in its -wal file until the other ttt reading the league (ttt serve, a long export) end: the space comes back then", megabytes(info.Size()))
	}
	fmt.Fprintln(j.Stdout)
	return nil
}

// megabytes writes a size in MB to three significant digits, whole MB
// from 100 on: a small league's file that pruning shrank by a quarter
// reads 0.336 and 0.258, where one decimal read 0.3 and 0.3.
func megabytes(b int64) string {
	x := float64(b) / 1e6
	switch {
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x < 0.01: // no exponent for a few bytes
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// fileSize is the size of a league's file with its -wal file, 0 where
// they are not.
func fileSize(path string) int64 {
	var size int64
	for _, name := range []string{path, path + "-wal"} {
		if info, err := os.Stat(name); err == nil {
			size += info.Size()
		}
	}
	return size
}
