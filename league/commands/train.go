package commands

import (
	"fmt"
	"math"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/agents/train"
	"ttt/agents/verify"
	"ttt/league"
	"ttt/store"
)

// trainCommand is `ttt train`: one learner of tic-tac-toe, trained the
// way its document teaches (ttt-rl's network and the CodeProject
// article's table against a random opponent, Sutton and Barto's table
// and TD(λ) in self-play), written to a file.
func trainCommand() *cli.Command {
	return &cli.Command{
		Name:  "train",
		Usage: "train a learner as its document does (ttt-rl's network against a random opponent by default)",
		UsageText: `ttt train [options]

   ttt train --games 2000000 --seed 3 -o n.bin
   ttt train -o ttt_nn.bin --side O     # 18-input file for ttt-rl's play program
   ttt train --db league.db             # the net joins the league as a baseline agent
   ttt train --method table --until perfect -o table.bin
   ttt train --method selfplay-table --until unbeatable -o book.bin

   --method policy (the default) and table train against a random
   opponent, selfplay-table and tdlambda against themselves. Where --epsilon
   and --lr do not say otherwise, table explores at 0.3 and selfplay-table
   at 0.01, all along, and selfplay-table's step size is 0.1, as their
   documents do. With --until, every --check-every games the learner, as
   a snapshot of it would play, is checked against every opponent line,
   and training stops at the first check it passes; --games is then the
   most it may play, and a run that does not get there within them ends
   with status 1 (the net or table is saved all the same). With --db (or
   TTT_DB set), the net or table is stored in the league, a tic-tac-toe
   one, as a baseline agent, as well as written to -o, if given.`,
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "games", Value: trainDefaults.Games, Usage: "training games (with --until: at most)"},
			&cli.StringFlag{Name: "learner", Aliases: []string{"method"}, Value: trainDefaults.Method, Usage: "how it learns: " + methods},
			floatFlag("lr", trainDefaults.LR, "learning rate (the step size of selfplay-table, 0.1 unless given)"),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the net or table to `FILE`"},
			&cli.StringFlag{Name: "side", Usage: "with -o: fold the side input for `X|O` and write 18 inputs (a network)"},
			&cli.BoolFlag{Name: "force", Usage: "with -o: replace a file of another layout"},
			&cli.StringFlag{Name: "until", Usage: "stop at the first check that finds the learner `unbeatable|perfect`"},
			&cli.IntFlag{Name: "check-every", Value: trainDefaults.CheckEvery, Usage: "with --until: training games between two checks"},
			// Not dbFlag(): train uses no database unless told, so it
			// shows no default.
			&cli.StringFlag{Name: dbFlagName, Usage: "store the net or table in the league database `FILE` too (TTT_DB when set)"},
		}, learningFlags(trainDefaults.Learning, "half of --games")...),
		Action: func(c *cli.Context) error {
			o, err := trainFlags(c)
			if err != nil {
				return err
			}
			return runTrain(jobOf(c), o)
		},
	}
}

// trainFlags reads ttt train's command line, and refuses what cannot go
// together.
func trainFlags(c *cli.Context) (trainOptions, error) {
	if err := checkArgs(c); err != nil {
		return trainOptions{}, err
	}
	o := trainOptions{out: c.String("output"), folded: c.String("side") != "", force: c.Bool("force")}
	_, o.toLeague = dbGiven(c)
	switch {
	case o.out == "" && !o.toLeague:
		return o, usage(c.Command, "say where the net goes: -o FILE and/or --db FILE")
	case o.out == "-":
		return o, usage(c.Command, "-o -: train prints its progress on standard output; write the net to a file")
	}
	var err error
	if o.write, err = weightWriter(c); err != nil {
		return o, err
	}
	l := learning(c)
	l.Method, l.LR = c.String("learner"), c.Float64("lr")
	o.cfg = train.Plan{Games: c.Int("games"), Seed: c.Uint64("seed"), CheckEvery: c.Int("check-every"),
		Learning: l.ForMethod(givenFlags(c))}
	if !c.IsSet("epsilon-games") {
		o.cfg.Epsilon.Games = o.cfg.Games / 2
	}
	if o.cfg.Until, err = untilFlag(c); err != nil {
		return o, err
	}
	if err := o.cfg.Validate(); err != nil {
		return o, usage(c.Command, "%v", flagged(err, trainFlagOf))
	}
	if train.IsTable(o.cfg.Method) && o.folded {
		return o, usage(c.Command, "--side folds a network's side input; a table plays both sides")
	}
	return o, nil
}

// trainOptions are ttt train's flags.
type trainOptions struct {
	cfg      train.Plan
	out      string // -o, "" for none
	toLeague bool   // store the net or table in the job's league
	write    func(*nn.Net) []byte
	folded   bool // --side: write the net folded for one side
	force    bool
}

// runTrain trains as o.cfg says, and writes what it trained to o.out
// and to the job's league.
func runTrain(j *job, o trainOptions) error {
	cfg, isTable := o.cfg, train.IsTable(o.cfg.Method)
	// Both destinations are opened before training: a path that cannot
	// be written fails now, not after the games.
	var file *outputFile
	if o.out != "" {
		var err error
		if file, err = j.createOutput(o.out); err != nil {
			return err
		}
		defer file.abort()
		if isTable {
			err = checkTableLayout(file, o.force)
		} else {
			inputs := agents.TicTacToe.Game.Inputs()
			if o.folded {
				inputs-- // the side input, folded
			}
			err = checkLayout(file, agents.TicTacToe.Game, inputs, cfg.Hidden, o.force)
		}
		if err != nil {
			return err
		}
	}
	var db *store.DB
	if o.toLeague {
		// What train makes plays tic-tac-toe: a league of another game
		// could not read it back. It is refused before the league is
		// opened to write (and perhaps upgraded).
		kit, err := j.leagueKit()
		if err != nil {
			return err
		}
		if kit != agents.TicTacToe {
			return fmt.Errorf("the league in %s plays %s, and train makes tic-tac-toe players: train %s networks with ttt league run", j.db, kit.Title(), kit.Title())
		}
		if db, err = j.openLeague(true); err != nil {
			return err
		}
		defer db.Close()
		// Opening may have made the database at -o's path, by a name that
		// createOutput could not tell (a link to it).
		if file != nil {
			if err := file.check(); err != nil {
				return err
			}
		}
	}

	model, games, reached, last, err := j.trainWithProgress(cfg)
	if err != nil {
		return err
	}
	w := j.Stdout
	what := "Network"
	if isTable {
		what = fmt.Sprintf("Table of %d values", model.Table.Len())
	}
	if db != nil {
		a := league.Describe(agents.TicTacToe, &store.Agent{Kind: store.Baseline, TrainGames: int64(games),
			Method: cfg.Method, Net: model.Net, Table: model.Table})
		if err := db.AddAgent(j.ctx, a); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s stored as agent %d (%s) in %s\n", what, a.ID, a.Name, j.db)
	}
	if file != nil {
		var data []byte
		if isTable {
			data = model.Table.Bytes()
		} else {
			data = o.write(model.Net)
		}
		if err := file.commit(data); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s saved to %s%s\n", what, o.out, file.replaced())
	}
	if cfg.Until != verify.Beatable && reached == nil {
		return fmt.Errorf("not %s after %d games, the most --games allows: the last check found it %s", cfg.Until, games, last.Class)
	}
	return nil
}

// trainWithProgress trains as cfg says, with a progress bar on a
// terminal and ttt-rl's lines: a tally every so many games, and with
// --until a line for each change of class. It returns what it trained,
// the games it played, the check that found the learner good enough
// (nil for none) and the latest check.
func (j *job) trainWithProgress(cfg train.Plan) (model train.Model, games int, reached, last *train.Check, err error) {
	w := j.Stdout
	most := ""
	if cfg.Until != verify.Beatable {
		most = "at most "
	}
	fmt.Fprintf(w, "Training %s for %s%d games (seed %d)\n", trainee(cfg), most, cfg.Games, cfg.Seed)
	bar := j.progress(int64(cfg.Games), "training", "games")
	start := time.Now()
	model, err = train.Run(j.ctx, cfg, func(p train.Progress) {
		bar.set(int64(p.Games))
		games = p.Games
		if p.Check != nil {
			// A line when the class changes, so that the first unbeatable
			// and the first perfect snapshot show with their games and
			// time.
			if last == nil || p.Check.Class != last.Class {
				bar.println(w, "Games: %d, %.1fs: %s (optimal moves X %.1f%%, O %.1f%%)", p.Games, time.Since(start).Seconds(),
					p.Check.Class, 100*p.Check.X.OptimalShare(), 100*p.Check.O.OptimalShare())
			}
			last = p.Check
			if p.Check.Class >= cfg.Until {
				reached = p.Check
			}
		}
		if p.Window != nil {
			bar.println(w, "Games: %d, %s, epsilon %.3f", p.Games, window(*p.Window), p.Epsilon)
		}
	})
	bar.finish()
	if err != nil {
		return model, games, nil, nil, fmt.Errorf("training stopped: %w", err)
	}
	fmt.Fprintf(w, "Training complete in %.1fs\n", time.Since(start).Seconds())
	if reached != nil {
		fmt.Fprintf(w, "Reached %s after %d games\n", reached.Class, games)
	}
	return model, games, reached, last, nil
}

// trainee describes what cfg trains, and against whom, for train's first
// line. A policy net's line is ttt-rl's trainer's.
func trainee(cfg train.Plan) string {
	switch cfg.Method {
	case train.MethodTable:
		return "a table of values (" + tableLearner(cfg.Method) + ") against a random opponent"
	case train.MethodSelfPlayTable:
		return "a table of values (" + tableLearner(cfg.Method) + ") in self-play"
	case train.MethodTDLambda:
		return fmt.Sprintf("a %d-hidden value network by TD(λ) in self-play", cfg.Hidden)
	}
	return fmt.Sprintf("a %d-hidden network against a random opponent", cfg.Hidden)
}

// tableLearner names whose learner a table of method (table or
// selfplay-table) is: the two fill the same kind of table.
func tableLearner(method string) string {
	if method == train.MethodSelfPlayTable {
		return "Sutton and Barto's learner"
	}
	return "the CodeProject article's learner"
}

// untilFlag reads --until: the class a learner must reach, or
// verify.Beatable for none.
func untilFlag(c *cli.Context) (verify.Class, error) {
	switch u := c.String("until"); u {
	case "":
		return verify.Beatable, nil
	case "perfect":
		return verify.Perfect, nil
	case "unbeatable":
		return verify.Unbeatable, nil
	default:
		return verify.Beatable, usage(c.Command, "--until must be perfect or unbeatable (got %q)", u)
	}
}

// checkUntil refuses an --until for kit's game where it has no
// exhaustive check to pass.
func (j *job) checkUntil(until verify.Class, kit *agents.Kit) error {
	if until != verify.Beatable && kit.Compile == nil {
		return j.usage("--until %s: %s has no exhaustive check; stop with --patience", until, kit.Title())
	}
	return nil
}

// trainDefaults are train's settings where no flag says otherwise.
var trainDefaults = train.Default(150000)

// methods says what each method of learning is, for the help of train's
// --method and league run's --learners.
const methods = "policy (ttt-rl's rule: a policy net, reinforced by the game's result), tdlambda (a value net moving to the best afterstate, learning by TD(λ)), table (the CodeProject article's table of values; tic-tac-toe only) or selfplay-table (Sutton and Barto's; tic-tac-toe only)"

// learningFlags are the settings of a learner, shared by train and
// league run, with the defaults of the one or the other.
func learningFlags(d train.Learning, decayDefault string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "hidden", Value: d.Hidden, Usage: "hidden units of a new network"},
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

// learning reads the flags of learningFlags; the learning rate is each
// command's own flag.
func learning(c *cli.Context) train.Learning {
	return train.Learning{
		Hidden:      c.Int("hidden"),
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

// trainFlagOf is the flag of ttt train that gives a setting: --method
// chooses the learner, as the documents name their methods.
func trainFlagOf(setting string) string {
	if setting == "learner" {
		return "--method"
	}
	return flagOf(setting)
}
