// Command ttt teaches game-playing agents (tic-tac-toe and Connect Four)
// by reinforcement learning, runs a self-play league of their snapshots,
// rates every snapshot with Elo, and keeps it all in one SQLite file. See
// README.md.
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
	// The first Ctrl-C (or SIGTERM, or SIGHUP: the terminal closed)
	// cancels the context: long commands finish or roll back their
	// current step, remove their temporary files and exit cleanly. A
	// second one kills the process at once, the default behaviour once
	// stop() has restored it. A SIGHUP that the process was started to
	// ignore (nohup ttt league run &) stays ignored: catching it would
	// end the league with the terminal.
	signals := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		signals = append(signals, syscall.SIGHUP)
	}
	ctx, stop := signal.NotifyContext(context.Background(), signals...)
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := commands.Run(ctx, commands.Process(), os.Args[1:])
	stop()
	os.Exit(code)
}
