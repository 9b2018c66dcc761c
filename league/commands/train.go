package commands

import (
	"fmt"
	"math"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/train"
	"ttt/league"
	"ttt/store"
)

// trainCommand is `ttt train`: ttt-rl's trainer, one network against a
// uniformly random opponent, playing X and O in turn.
func trainCommand() *cli.Command {
	return &cli.Command{
		Name:  "train",
		Usage: "train a network against a random opponent (ttt-rl's method)",
		UsageText: `ttt train [options]

   ttt train --games 2000000 --seed 3 -o n.bin
   ttt train -o ttt_nn.bin --side O     # 18-input file for ttt-rl's play program
   ttt train --db league.db             # the net joins the league as a baseline agent

   With --db (or TTT_DB set), the net is stored in the league as well as
   written to -o, if given.`,
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "games", Value: trainDefaults.Games, Usage: "training games"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the net to `FILE` as plain weights"},
			&cli.StringFlag{Name: "side", Usage: "with -o: fold the side input for `X|O` and write 18 inputs"},
			&cli.BoolFlag{Name: "force", Usage: "with -o: replace a file of another layout"},
			// Not dbFlag(): train uses no database unless told, so it
			// shows no default.
			&cli.StringFlag{Name: dbFlagName, Usage: "store the net in the league database `FILE` too (TTT_DB when set)"},
		}, learningFlags(trainDefaults.Learning, "half of --games")...),
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			out := c.String("output")
			_, toLeague := dbGiven(c)
			switch {
			case out == "" && !toLeague:
				return usage(c.Command, "say where the net goes: -o FILE and/or --db FILE")
			case out == "-":
				return usage(c.Command, "-o -: train prints its progress on standard output; write the net to a file")
			}
			write, err := weightWriter(c)
			if err != nil {
				return err
			}
			cfg := train.Config{Games: c.Int("games"), Seed: c.Uint64("seed"), Learning: learning(c)}
			if !c.IsSet("epsilon-games") {
				cfg.Epsilon.Games = cfg.Games / 2
			}
			if err := cfg.Validate(); err != nil {
				return usage(c.Command, "%v", err)
			}
			// Both destinations are opened before training: a path that
			// cannot be written fails now, not after the games.
			var file *outputFile
			if out != "" {
				if file, err = createOutput(c, out); err != nil {
					return err
				}
				defer file.abort()
				inputs := agents.TicTacToe.Game.Inputs()
				if c.String("side") != "" {
					inputs-- // the side input, folded
				}
				if err := checkLayout(c, file, agents.TicTacToe.Game, inputs, cfg.Hidden); err != nil {
					return err
				}
			}
			var db *store.DB
			if toLeague {
				if db, err = openLeague(c, true); err != nil {
					return err
				}
				defer db.Close()
				// Opening may have made the database at -o's path, by a
				// name that createOutput could not tell (a link to it).
				if file != nil {
					if err := file.check(); err != nil {
						return err
					}
				}
			}

			w := c.App.Writer
			fmt.Fprintf(w, "Training a %d-hidden network against a random opponent for %d games (seed %d)\n",
				cfg.Hidden, cfg.Games, cfg.Seed)
			bar := newProgress(c, int64(cfg.Games), "training", "games")
			start := time.Now()
			net, err := train.AgainstRandom(c.Context, cfg, func(p train.Progress) {
				bar.set(int64(p.Games))
				if p.Window != nil {
					bar.println(w, "Games: %d, %s, epsilon %.3f", p.Games, window(*p.Window), p.Epsilon)
				}
			})
			bar.finish()
			if err != nil {
				return fmt.Errorf("training stopped: %w", err)
			}
			fmt.Fprintf(w, "Training complete in %.1fs\n", time.Since(start).Seconds())
			if db != nil {
				a := league.Describe(agents.TicTacToe, &store.Agent{Kind: store.Baseline, TrainGames: int64(cfg.Games), Net: net})
				if err := db.AddAgent(c.Context, a); err != nil {
					return err
				}
				fmt.Fprintf(w, "Network stored as agent %d (%s) in %s\n", a.ID, a.Name, dbName(c))
			}
			if file != nil {
				if err := file.commit(write(net)); err != nil {
					return err
				}
				fmt.Fprintf(w, "Network saved to %s%s\n", out, file.replaced())
			}
			return nil
		},
	}
}

// trainDefaults are train's settings where no flag says otherwise.
var trainDefaults = train.Default(150000)

// learningFlags are the settings of a learning network, shared by train
// and league run, with the defaults of the one or the other.
func learningFlags(d train.Learning, decayDefault string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "learner", Value: d.Method, Usage: "how the network learns: policy (ttt-rl's rule: a policy net, reinforced by the game's result) or tdlambda (a value net moving to the best afterstate, learning by TD(λ))"},
		&cli.IntFlag{Name: "hidden", Value: d.Hidden, Usage: "hidden units of a new network"},
		floatFlag("lr", d.LR, "learning rate"),
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed: the same seed and flags give the same results"},
		floatFlag("epsilon", d.Epsilon.Start, "exploration rate at the start: the chance of a uniformly random move"),
		floatFlag("epsilon-end", d.Epsilon.End, "exploration rate after the decay"),
		&cli.IntFlag{Name: "epsilon-games", Value: d.Epsilon.Games, Usage: "training games over which epsilon decays linearly", DefaultText: decayDefault},
		floatFlag("temperature", d.Temperature, "softmax temperature of sampled moves (lower is greedier; policy learner)"),
		floatFlag("lambda", d.Lambda, "λ of TD(λ): 0 learns from the next position only, 1 from the result only (tdlambda learner)"),
	}
}

// floatFlag is a flag whose value is a real number: NaN and the
// infinities, which strconv reads as floats, are refused before any
// range check could let them through (NaN fails every comparison).
func floatFlag(name string, value float64, help string) cli.Flag {
	return &cli.Float64Flag{Name: name, Value: value, Usage: help,
		Action: func(c *cli.Context, v float64) error {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return usage(c.Command, "--%s must be a finite number (got %v)", name, v)
			}
			return nil
		},
	}
}

// workersFlag is --workers: how many goroutines play a round's games (0,
// the default, for every core).
func workersFlag() cli.Flag {
	return &cli.IntFlag{Name: "workers", Usage: "concurrent workers playing the games", DefaultText: "all cores",
		Action: func(c *cli.Context, n int) error {
			if n < 1 {
				return usage(c.Command, "--workers must be at least 1 (got %d)", n)
			}
			return nil
		},
	}
}

// learning reads the flags of learningFlags.
func learning(c *cli.Context) train.Learning {
	return train.Learning{
		Method:      c.String("learner"),
		Hidden:      c.Int("hidden"),
		LR:          c.Float64("lr"),
		Epsilon:     train.Schedule{Start: c.Float64("epsilon"), End: c.Float64("epsilon-end"), Games: c.Int("epsilon-games")},
		Temperature: c.Float64("temperature"),
		Lambda:      c.Float64("lambda"),
	}
}

// window formats a trainer's window of games as ttt-rl's trainer does.
func window(rec game.Record) string {
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(rec.Games(), 1)) }
	return fmt.Sprintf("Wins: %d (%.1f%%), Losses: %d (%.1f%%), Ties: %d (%.1f%%)",
		rec.Wins, pct(rec.Wins), rec.Losses, pct(rec.Losses), rec.Draws, pct(rec.Draws))
}
