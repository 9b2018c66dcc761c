package commands

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/agents/table"
	"ttt/agents/verify"
	"ttt/league"
)

// errBeatable makes `ttt verify` exit with status 1 when a side can be
// beaten: the report above it says which.
var errBeatable = errors.New("the agent can be beaten")

// verifyCommand is `ttt verify`: the exhaustive check of a network.
func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "check a network or a table of values against every opponent line; exit 0 only if it is unbeatable",
		UsageText: `ttt verify [options] FILE|ID|NAME|best|latest
   ttt verify [options] --checkpoint ID|NAME|best|latest

   ttt verify n.bin
   ttt verify table.bin             # a table of values, as ttt train --method table writes it
   ttt verify ttt_nn.bin --side O
   ttt verify best                  # a network or a table stored in the league
   ttt verify --checkpoint 12       # agent 12, checkpoint-12, as export and play name it`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Usage: "a stored network or table, `ID|NAME|best|latest`, as export and play take it"},
			&cli.StringFlag{Name: "side", Usage: "check only `X|O` (default both)"},
			&cli.IntFlag{Name: "inputs", Usage: "inputs of the file, `18|19`, when its size fits both"},
			&cli.IntFlag{Name: "games", Value: 10000, Usage: "games against a random opponent per side"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random opponent"},
			&cli.StringSliceFlag{Name: "against", Usage: "Connect Four: the built-in players to play, `NAME,...` (default all)"},
			dbFlag(),
			gameFlag(),
		},
		Action: func(c *cli.Context) error {
			ref := c.String("checkpoint")
			if ref == "" {
				if err := checkArgs(c, "FILE|ID|NAME|best|latest"); err != nil {
					return err
				}
				ref = c.Args().First()
			} else if err := checkArgs(c); err != nil {
				return usage(c.Command, "takes --checkpoint or an argument, not both")
			}
			sides := []game.Side{game.X, game.O}
			if s := c.String("side"); s != "" {
				side, err := game.ParseSide(s)
				if err != nil {
					return usage(c.Command, "--side: %v", err)
				}
				sides = []game.Side{side}
			}
			if c.Int("games") < 0 {
				return usage(c.Command, "--games must not be negative (got %d)", c.Int("games"))
			}
			return runVerify(jobOf(c), verifyOptions{ref: ref, stored: c.IsSet("checkpoint"), sides: sides, sideGiven: c.IsSet("side"),
				inputs: c.Int("inputs"), games: c.Int("games"), seed: c.Uint64("seed"), against: c.StringSlice("against")})
		},
	}
}

// verifyOptions are ttt verify's flags and argument.
type verifyOptions struct {
	ref       string // a file, or a stored agent
	stored    bool   // ref is --checkpoint's: a stored agent, never a file
	sides     []game.Side
	sideGiven bool
	inputs    int // --inputs, 0 for a file's size to decide
	games     int // against random, per side
	seed      uint64
	against   []string // Connect Four: the built-in players to play, none for all
}

// runVerify checks the agent o.ref names: tic-tac-toe's exhaustive check
// of each side and its odds against random, or in a larger game the
// share of optimal moves on its position set and its results against the
// built-in players.
func runVerify(j *job, o verifyOptions) error {
	net, values, oneSide, err := j.agentToVerify(o.ref, o.stored, o.inputs)
	if err != nil {
		return err
	}
	var player game.Player = values
	if values == nil {
		if kit := agents.KitFor(net.Game); kit.Compile == nil {
			return j.verifySampled(kit, net, o.against, o.seed)
		}
		// A file without the side input plays the side it was folded for,
		// which it does not record: checked as the other side, it loses,
		// a false alarm.
		if oneSide && !o.sideGiven {
			return j.usage("%s has %d inputs, no side input: it plays one side, which the file does not say; give --side X or --side O (the side of export --side)",
				o.ref, net.Inputs-1)
		}
		player = &nn.Player{Net: net}
	}
	table := tictactoe.NewTable(player)
	w := j.Stdout
	unbeatable := true
	for _, side := range o.sides {
		r := verify.Check(table, side)
		unbeatable = unbeatable && r.Unbeatable()
		sampled, err := verify.VsRandom(j.ctx, table, side, o.games, o.seed)
		if err != nil {
			return fmt.Errorf("verify stopped: %w", err)
		}
		fmt.Fprintf(w, "%s; vs random %s, sampled %s\n", r, oddsText(verify.Exact(table, side)), sampled)
		if line := verify.ShortestLoss(table, side); line != nil {
			// The opponent's moves are every other one, X's first.
			var yours []string
			for i := int(side.Other()); i < len(line); i += 2 {
				yours = append(yours, strconv.Itoa(line[i]))
			}
			fmt.Fprintf(w, "%s: beaten in %d moves by %s (X first); in ttt play --as %s, type %s\n",
				side, len(line), strings.Trim(fmt.Sprint(line), "[]"), side.Other(), strings.Join(yours, " "))
		}
	}
	if !unbeatable {
		return errBeatable
	}
	return nil
}

// agentToVerify reads the agent arg names: the file at arg when there is
// one (and arg is not a --checkpoint), a network's weights or a table of
// values, else the network or table arg names in the league; oneSide is
// true of a weight file without the side input.
func (j *job) agentToVerify(arg string, stored bool, inputs int) (net *nn.Net, values *table.Table, oneSide bool, err error) {
	if stored {
		a, err := j.storedModel(arg)
		if err != nil {
			return nil, nil, false, err
		}
		return a.Net, a.Table, false, nil
	}
	// Whatever is at arg but a directory is read as an agent's file,
	// which refuses what is not one: /dev/zero is not an agent's name.
	info, err := os.Stat(j.path(arg))
	if err == nil && !info.IsDir() {
		kit, err := j.leagueKit()
		if err != nil {
			return nil, nil, false, err
		}
		if err := j.checkInputs(inputs, kit.Game); err != nil {
			return nil, nil, false, err
		}
		net, values, err := readAgentFile(kit.Game, j.path(arg), inputs)
		if err != nil || values != nil {
			return nil, values, false, userNames(err, j.path(arg), arg)
		}
		g := kit.Game
		return net, nil, info.Size() == int64(4*nn.Params(g.Inputs()-1, net.Hidden, g.Moves())), nil
	}
	a, err := j.storedModel(arg)
	if err != nil {
		what := "no file " + arg
		if info != nil {
			what = arg + " is a directory"
		}
		return nil, nil, false, fmt.Errorf("%s, and %w", what, err)
	}
	return a.Net, a.Table, false, nil
}

// verifySampled is ttt verify for a game too large to try every line
// (Connect Four): the network's share of optimal moves on the game's
// fixed set of solved positions, beside a random player's (the floor) and
// the tactician's (the first rung), and its results as X and as O against
// each built-in player named in against (all for none) over every
// opening of two moves, seeded from seed.
func (j *job) verifySampled(kit *agents.Kit, net *nn.Net, against []string, seed uint64) error {
	w := j.Stdout
	facts := kit.Check(&nn.Player{Net: net})
	fmt.Fprintf(w, "network: %s\n", facts.Shares)
	all, phases := verify.RandomShare(kit.Positions())
	fmt.Fprintf(w, "random: optimal moves %.1f%% expected (early %.1f%%, middle %.1f%%, late %.1f%%)\n",
		100*all, 100*phases[0], 100*phases[1], 100*phases[2])
	for _, b := range kit.Builtins {
		if b.Checked {
			fmt.Fprintf(w, "%s: %s\n", b.Name, kit.Check(b.New(nil)).Shares)
		}
	}
	for _, name := range against {
		if _, ok := kit.Builtin(name); !ok {
			return j.usage("--against %s: %s has no such built-in player", name, kit.Title())
		}
	}
	return league.Ladder(j.ctx, kit, net, against, league.MaxPlies, seed, func(name string, asX, asO game.Record) {
		fmt.Fprintf(w, "vs %s: as X %s, as O %s\n", name, asX, asO)
	})
}
