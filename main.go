// Command ttt trains tic-tac-toe networks by reinforcement learning, runs
// a self-play league of their snapshots, rates every snapshot with Elo,
// and keeps it all in one SQLite file. See README.md.
//
// This file only wires signals and the exit status; the command line is
// commands.Run, in league/commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

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
	code := commands.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
