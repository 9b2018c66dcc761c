package commands

import (
	"context"
	"io"
	"math/rand/v2"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/store"
)

// PlayGames runs the game loop of ttt play against agent a, whose model
// is m (nil for a built-in player), as the command does on a pipe: the
// human's lines come from in and are echoed to out. Random's moves come
// from a generator seeded with seed.
func PlayGames(in io.Reader, out io.Writer, a *store.Agent, m learn.Model, human game.Side, seed uint64) (game.Record, error) {
	r, err := newRival(agents.TicTacToe, a, m, rand.New(rand.NewPCG(seed, 0)), time.Second)
	if err != nil {
		return game.Record{}, err
	}
	return playGames(context.Background(), in, out, true, r, human, false)
}

// ParseMove reads a line typed at the move prompt of a tic-tac-toe game
// on b; ErrQuit is its answer to q.
func ParseMove(b tictactoe.Board, line string) (int, error) {
	return parseMove(agents.TicTacToe, b.Position(), line)
}

// ErrQuit is the answer of ParseMove to q.
var ErrQuit = errQuit

// SeriesColors, CurveColor and ReferenceColor are the colours of the
// plotted series.
var SeriesColors, CurveColor, ReferenceColor = seriesColors, curveColor, referenceColor

// VersionOf is the version a build with info prints.
var VersionOf = versionOf

// FloatFlags lists the float flags of every command, by the command's
// words on the command line ("league run").
func FloatFlags() map[string][]string {
	flags := map[string][]string{}
	for name, cmdFlags := range CommandFlags() {
		for _, f := range cmdFlags {
			if _, ok := f.(*cli.Float64Flag); ok {
				flags[name] = append(flags[name], f.Names()[0])
			}
		}
	}
	return flags
}

// CommandFlags lists every command, by its words on the command line
// ("league run"), with its flags.
func CommandFlags() map[string][]cli.Flag {
	flags := map[string][]cli.Flag{}
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := c.Name
			if path != "" {
				name = path + " " + c.Name
			}
			flags[name] = c.Flags
			walk(name, c.Subcommands)
		}
	}
	walk("", newApp(Env{Stdout: io.Discard, Stderr: io.Discard}).Commands)
	return flags
}
