package commands

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/train"
	"ttt/league"
	"ttt/store"
)

// trainCommand is `ttt train`: one learner, trained the way its
// document teaches (ttt-rl's network and the CodeProject article's table
// against a random opponent, Sutton and Barto's table, TD(λ) and the
// n-tuple network in self-play), written to a file.
func trainCommand() *cli.Command {
	return &cli.Command{
		Name:  "train",
		Usage: "train a learner as its document does (ttt-rl's network against a random opponent by default)",
		UsageText: `ttt train [options]

   ttt train --games 2000000 --seed 3 -o n.bin
   ttt train -o ttt_nn.bin --side O     # 18-input file for ttt-rl's play program
   ttt train --db league.db             # the model joins the league as a baseline agent
   ttt train --method table --until perfect -o table.bin
   ttt train --method selfplay-table --until unbeatable -o book.bin
   ttt train --game connect4 --method ntuple --games 200000 -o c4.bin

   --method policy (the default) and table train against a random
   opponent, selfplay-table, tdlambda and ntuple against themselves. Every
   method learns tic-tac-toe, and all but the tables Connect Four
   (--game). Exploration falls from --epsilon 0.2 to 0 over the first half
   of the games, as in ttt-rl; where --epsilon and --lr do not say
   otherwise, table explores at 0.3 and selfplay-table at 0.01, all
   along, and selfplay-table's step size is 0.1, as their documents do;
   the other settings are each method's own for the game (ttt league
   show prints a league's). With --until (tic-tac-toe), every
   --check-every games the learner, as a snapshot of it would play, is
   checked against every opponent line, and training stops at the first
   check it passes; --games is then the most it may play, and a run that
   does not get there within them ends with status 1 (the model is saved
   all the same). With --db (or TTT_DB set), the model is stored in the
   league, which must play its game, as a baseline agent, as well as
   written to -o, if given.`,
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "games", Value: trainDefaults.Games, Usage: "training games (with --until: at most)"},
			&cli.StringFlag{Name: "learner", Aliases: []string{"method"}, Value: trainDefaults.Method.Name, Usage: "how it learns: " + methods()},
			floatFlag("lr", trainDefaults.LR, "learning rate (the step size of selfplay-table, 0.1 unless given); each method's own where not given"),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the model to `FILE`"},
			&cli.StringFlag{Name: "side", Usage: "with -o: write a file of one side, `X|O` (a network: 18 inputs, ttt-rl's layout)"},
			&cli.BoolFlag{Name: "force", Usage: "with -o: replace a file of another layout"},
			&cli.StringFlag{Name: "until", Usage: "stop at the first check that finds the learner `unbeatable|perfect` (tic-tac-toe)"},
			&cli.IntFlag{Name: "check-every", Value: trainDefaults.CheckEvery, Usage: "with --until: training games between two checks"},
			&cli.StringFlag{Name: gameFlagName, Usage: "the game to learn, `tictactoe|connect4` (with --db: the league's)", DefaultText: agents.Games[0].Name()},
			// Not dbFlag(): train uses no database unless told, so it
			// shows no default.
			&cli.StringFlag{Name: dbFlagName, Usage: "store the model in the league database `FILE` too (TTT_DB when set)"},
		}, learningFlags(trainDefaults.Settings, "half of --games")...),
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
// together; the settings are made for the game in runTrain.
func trainFlags(c *cli.Context) (trainOptions, error) {
	if err := checkArgs(c); err != nil {
		return trainOptions{}, err
	}
	o := trainOptions{out: c.String("output"), force: c.Bool("force"), given: givenFlags(c)}
	_, o.toLeague = dbGiven(c)
	switch {
	case o.out == "" && !o.toLeague:
		return o, usage(c.Command, "say where the model goes: -o FILE and/or --db FILE")
	case o.out == "-":
		return o, usage(c.Command, "-o -: train prints its progress on standard output; write the model to a file")
	}
	var err error
	if o.side, err = sideFlag(c); err != nil {
		return o, err
	}
	m, err := agents.MethodOf(c.String("learner"))
	switch {
	case c.String("learner") == "mcts":
		return o, usage(c.Command, "--method mcts: %s", learn.NoLearningMCTS)
	case err != nil:
		return o, usage(c.Command, "--method must be one of %s (got %q)", strings.Join(agents.MethodNames(), ", "), c.String("learner"))
	}
	var flags league.Config
	learning(c, &flags)
	o.cfg = train.Plan{Method: m, Games: c.Int("games"), Seed: flags.Seed, CheckEvery: c.Int("check-every"), Settings: flags.Settings}
	o.cfg.LR = c.Float64("lr")
	if o.cfg.Until, err = untilFlag(c); err != nil {
		return o, err
	}
	return o, nil
}

// trainOptions are ttt train's flags.
type trainOptions struct {
	cfg      train.Plan
	given    func(setting string) bool
	out      string // -o, "" for none
	toLeague bool   // store the model in the job's league
	side     *game.Side
	force    bool
}

// settings returns o.cfg for kit's game: the flags given, the method's
// settings for the game where they say nothing, with train's own
// exploration (ttt-rl's: from 0.2 to 0 over half the games), and the
// method's document where it fixes a setting.
func (o trainOptions) settings(kit *agents.Kit) train.Plan {
	cfg, flags := o.cfg, o.cfg.Settings
	cfg.Game = kit.Game
	cfg.Settings = cfg.Method.Defaults(kit.Game)
	cfg.Epsilon = learn.Schedule{Start: learn.DefaultEpsilon, End: 0, Games: cfg.Games / 2}
	if o.given("lr") {
		cfg.LR = flags.LR
	}
	if o.given("epsilon") {
		cfg.Epsilon.Start = flags.Epsilon.Start
	}
	if o.given("epsilon_end") {
		cfg.Epsilon.End = flags.Epsilon.End
	}
	if o.given("epsilon_games") {
		cfg.Epsilon.Games = flags.Epsilon.Games
	}
	for _, st := range cfg.Method.Own {
		if o.given(st.Name) {
			cfg.Settings = cfg.Settings.With(st.Name, flags.Own[st.Name])
		}
	}
	if cfg.Method.Tune != nil {
		cfg.Settings = cfg.Method.Tune(cfg.Settings, o.given)
	}
	cfg.Settings.Method = cfg.Method.Name
	return cfg
}

// runTrain trains as o says, and writes what it trained to o.out and to
// the job's league.
func runTrain(j *job, o trainOptions) error {
	kit, err := j.leagueKit()
	if err != nil {
		return err
	}
	if err := agents.Unread([]*learn.Method{o.cfg.Method}, o.given); err != nil {
		return j.usage("%v", flagged(err, flagOf))
	}
	cfg := o.settings(kit)
	if err := cfg.Validate(); err != nil {
		return j.usage("%v", flagged(err, trainFlagOf))
	}
	// Both destinations are opened before training: a path that cannot
	// be written, or holds a file of another layout, fails now, not
	// after the games. A model not yet trained has the layout of the
	// trained one.
	var file *outputFile
	if o.out != "" {
		probe, err := cfg.Method.New(kit.Game, cfg.Settings, rand.New(rand.NewPCG(0, 0)))
		if err != nil {
			return err
		}
		layout, err := modelFile(probe.Model(), o.side)
		if err != nil {
			return j.usage("--side: a %s", strings.TrimPrefix(err.Error(), "is a "))
		}
		if file, err = j.createOutput(o.out); err != nil {
			return err
		}
		defer file.abort()
		if err := checkLayout(file, layout, o.force); err != nil {
			return err
		}
	}
	var db *store.DB
	if o.toLeague {
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
	what := strings.ToUpper(cfg.Method.Model[:1]) + cfg.Method.Model[1:]
	if db != nil {
		a := league.Measure(kit, &store.Agent{Kind: store.Baseline, TrainGames: int64(games),
			Method: cfg.Method.Name, Weights: model.Bytes(), Hidden: model.Layout().Hidden}, model)
		if err := db.AddAgent(j.ctx, a); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s stored as agent %d (%s) in %s\n", what, a.ID, a.Name, j.db)
	}
	if file != nil {
		data, _ := modelFile(model, o.side) // the probe had a file of that side
		if err := file.commit(data); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s saved to %s%s\n", what, o.out, file.replaced())
	}
	if cfg.Until != game.Beatable && reached == nil {
		return fmt.Errorf("not %s after %d games, the most --games allows: the last check found it %s", cfg.Until, games, last.Class)
	}
	return nil
}

// trainWithProgress trains as cfg says, with a progress bar on a
// terminal and ttt-rl's lines: a tally every so many games, and with
// --until a line for each change of class. It returns what it trained,
// the games it played, the check that found the learner good enough
// (nil for none) and the latest check.
func (j *job) trainWithProgress(cfg train.Plan) (model learn.Model, games int, reached, last *train.Check, err error) {
	w := j.Stdout
	most := ""
	if cfg.Until != game.Beatable {
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
// line.
func trainee(cfg train.Plan) string {
	opp := "against a random opponent"
	if cfg.Method.SelfPlay {
		opp = "in self-play"
	}
	return fmt.Sprintf("a %s %s (%s) %s", cfg.Game.Title(), cfg.Method.Model, cfg.Method.Name, opp)
}

// untilFlag reads --until: the class a learner must reach, or
// game.Beatable for none.
func untilFlag(c *cli.Context) (game.Class, error) {
	switch u := c.String("until"); u {
	case "":
		return game.Beatable, nil
	case "perfect":
		return game.Perfect, nil
	case "unbeatable":
		return game.Unbeatable, nil
	default:
		return game.Beatable, usage(c.Command, "--until must be perfect or unbeatable (got %q)", u)
	}
}

// checkUntil refuses an --until for kit's game where it has no
// exhaustive check to pass.
func (j *job) checkUntil(until game.Class, kit *agents.Kit) error {
	if until != game.Beatable && kit.Compile == nil {
		return j.usage("--until %s: %s has no exhaustive check; stop with --patience", until, kit.Title())
	}
	return nil
}

// trainDefaults are train's settings where no flag says otherwise.
var trainDefaults = train.Default(150000)

// methods says what each method of learning is, for the help of train's
// --method and league run's --learners.
func methods() string {
	var out []string
	for _, m := range agents.Methods {
		out = append(out, fmt.Sprintf("%s (%s)", m.Name, m.Summary))
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// learningFlags are the settings of a learner, shared by train and
// league run, with the defaults of the one or the other: those of every
// method, then each method's own (agents.Settings), whose defaults are
// those of the games' default methods.
func learningFlags(d learn.Settings, decayDefault string) []cli.Flag {
	var flags []cli.Flag
	for _, st := range league.Settings {
		if st.Learner {
			f := settingFlag(st, league.Config{Seed: 1, Settings: d})
			if f, ok := f.(*cli.IntFlag); ok && st.Name == "epsilon_games" {
				f.DefaultText = decayDefault
			}
			flags = append(flags, f)
		}
	}
	for _, st := range agents.Settings() {
		name := strings.TrimPrefix(flagOf(st.Name), "--")
		usage := fmt.Sprintf("%s (%s)", st.Usage, strings.Join(agents.Readers(st), ", "))
		var defaults []string
		for _, k := range agents.Games {
			if m := defaultReader(k, st); m != nil {
				defaults = append(defaults, st.Text(m.Defaults(k.Game).Own[st.Name]))
			}
		}
		text := perGameText(defaults)
		if st.Whole {
			flags = append(flags, &cli.IntFlag{Name: name, Usage: usage, DefaultText: text})
		} else {
			f := floatFlag(name, 0, usage).(*cli.Float64Flag)
			f.DefaultText = text
			flags = append(flags, f)
		}
	}
	return flags
}

// defaultReader is the method whose defaults in kit's game a flag of st shows:
// the game's default method where it reads st, else the first that does.
func defaultReader(kit *agents.Kit, st *learn.Setting) *learn.Method {
	if slices.Contains(kit.Learner.Own, st) {
		return kit.Learner
	}
	for _, m := range agents.Methods {
		if slices.Contains(m.Own, st) && (m.CanLearn == nil || m.CanLearn(kit.Game) == nil) {
			return m
		}
	}
	return nil
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

// learning reads the flags of learningFlags into cfg: the seed, the
// exploration, and the settings of the methods' own that the command
// line gives. The learning rate is each command's own flag.
func learning(c *cli.Context, cfg *league.Config) {
	putFlags(c, cfg, true) // numbers, which their flags' types made valid
	cfg.Own = map[string]float64{}
	for _, st := range agents.Settings() {
		name := strings.TrimPrefix(flagOf(st.Name), "--")
		if !c.IsSet(name) {
			continue // ForGame or the method's defaults give it
		}
		if st.Whole {
			cfg.Own[st.Name] = float64(c.Int(name))
		} else {
			cfg.Own[st.Name] = c.Float64(name)
		}
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
