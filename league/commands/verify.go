package commands

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/agents/verify"
)

// errBeatable makes `ttt verify` exit with status 1 when a side can be
// beaten: the report above it says which.
var errBeatable = errors.New("the network can be beaten")

// verifyCommand is `ttt verify`: the exhaustive check of a network.
func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "check a network against every opponent line; exit 0 only if it is unbeatable",
		UsageText: `ttt verify [options] FILE|ID|NAME|best|latest

   ttt verify n.bin
   ttt verify ttt_nn.bin --side O
   ttt verify best                  # a network stored in the league`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "side", Usage: "check only `X|O` (default both)"},
			&cli.IntFlag{Name: "inputs", Usage: "inputs of the file, `18|19`, when its size fits both"},
			&cli.IntFlag{Name: "games", Value: 10000, Usage: "games against a random opponent per side"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random opponent"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, "FILE|ID|NAME|best|latest"); err != nil {
				return err
			}
			sides := []game.Side{game.X, game.O}
			if s := c.String("side"); s != "" {
				side, err := game.ParseSide(s)
				if err != nil {
					return fmt.Errorf("--side: %w", err)
				}
				sides = []game.Side{side}
			}
			if c.Int("games") < 0 {
				return fmt.Errorf("--games must not be negative (got %d)", c.Int("games"))
			}
			net, err := netToVerify(c, c.Args().First())
			if err != nil {
				return err
			}
			table := tictactoe.NewTable(&nn.Player{Net: net})
			w := c.App.Writer
			unbeatable := true
			for _, side := range sides {
				r := verify.Check(table, side)
				unbeatable = unbeatable && r.Unbeatable()
				sampled, err := verify.VsRandom(c.Context, table, side, c.Int("games"), c.Uint64("seed"))
				if err != nil {
					return fmt.Errorf("verify stopped: %w", err)
				}
				fmt.Fprintf(w, "%s; vs random %s, sampled %s\n", r, oddsText(verify.Exact(table, side)), sampled)
			}
			if !unbeatable {
				return errBeatable
			}
			return nil
		},
	}
}

// netToVerify reads the network arg names: the file at arg when there is
// one, else the agent arg names in the league.
func netToVerify(c *cli.Context, arg string) (*nn.Net, error) {
	// Whatever is at arg but a directory is read as a weight file, which
	// refuses what is not one: /dev/zero is not an agent's name.
	info, err := os.Stat(arg)
	if err == nil && !info.IsDir() {
		return readWeightFile(agents.TicTacToe, arg, c.Int("inputs"))
	}
	a, err := storedNet(c, arg)
	if err != nil {
		what := "no file " + arg
		if info != nil {
			what = arg + " is a directory"
		}
		return nil, fmt.Errorf("%s, and %w", what, err)
	}
	return a.Net, nil
}
