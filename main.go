// Command ttt trains tic-tac-toe networks by reinforcement learning, runs
// a self-play league of their snapshots, rates every snapshot with Elo,
// and keeps it all in one SQLite file. See README.md.
//
// This file only wires the commands; each lives in league/commands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"ttt/league/commands"
)

func main() {
	// The first Ctrl-C (or SIGTERM) cancels the context: long commands
	// finish or roll back their current step and exit cleanly. A second
	// one kills the process at once, the default behaviour once stop()
	// has restored it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()

	app := &cli.App{
		Name:  "ttt",
		Usage: "teach tic-tac-toe networks by reinforcement learning, rate them in a self-play league",
		Commands: []*cli.Command{
			commands.League,
			commands.Ratings,
			commands.Train,
			commands.Verify,
			commands.Checkpoints,
			commands.Show,
			commands.Play,
			commands.Export,
			commands.Import,
			commands.Games,
		},
		HideHelpCommand: true,
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(os.Stderr, "ttt: no command %q (see ttt --help)\n", name)
			os.Exit(2)
		},
	}
	commands.OneLineUsageErrors(app)
	if err := app.RunContext(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "ttt:", err)
		os.Exit(1)
	}
}
