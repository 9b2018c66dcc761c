package commands

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
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
   milliseconds late in the game and minutes for the first moves.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: gameFlagName, Value: agents.Games[0].Name(), Usage: "the game, `tictactoe|connect4`"},
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
			return runAnalyze(jobOf(c), kit, c.Args().First(), c.String(formatFlagName))
		},
	}
}

// runAnalyze prints the value of every legal move of kit's game after
// moves, in format.
func runAnalyze(j *job, kit *agents.Kit, moves, format string) error {
	// MOVES that do not make a game in play are a wrong command line.
	p, err := parseMoves(kit, moves)
	if err != nil {
		return j.usage("%v", err)
	}
	if r := kit.Result(p); r != game.Ongoing {
		return j.usage("moves %q: the game is over (%s): there is no move to analyze", moves, r)
	}
	outcomes, err := kit.Analyze(j.ctx, p)
	if err != nil {
		return fmt.Errorf("analysis stopped: %w", err)
	}
	l := listing{columns: []string{"move", "value", "plies"}}
	for _, m := range slices.Sorted(maps.Keys(outcomes)) {
		o := outcomes[m]
		var plies any
		if o.Value != game.Draw {
			plies = o.Plies
		}
		l.rows = append(l.rows, []any{kit.FormatMove(m), o.Value.String(), plies})
	}
	if format == "table" {
		fmt.Fprintf(j.Stdout, "%s\n%s to move:\n", kit.Format(p), kit.ToMove(p))
	}
	return l.write(j.Stdout, format)
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
