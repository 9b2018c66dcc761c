package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
	"ttt/league"
	"ttt/store"
)

// leagueCommand is `ttt league`, whose subcommands run the league and
// describe it.
func leagueCommand() *cli.Command {
	return &cli.Command{
		Name:        "league",
		Usage:       "run the self-play league, or describe it",
		UsageText:   "ttt league run|show [options]",
		Subcommands: []*cli.Command{leagueRunCommand(), leagueShowCommand()},
		Action:      showSubcommands,
	}
}

// leagueRunCommand is `ttt league run`.
func leagueRunCommand() *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "play league rounds: train, snapshot, evaluate, rate, commit",
		UsageText: `ttt league run [options]

   ttt league run --rounds 20               # a quick look
   ttt league run --duration 8h             # overnight
   ttt league run                           # until Ctrl-C; run again to resume
   ttt league run --game connect4 --db c4.db --duration 8h
   ttt league run --db mix.db --learners policy,tdlambda,table,selfplay-table
   ttt league run --game connect4 --db c4mix.db --learners policy,tdlambda --lr 0.01,policy=0.001

   Each round trains the learner (with several --learners, each method's
   in turn, a round each), stores a snapshot of it, plays the snapshot
   against a pool of --opponents members (random and perfect, or in
   Connect Four random, the tactician and the MCTS players around its
   rating; its parent, the best, a spread over the league's history, and
   those nearest to it in rating), updates the ratings and commits it all
   at once. A new league plays the game --game names, and keeps it;
   Connect Four leagues have their own defaults for the settings not
   given (--learners ntuple: an n-tuple network learning by TD(λ) in
   self-play, --lr 0.5, --epsilon 0.1 all along, no exploiter or drills).
   Ctrl-C abandons the round under way and exits with status 130; nothing
   committed is lost, and the next run goes on from the last committed round, with the settings the
   league was started with unless a flag says otherwise. One league run at
   a time per database (a second one is refused); the other commands work
   while it runs.`,
		Flags: perGame(append([]cli.Flag{
			dbFlag(),
			gameFlag(),
			&cli.IntFlag{Name: "rounds", Usage: "stop after this many rounds (0: no limit)", DefaultText: "no limit"},
			&cli.DurationFlag{Name: "duration", Usage: "start no round after this long, e.g. 8h (0: no limit)"},
			&cli.StringFlag{Name: "until", Usage: "tic-tac-toe: stop once the best is `perfect|unbeatable`"},
			&cli.IntFlag{Name: "patience", Usage: "stop when no snapshot of this run has become the best for this many rounds (0: never)", DefaultText: "never"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the rounds whose snapshot becomes the best, and their best's ladder games, with the first and last lines"},
			&cli.DurationFlag{Name: "heartbeat", Value: 30 * time.Second, Usage: "where the output is no terminal (a log file, a pipe), a line once the run has said nothing for this long: what it is doing (training, evaluating, the best's ladder games) and how far each has come, so that a long round is seen to go on (0: none)"},
			workersFlag(),
			&cli.StringFlag{Name: "search", Usage: "rate the league's best with each `SEARCH` around it too (several: ab8,mcts800), as a player of its own beside the network alone: " + search.Help() + "; a setting of the run, given on every run that should"},
			ladderIntervalFlag(),
		}, leagueFlags()...)),
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			cfg := league.Config{Rounds: c.Int("rounds"), Duration: c.Duration("duration"), Workers: c.Int("workers"), LadderInterval: c.Float64("ladder-interval")}
			learning(c, &cfg)
			if err := putFlags(c, &cfg, false); err != nil {
				return err
			}
			if c.String("search") != "" {
				for _, text := range strings.Split(c.String("search"), ",") {
					s, err := search.Parse(text)
					if err != nil {
						return usage(c.Command, "--search: %v", err)
					}
					cfg.Search = append(cfg.Search, s)
				}
			}
			stop, err := stopFlags(c)
			if err != nil {
				return err
			}
			return runLeagueRun(jobOf(c), cfg, givenFlags(c), stop)
		},
	}
}

// runLeagueRun opens (or makes) the job's league and plays its rounds
// with cfg, where given reports the settings the command line gave (by
// name, as league.Config.Settings names them): the others a league that
// exists keeps as it was started. The settings are resolved and checked
// once (league.Prepare).
func runLeagueRun(j *job, cfg league.Config, given func(setting string) bool, stop stopConditions) error {
	kit, err := j.leagueKit()
	if err != nil {
		return err
	}
	if err := j.checkUntil(stop.until, kit); err != nil {
		return err
	}
	// A league is read before its settings are resolved, where there is
	// one: a missing or empty file is made into one only once they pass.
	var db *store.DB
	if fi, err := os.Stat(j.path(j.db)); err == nil && fi.Size() > 0 {
		if db, err = j.openToRun(); err != nil {
			return err
		}
		defer db.Close()
		kit = agents.KitFor(db.Game()) // an older schema's, which leagueKit cannot read
	}
	start, err := league.Prepare(j.ctx, kit, db, cfg, given)
	if err != nil {
		return j.stoppedEarly(j.storedOrGiven(err, given, db != nil), db)
	}
	if db == nil {
		if db, err = j.openToRun(); err != nil {
			return err
		}
		defer db.Close()
	}
	defer debug.SetGCPercent(debug.SetGCPercent(league.GCPercent))
	return j.runLeague(db, start, stop)
}

// openToRun opens (or makes) the job's league to run it: it takes the
// league's lock and moves its ratings to its game's scale.
func (j *job) openToRun() (*store.DB, error) {
	db, err := j.openLeague(true)
	if err != nil {
		return nil, j.stoppedEarly(err, nil)
	}
	if err := db.Lock(); err != nil {
		db.Close()
		return nil, err
	}
	if err := j.toScale(db, j.Stderr, "ttt: "); err != nil {
		err = j.stoppedEarly(err, db)
		db.Close()
		return nil, err
	}
	return db, nil
}

// stoppedEarly is err, a run's failure before its first round, unless
// the run was stopped (Ctrl-C). Then, as for a round stopped, nothing of
// it is stored. It says so, and where the league stands (db, nil before
// the league is open), with exit status 130 (errInterrupted). The stop
// may come at any moment, in any read: the error of the read it broke
// ("context canceled") is not what the user is to see.
func (j *job) stoppedEarly(err error, db *store.DB) error {
	if j.ctx.Err() == nil {
		return err
	}
	if db == nil {
		fmt.Fprintln(j.Stdout, "stopped: interrupted while the league was being opened; no round was played")
		return errInterrupted
	}
	last, lerr := db.NewestRound(context.WithoutCancel(j.ctx))
	if lerr != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "stopped: interrupted before a round began; the league holds %s (run again to go on)\n", plural(int(last), "committed round"))
	return errInterrupted
}

// storedOrGiven is err, a setting out of range or one that cannot go
// with another: a usage error, said with flags, when the command line
// gave one of the settings at fault (given), which flags can mend, or
// when no league is stored (stored false); otherwise the fault is the
// file's, edited or damaged (store.ErrCorrupt), said with the settings'
// stored names, and no flag the user never typed is named.
func (j *job) storedOrGiven(err error, given func(setting string) bool, stored bool) error {
	se, ok := errors.AsType[*learn.SettingError](err)
	switch {
	case !ok:
		return err
	case !stored || slices.ContainsFunc(se.Settings, given):
		return j.usage("%v", flagged(err, flagOf))
	}
	return &renamed{err: fmt.Errorf("%w: %w", store.ErrCorrupt, err), msg: "the league's stored settings: " + err.Error()}
}

// sayStart writes a run's first line: whether it starts a league or
// resumes one (at which round), where, and with which settings; then
// each given setting that differs from the league's.
func (j *job) sayStart(db *store.DB, start league.Start) {
	title, with := db.Game().Title(), settingFlags(start.Config)
	if start.New {
		fmt.Fprintf(j.Stdout, "new %s league in %s, with %s\n", title, j.db, with)
	} else {
		fmt.Fprintf(j.Stdout, "resuming the %s league in %s after round %d, with %s\n", title, j.db, start.After, with)
	}
	for _, ch := range start.Changes {
		fmt.Fprintf(j.Stdout, "%s %s: the league was started with %s; it goes on with %[2]s\n", flagOf(ch.Name), ch.Now, ch.Was)
	}
}

// stopConditions are the run's conditions to stop on besides --rounds
// and --duration (--until, --patience), and --quiet.
type stopConditions struct {
	until     game.Class // the class the best must reach; 0 (beatable): none
	patience  int64
	quiet     bool
	heartbeat time.Duration // the time between the lines of a round's training, without a terminal; 0: none
}

// stopFlags reads a run's stop conditions.
func stopFlags(c *cli.Context) (stopConditions, error) {
	s := stopConditions{patience: int64(c.Int("patience")), quiet: c.Bool("quiet"), heartbeat: c.Duration("heartbeat")}
	if s.heartbeat < 0 {
		return s, usage(c.Command, "--heartbeat must not be negative (got %v)", s.heartbeat)
	}
	var err error
	if s.until, err = untilFlag(c); err != nil {
		return s, err
	}
	if s.patience < 0 {
		return s, usage(c.Command, "--patience must not be negative (got %d)", s.patience)
	}
	return s, nil
}

// progressEvery is how often a league run writes what it is doing into
// the league, for the dashboard: often enough that the page's "k of M
// games" moves, and one small write among a round's.
const progressEvery = 5 * time.Second

// runLeague plays the league's rounds, a line for each (with --quiet,
// for each round whose snapshot becomes the best), and a line at the end
// that says why the run stopped and what the league holds.
func (j *job) runLeague(db *store.DB, start league.Start, stop stopConditions) error {
	j.sayStart(db, start)
	cfg, w := start.Config, j.Stdout
	// The next round may train while a round is evaluated: Training is
	// then called beside the other hooks, and mu keeps the bar, the
	// heartbeat and the best whole.
	var mu sync.Mutex
	var bar progress
	var barRound int64 // the round the bar shows
	// Without a terminal, no bar: once the run has been silent for
	// --heartbeat, a line says what it is doing, at its next event or,
	// between events far apart (a Connect Four match against a strong
	// player), when the watch looks.
	beat := heartbeat{every: stop.heartbeat}
	beat.start(time.Now())
	var now doing
	say := func(format string, args ...any) {
		bar.println(w, format, args...)
		beat.start(time.Now())
	}
	pulse := func() { // with mu held
		if bar.bar == nil && beat.due(time.Now()) {
			if line := now.String(); line != "" {
				fmt.Fprintln(w, line)
			}
		}
	}
	if stop.heartbeat > 0 && !j.bars() {
		quit, watched := make(chan struct{}), make(chan struct{})
		defer func() { close(quit); <-watched }()
		go func() {
			defer close(watched)
			for {
				mu.Lock()
				pause := beat.wait(time.Now())
				mu.Unlock()
				select {
				case <-quit:
					return
				case <-time.After(pause):
				}
				mu.Lock()
				pulse()
				mu.Unlock()
			}
		}()
	}
	// What the run is doing goes into the league too, for the dashboard
	// (ttt serve reads the league alone): every progressEvery, or at the
	// heartbeat's pace where that is faster, while something is under
	// way and it has moved on.
	recorded := make(chan struct{})
	stopRecording := make(chan struct{})
	go func() {
		defer close(recorded)
		every := progressEvery
		if stop.heartbeat > 0 {
			every = min(every, max(stop.heartbeat, watchPause))
		}
		var last []byte
		for {
			select {
			case <-stopRecording:
				return
			case <-time.After(every):
			}
			mu.Lock()
			text, err := json.Marshal(now)
			mu.Unlock()
			if err != nil || string(text) == "{}" || bytes.Equal(text, last) {
				continue
			}
			// A write that fails (the run stopping, a full disk) loses
			// only what the page would show: the round's commit says
			// what went wrong with the league.
			if db.SetProgress(j.ctx, text, time.Now()) == nil {
				last = text
			}
		}
	}()
	defer func() { close(stopRecording); <-recorded }()
	played := 0
	quietShown := int64(0) // with --quiet, the last round whose line was printed
	var (
		first     int64         // this run's first round
		best      *league.Agent // the best after the latest round, read where a condition or --quiet needs it
		bestErr   error
		stoppedBy string // the condition that ended the run; "" for none
		abandoned int64  // the round that trained ahead and was abandoned; 0 for none
	)
	watch := stop.until != game.Beatable || stop.patience > 0 || stop.quiet
	// A league of several learners says whose turn each round was.
	snapshot := func(r league.Report) string {
		if len(cfg.Learners) > 1 {
			return r.Snapshot.Name + " " + r.Snapshot.Method
		}
		return r.Snapshot.Name
	}
	if stop.until != game.Beatable {
		// A league already there plays no round to find it out.
		best, err := league.Lookup(j.ctx, db, store.Best)
		if err == nil && best.Verify != nil && best.Class >= stop.until {
			fmt.Fprintf(w, "stopped: the best, %s, is %s already (--until %s); no round was played\n", best.Name, best.Class, stop.until)
			return nil
		}
		if err != nil && !errors.Is(err, store.ErrNoCheckpoints) {
			return err
		}
	}
	last, err := league.Run(j.ctx, db, cfg, league.Hooks{
		Loading: func(done, total int) {
			if bar.bar == nil {
				bar = j.progress(int64(total), "loading the league's results", "matches")
			}
			bar.set(int64(done))
		},
		Training: func(round int64, done, total int) {
			mu.Lock()
			defer mu.Unlock()
			if round != barRound {
				bar.finish()
				what := fmt.Sprintf("round %d: training", round)
				if stop.quiet && best != nil {
					// The one line a quiet run rewrites on a terminal.
					what = fmt.Sprintf("round %d: training; best %s (%s, Elo %s)", round, best.Name, best.Verdict(), eloText(best.Agent))
				}
				bar, barRound = j.progress(int64(total), what, "games"), round
				beat.start(time.Now())
			}
			bar.set(int64(done))
			now.training.set(round, done, total, time.Now())
			pulse()
		},
		Evaluating: func(round int64, done, total int) {
			mu.Lock()
			defer mu.Unlock()
			if now.training.round == round { // trained
				now.training.round = 0
			}
			now.evaluating.set(round, done, total, time.Now())
			pulse()
		},
		Laddering: func(round int64, best string, done, about int) {
			mu.Lock()
			defer mu.Unlock()
			now.laddering.set(round, done, about, time.Now())
			now.best = best
			pulse()
		},
		Ladder: func(l league.Laddered) {
			mu.Lock()
			defer mu.Unlock()
			now.laddering.round = 0
			if stop.quiet && quietShown != l.Round {
				return
			}
			say("round %d  %s", l.Round, ladderGames(l))
		},
		Round: func(r league.Report) {
			mu.Lock()
			defer mu.Unlock()
			if barRound <= r.Round { // not the next round's training, under way
				bar.finish()
				bar = progress{}
			}
			if now.training.round == r.Round { // a round without pools to play
				now.training.round = 0
			}
			now.evaluating.round = 0
			for _, d := range r.Diverged {
				say("round %d: %s", r.Round, d)
			}
			played++
			if first == 0 {
				first = r.Round
			}
			if watch {
				// The round is committed: its reading is not cancelled
				// with the run.
				best, bestErr = league.Lookup(context.WithoutCancel(j.ctx), db, store.Best)
			}
			if stop.quiet && (best == nil || best.ID != r.Snapshot.ID) {
				return
			}
			quietShown = r.Round
			fit := ""
			if r.Fit.Pending > 0 {
				fit = fmt.Sprintf("  (rating fit: %d agents left for the next round)", r.Fit.Pending)
			}
			cores := ""
			if r.Cores > 0 {
				cores = fmt.Sprintf("  cores %.1f", r.Cores)
			}
			say("round %d  %s  Elo %.0f [%.0f, %.0f]%s  %s%s  train %s games/s  eval %s games/s%s  elapsed %s%s%s",
				r.Round, snapshot(r), r.Rating.Elo, r.Rating.Lo, r.Rating.Hi, ladderElo(r.Ladder), factsText(r.Snapshot.Facts), ladderText(r),
				rate(r.TrainGames, r.TrainTime), rate(r.EvalGames, r.EvalTime), cores, r.Elapsed.Round(100*time.Millisecond), fit, floatText(r))
			for _, s := range r.Searched {
				say("round %d  %s joins: the best, searched  Elo %.0f [%.0f, %.0f]  %s",
					r.Round, s.Agent.Name, s.Rating.Elo, s.Rating.Lo, s.Rating.Hi, factsText(s.Agent.Facts))
			}
		},
		Stop: func(r league.Report) bool {
			switch {
			case !watch:
				return false
			case bestErr != nil:
				return true
			case stop.until != game.Beatable && best.Verify != nil && best.Class >= stop.until:
				stoppedBy = fmt.Sprintf("the best, %s, is %s (--until %s)", best.Name, best.Class, stop.until)
			case stop.patience > 0 && r.Round-max(int64(best.Generation), first-1) >= stop.patience:
				stoppedBy = fmt.Sprintf("no snapshot of the last %s became the best, %s (--patience %d)",
					plural(int(stop.patience), "round"), best.Name, stop.patience)
			default:
				return false
			}
			return true
		},
		Abandoned: func(round int64) { abandoned = round },
	})
	mu.Lock()
	now = doing{} // nothing more for the watch to say
	mu.Unlock()
	bar.finish()
	// A stop by a condition or an error cancels the round training ahead,
	// and says so: its bar was on the screen.
	ahead := ""
	if abandoned > 0 {
		ahead = fmt.Sprintf("; round %d, which trained ahead, was abandoned", abandoned)
	}
	if err == nil && bestErr != nil {
		return fmt.Errorf("%s: reading the best after round %d: %w; the league holds %s", j.db, last, bestErr, plural(int(last), "committed round"))
	}
	var why string
	switch {
	case errors.Is(err, context.Canceled):
		why = "the round under way was abandoned"
	case err != nil:
		return fmt.Errorf("%s: %w; the round under way was not stored%s, the league holds %s", j.db, flagged(err, flagOf), ahead, plural(int(last), "committed round"))
	case stoppedBy != "":
		why = stoppedBy + ahead
	case cfg.Rounds > 0 && played == cfg.Rounds:
		why = fmt.Sprintf("%s played (--rounds)", plural(played, "round"))
	case played == 0:
		why = fmt.Sprintf("--duration %v ran out before a round could start", cfg.Duration)
	default:
		why = fmt.Sprintf("%s played in --duration %v", plural(played, "round"), cfg.Duration)
	}
	fmt.Fprintf(w, "stopped: %s; the league holds %s (run again to go on)\n", why, plural(int(last), "committed round"))
	if errors.Is(err, context.Canceled) {
		return errInterrupted
	}
	return nil
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

// plural writes n things: 1 round, 2 rounds.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// ladderText is what a round's line says of its snapshot's games against
// the built-in players but random, in a game that has no exhaustive check
// (Connect Four): its score as first and as second player against each it
// met, "  vs tactician X 80% O 61%, mcts-100 X 92% O 75%". A tic-tac-toe
// line has its exact odds against random and its class instead.
func ladderText(r league.Report) string {
	if r.Snapshot.Shares == nil {
		return ""
	}
	var parts []string
	for _, s := range r.Builtins {
		if s.Opponent != agents.Random {
			parts = append(parts, fmt.Sprintf("%s X %.0f%% O %.0f%%", s.Opponent, 100*s.First.Score(), 100*s.Second.Score()))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "  vs " + strings.Join(parts, ", ")
}

// ladderElo is what a round's line says of its snapshot's ladder
// rating: "  ladder 472 [449, 495]"; nothing for one that has none.
func ladderElo(l league.LadderRating) string {
	if !l.Rated {
		return ""
	}
	return fmt.Sprintf("  ladder %.0f [%.0f, %.0f]", l.Rating.Elo, l.Rating.Lo, l.Rating.Hi)
}

// floatText is what a round's line says of how far the league's Elo
// floats from its ladder rating at the best, as the round committed
// them: "  float +14.2".
func floatText(r league.Report) string {
	if r.Best == nil || !r.BestLadder.Rated || r.Best.Standing == nil {
		return ""
	}
	return "  float " + signed(league.Float(r.Best, r.BestLadder.Rating))
}

// ladderGames is the line of the best's extra games against the ladder
// after a round, once they end, after the round's number: "best
// checkpoint-12: 432 ladder games in 1.2s, most v mcts-100, ladder 480
// [451, 509]  float +14.2".
func ladderGames(l league.Laddered) string {
	out := fmt.Sprintf("best %s: %d ladder games in %s, most v %s, ladder %.0f [%.0f, %.0f]",
		l.Best.Name, l.Ladder.Extra, l.Ladder.Took.Round(100*time.Millisecond), l.Ladder.Opponent, l.Ladder.Rating.Elo, l.Ladder.Rating.Lo, l.Ladder.Rating.Hi)
	if l.Best.Standing != nil {
		out += "  float " + signed(league.Float(l.Best, l.Ladder.Rating))
	}
	return out
}

// signed writes an Elo difference with its sign: +14.2, -3.0.
func signed(d float64) string { return fmt.Sprintf("%+.1f", d) }

// factsText is what a round's line says of its snapshot's checks:
// tic-tac-toe's scores against random and class, Connect Four's shares of
// optimal moves on its two sets, the harder first.
func factsText(f game.Facts) string {
	if s := f.Shares; s != nil {
		random := ""
		if f.Random != nil {
			random = fmt.Sprintf("random set %.1f%%, ", 100*f.Random.Share())
		}
		return fmt.Sprintf("optimal moves: %stactical set %.1f%% (early %.1f%%, middle %.1f%%, late %.1f%%)",
			random, 100*s.All.Share(), 100*s.Early.Share(), 100*s.Middle.Share(), 100*s.Late.Share())
	}
	return fmt.Sprintf("vs random X %.1f%% O %.1f%%  %s", 100*f.VsRandom[0].Score(), 100*f.VsRandom[1].Score(), f.Class)
}

// ladderIntervalFlag is --ladder-interval: a finite number of Elo, more
// than 0.
func ladderIntervalFlag() cli.Flag {
	f := floatFlag("ladder-interval", league.LadderHalf, "the widest a new best's ladder interval may be, either side of its rating, in `ELO`: it plays extra games against the built-in players until it is this narrow, games that grow as the square of the narrowing (60 takes about a quarter of 30's); a setting of the run").(*cli.Float64Flag)
	finite := f.Action
	f.Action = func(c *cli.Context, v float64) error {
		if err := finite(c, v); err != nil {
			return err
		}
		if v <= 0 {
			return usage(c.Command, "--ladder-interval must be more than 0 Elo (got %v)", v)
		}
		return nil
	}
	return f
}
