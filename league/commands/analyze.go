package commands

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league"
)

// analyzeCommand is `ttt analyze`: the exact value of every move.
func analyzeCommand() *cli.Command {
	return &cli.Command{
		Name:  "analyze",
		Usage: "the exact value of every legal move after the moves given",
		UsageText: `ttt analyze [options] MOVES

   ttt analyze 408                      # tic-tac-toe after X 4, O 0, X 8
   ttt analyze --game connect4 4453     # Connect Four after columns 4, 4, 5, 3
   ttt analyze --game connect4 ''       # the first move of Connect Four

   MOVES are the moves from the start of the game, one character each: the
   squares 0-8 of tic-tac-toe, the columns 1-7 of Connect Four (spaces and
   commas between them are allowed). For each legal move, the value for the
   side to move with perfect play on both sides after it (win, draw or
   loss) and in how many plies, that move included, a won or lost game
   ends. Tic-tac-toe is looked up; Connect Four is solved, which takes
   milliseconds late in the game and minutes for the first moves: after
   --time of processor time (10 seconds unless given; 0 for no bound),
   which a busy machine makes longer in wall time, it prints the moves
   solved so far, the centre first, and the others as unknown.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: gameFlagName, Value: agents.Games[0].Name(), Usage: "the game, `" + gameNames() + "`"},
			&cli.DurationFlag{Name: "time", Value: 10 * time.Second, Usage: "solve for at most this much processor time, e.g. 2m (0: until every move is solved)"},
			formatFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, "MOVES"); err != nil {
				return err
			}
			if err := checkFormat(c); err != nil {
				return err
			}
			kit, err := agents.KitOf(c.String(gameFlagName))
			if err != nil {
				return usage(c.Command, "--game: %v", err)
			}
			if c.Duration("time") < 0 {
				return usage(c.Command, "--time must not be negative (got %v)", c.Duration("time"))
			}
			return runAnalyze(jobOf(c), kit, c.Args().First(), c.Duration("time"), c.String(formatFlagName))
		},
	}
}

// runAnalyze prints the value of every legal move of kit's game after
// moves, in format, solving for at most bound (0: no bound).
func runAnalyze(j *job, kit *agents.Kit, moves string, bound time.Duration, format string) error {
	p, err := parseMoves(kit, moves)
	if err != nil {
		return j.usage("%v", err)
	}
	if r := kit.Result(p); r != game.Ongoing {
		return j.usage("moves %q: the game is over (%s): there is no move to analyze", moves, r)
	}
	ctx := j.ctx
	if bound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = cpuBound(ctx, bound)
		defer cancel()
	}
	if !kit.Solved && isTerminal(j.Stderr) {
		fmt.Fprintf(j.Stderr, "solving %d moves (%s)...\n", bits.OnesCount64(kit.Legal(p)), boundText(bound))
	}
	outcomes, err := kit.Analyze(ctx, p)
	timedOut := err != nil && ctx.Err() != nil && j.ctx.Err() == nil // the bound, not Ctrl-C
	if err != nil && !timedOut {
		return fmt.Errorf("analysis stopped: %w", err)
	}
	l := listing{columns: []string{"move", "value", "plies"}}
	var unknown []string
	for legal := kit.Legal(p); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		o, ok := outcomes[m]
		var plies any
		switch {
		case !ok:
			unknown = append(unknown, kit.FormatMove(m))
			l.rows = append(l.rows, []any{kit.FormatMove(m), "unknown", nil})
			continue
		case o.Value != game.Draw:
			plies = o.Plies
		}
		l.rows = append(l.rows, []any{kit.FormatMove(m), o.Value.String(), plies})
	}
	if format == "table" {
		fmt.Fprintf(j.Stdout, "%s\n%s to move:\n", kit.Format(p), kit.ToMove(p))
	}
	if err := l.write(j.Stdout, format); err != nil {
		return err
	}
	if len(unknown) > 0 {
		what := kit.MoveName()
		if len(unknown) > 1 {
			what += "s"
		}
		fmt.Fprintf(j.Stderr, "not solved within %v of processor time: %s %s (a longer --time, or --time 0, solves them)\n", bound, what, strings.Join(unknown, ", "))
	}
	return nil
}

// cpuBound returns a context that ctx's cancellation ends, and that ends
// itself once this process has used bound of processor time from now: a
// solver's bound in the work it did, which a busy machine does not
// shorten as it does a bound in wall time (a solver given 45 s on a
// machine of load 30 got 0.34 s of processor time). Where the processor
// time cannot be read, the bound is wall time.
func cpuBound(ctx context.Context, bound time.Duration) (context.Context, context.CancelFunc) {
	start := league.ProcessCPU()
	if start == 0 {
		return context.WithTimeout(ctx, bound)
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		// A look every few milliseconds costs a system call: nothing
		// beside a solver's work, and a bound's error is that much.
		tick := time.NewTicker(min(bound/10+time.Millisecond, 20*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if league.ProcessCPU()-start >= bound {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}

// boundText says an analysis's bound: "at most 10s", or none.
func boundText(bound time.Duration) string {
	if bound == 0 {
		return "until each is solved: seconds late in a game, minutes early on"
	}
	return fmt.Sprintf("for at most %v of processor time; --time changes it", bound)
}

// parseMoves replays moves, one character each (spaces and commas
// between them are skipped), from the start of kit's game.
func parseMoves(kit *agents.Kit, moves string) (game.Position, error) {
	var list []int
	for _, r := range strings.NewReplacer(" ", "", ",", "").Replace(moves) {
		m, err := kit.ParseMove(string(r))
		if err != nil {
			return game.Position{}, fmt.Errorf("moves %q: %w", moves, err)
		}
		list = append(list, m)
	}
	p, err := game.Replay(kit.Game, list)
	if err != nil {
		return p, fmt.Errorf("moves %q: %w", moves, err)
	}
	return p, nil
}
