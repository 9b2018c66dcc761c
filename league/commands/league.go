package commands

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/league"
	"ttt/store"
)

// leagueDefaults are league run's settings where no flag says otherwise.
var leagueDefaults = league.Default()

// League is `ttt league`, whose one subcommand runs the league.
var League = &cli.Command{
	Name:        "league",
	Usage:       "run the self-play league",
	Subcommands: []*cli.Command{leagueRun},
}

var leagueRun = &cli.Command{
	Name:  "run",
	Usage: "play league rounds: train, snapshot, evaluate, rate, commit",
	UsageText: `ttt league run [options]

   ttt league run --rounds 20               # a quick look
   ttt league run --duration 8h             # overnight
   ttt league run                           # until Ctrl-C; run again to resume

   Each round trains the learner, stores a snapshot of it, plays the
   snapshot against every member, refits the ratings and commits it all
   at once. Ctrl-C abandons the round under way; nothing committed is lost,
   and the next run goes on from the last committed round. One league run
   at a time per database (a second one is refused); the other commands
   work while it runs.`,
	Flags: append([]cli.Flag{
		dbFlag,
		&cli.IntFlag{Name: "rounds", Usage: "stop after this many rounds (0: no limit)"},
		&cli.DurationFlag{Name: "duration", Usage: "start no round after this long, e.g. 8h (0: no limit)"},
		&cli.IntFlag{Name: "games-per-round", Value: leagueDefaults.GamesPerRound, Usage: "training games per round"},
		&cli.IntFlag{Name: "workers", Usage: "concurrent evaluation workers", DefaultText: "all cores"},
		&cli.IntFlag{Name: "openings", Value: leagueDefaults.Plies, Usage: "evaluate over every opening of this many moves (0-2), in both colours"},
		&cli.Float64Flag{Name: "self-play", Value: leagueDefaults.SelfPlay, Usage: "share of training games against itself"},
		&cli.Float64Flag{Name: "exploit", Value: leagueDefaults.Exploit, Usage: "share of training games against its exploiter (random play that finds every line beating it)"},
		&cli.Float64Flag{Name: "members", Value: leagueDefaults.Members, Usage: "share of training games against the league's frozen nets, the ones it does not beat first; the rest are against random"},
	}, learningFlags(leagueDefaults.Learning, "")...),
	Action: func(c *cli.Context) error {
		if c.NArg() > 0 {
			return fmt.Errorf("league run takes no arguments (got %q); flags go before arguments", c.Args().First())
		}
		cfg := league.Config{
			Rounds:        c.Int("rounds"),
			Duration:      c.Duration("duration"),
			GamesPerRound: c.Int("games-per-round"),
			Workers:       c.Int("workers"),
			Seed:          c.Uint64("seed"),
			Plies:         c.Int("openings"),
			SelfPlay:      c.Float64("self-play"),
			Exploit:       c.Float64("exploit"),
			Members:       c.Float64("members"),
			Learning:      learning(c),
		}
		if c.IsSet("workers") && cfg.Workers < 1 {
			return fmt.Errorf("--workers must be at least 1 (got %d)", cfg.Workers)
		}
		if err := cfg.Validate(); err != nil {
			return err
		}
		db, err := openLeague(c, true)
		if err != nil {
			return err
		}
		defer db.Close()
		if err := db.Lock(); err != nil {
			return err
		}

		w := c.App.Writer
		var bar progress
		var barRound int64 // the round the bar shows
		last, err := league.Run(c.Context, db, cfg, league.Hooks{
			Training: func(round int64, done, total int) {
				if round != barRound {
					bar.finish()
					bar, barRound = newProgress(c, int64(total), fmt.Sprintf("round %d: training", round), "games"), round
				}
				bar.set(int64(done))
			},
			Round: func(r league.Report) {
				bar.finish()
				bar = progress{}
				verdict := "beatable"
				if r.Unbeatable() {
					verdict = "UNBEATABLE"
				}
				bar.println(w, "round %d  %s  Elo %.0f [%.0f, %.0f]  vs random %d/%d/%d  %s  train %s games/s  eval %s games/s  %s",
					r.Round, r.Snapshot.Name, r.Rating.Elo, r.Rating.Lo, r.Rating.Hi,
					r.VsRandom[0], r.VsRandom[1], r.VsRandom[2], verdict,
					rate(r.TrainGames, r.TrainTime), rate(r.EvalGames, r.EvalTime), r.Elapsed.Round(100*time.Millisecond))
			},
		})
		bar.finish()
		if err == nil {
			return nil
		}
		// Where the league stopped is what the database holds: Run answers 0
		// when it stops while it loads the league.
		if stored, _, lerr := db.LastRound(context.WithoutCancel(c.Context)); lerr == nil || errors.Is(lerr, store.ErrNoRounds) {
			last = stored
		}
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(w, "stopped: the round under way was abandoned; the league holds %d committed rounds (run again to go on)\n", last)
			return nil
		}
		return fmt.Errorf("%s: %w; the round under way was not stored, the league holds %d committed rounds", c.String(dbFlag.Name), err, last)
	},
}

// rate formats n per d compactly: 950, 12.3k, 4.5M.
func rate(n int, d time.Duration) string {
	r := float64(n) / max(d.Seconds(), 1e-9)
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.1fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}
