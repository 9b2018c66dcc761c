package commands

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/store"
)

// roundsCommand is `ttt rounds`: the league's rounds as their lines in
// the log of ttt league run told them, read back from the database.
func roundsCommand() *cli.Command {
	return &cli.Command{
		Name:  "rounds",
		Usage: "list the league's rounds: each snapshot's Elo, odds against random and class, and the round's speeds",
		UsageText: `ttt rounds [options]

   ttt rounds                         # the newest 20
   ttt rounds --limit 100
   ttt rounds --all --format csv > rounds.csv

   What each round's line said when ttt league run played it: the
   snapshot, the rating its first games gave it and its 95% interval, its
   expected score against a random opponent as X and as O (RANDOM X/O:
   exact, from every random reply), its class (beatable, unbeatable or
   perfect), the speeds of its training and evaluation (games a second),
   and when it was committed (month-day hour:minute, local time). A round of ttt roundrobin has no snapshot. Where the rounds
   listed are of several learners, METHOD says whose turn each was. CSV
   and JSON give every figure in a field of its own, the times, game
   counts and methods included.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Value: 20, Usage: "list the newest `N` rounds"},
			&cli.BoolFlag{Name: "all", Usage: "list every round"},
			formatFlag(), dbFlag(),
		},
		Action: func(c *cli.Context) error {
			limit, err := listingFlags(c)
			if err != nil {
				return err
			}
			return runRounds(jobOf(c), limit, c.String(formatFlagName))
		},
	}
}

// runRounds lists the newest limit rounds (0: all) in format.
func runRounds(j *job, limit int, format string) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	last, _, err := db.LastRound(j.ctx)
	if errors.Is(err, store.ErrNoRounds) {
		return fmt.Errorf("the league has played no round yet: run ttt league run first")
	}
	if err != nil {
		return err
	}
	first := int64(1)
	if limit > 0 {
		first = max(last-int64(limit)+1, 1)
	}
	list, err := db.Rounds(j.ctx, first, last)
	if err != nil {
		return err
	}
	if err := roundListing(list, agents.KitFor(db.Game()), format).write(j.Stdout, format); err != nil {
		return err
	}
	if format == "table" && first > 1 {
		fmt.Fprintf(j.Stdout, "(the newest %d of %d rounds: --limit N or --all for more)\n", len(list), last)
	}
	return nil
}

// roundListing is the listing of ttt rounds of a league of kit's game:
// list as format prints it. The table fits a terminal of 100 columns,
// its snapshots' methods besides where they are several, and the checks
// of its game: tic-tac-toe's odds against random and class, Connect
// Four's shares of its two position sets. CSV and JSON hold every figure
// in a field of its own.
func roundListing(list []store.RoundInfo, kit *agents.Kit, format string) listing {
	if format == "table" {
		methods := map[string]bool{}
		for _, r := range list {
			if r.Agent != nil {
				methods[r.Agent.Method] = true
			}
		}
		l := listing{columns: []string{"round", "snapshot", "elo", "95%", "random x/o", "class", "train/s", "eval/s", "cores", "finished"}}
		if !kit.Solved {
			l.columns[4], l.columns[5] = "random set", "tactical"
		}
		if len(methods) > 1 {
			l.columns = slices.Insert(l.columns, 2, "method")
		}
		for _, r := range list {
			row := []any{r.ID, nil, nil, nil, nil, nil, nil, nil, nil, nil}
			if a := r.Agent; a != nil {
				row[1], row[5] = clip(a.Name, maxTableName), a.Verdict()
				if len(a.VsRandom) == 2 {
					row[4] = fmt.Sprintf("%.1f%%/%.1f%%", 100*a.VsRandom[0].Score(), 100*a.VsRandom[1].Score())
				}
				if a.Shares != nil {
					row[5] = fmt.Sprintf("%.1f%%", a.Shares.All.Percent())
				}
				if a.Random != nil {
					row[4] = fmt.Sprintf("%.1f%%", a.Random.Percent())
				}
			}
			if r.Rating != nil {
				row[2], row[3] = r.Rating.Elo, fmt.Sprintf("[%.0f, %.0f]", r.Rating.Lo, r.Rating.Hi)
			}
			if s := r.Stats; s != nil {
				if s.TrainGames > 0 {
					row[6] = rate(s.TrainGames, s.TrainTime)
				}
				row[7] = rate(s.EvalGames, s.EvalTime)
				if s.Cores > 0 {
					row[8] = fmt.Sprintf("%.1f", s.Cores)
				}
			}
			if !r.Finished.IsZero() {
				row[9] = r.Finished.Local().Format("01-02 15:04")
			}
			if len(methods) > 1 {
				row = slices.Insert(row, 2, methodOf(r.Agent))
			}
			l.rows = append(l.rows, row)
		}
		return l
	}
	l := listing{columns: []string{"round", "kind", "started", "finished", "snapshot_id", "snapshot", "method", "elo", "lo", "hi",
		"x_score", "o_score", "class", "train_games", "train_seconds", "eval_games", "eval_seconds", "fit_steps", "fit_pending", "random_pct", "tactical_pct",
		"cpu_seconds", "cores"}}
	for _, r := range list {
		row := []any{r.ID, string(r.Kind), r.Started.UTC().Format(time.RFC3339Nano), nil, nil, nil, methodOf(r.Agent), nil, nil, nil,
			nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
		if !r.Finished.IsZero() {
			row[3] = r.Finished.UTC().Format(time.RFC3339Nano)
		}
		if a := r.Agent; a != nil {
			row[4], row[5] = a.ID, a.Name
			if a.Verify != nil {
				row[12] = a.Class.String()
			}
			if len(a.VsRandom) == 2 {
				row[10], row[11] = exact(a.VsRandom[0].Score()), exact(a.VsRandom[1].Score())
			}
			if a.Random != nil {
				row[19] = exact(a.Random.Percent())
			}
			if a.Shares != nil {
				row[20] = exact(a.Shares.All.Percent())
			}
		}
		if r.Rating != nil {
			row[7], row[8], row[9] = exact(r.Rating.Elo), exact(r.Rating.Lo), exact(r.Rating.Hi)
		}
		if s := r.Stats; s != nil {
			row[13], row[14], row[15], row[16] = s.TrainGames, exact(s.TrainTime.Seconds()), s.EvalGames, exact(s.EvalTime.Seconds())
			row[17], row[18] = s.FitSteps, s.FitPending
			if s.Cores > 0 {
				row[21], row[22] = exact(s.CPU.Seconds()), exact(s.Cores)
			}
		}
		l.rows = append(l.rows, row)
	}
	return l
}
