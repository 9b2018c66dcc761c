// Package commands holds the ttt command line. Run is its entry point;
// each command is built by a function of its own file, checks its
// arguments, hands the work to the library packages and prints the
// result. Only Run decides exit codes.
package commands

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/store"
)

// Exit codes of Run.
const (
	exitOK          = 0   // the command did what it was asked
	exitError       = 1   // it could not, or (verify) the network can be beaten
	exitUsage       = 2   // the command line is wrong: see usageError
	exitInterrupted = 130 // stopped by Ctrl-C, cleanly: the shell's 128 + SIGINT
)

// errInterrupted ends a league run that Ctrl-C (or SIGTERM, SIGHUP)
// stopped once it has said so on standard output: nothing was lost, but
// the run did not finish as asked, and a script that runs it in a loop
// can tell the one from the other by the exit status.
var errInterrupted = errors.New("interrupted")

// Run runs the ttt command line args (without the program's name) in
// env, which gives its input and output, its working directory and its
// environment, and returns the exit status: 0 on success, 1 when the
// command fails, 2 when the command line itself is wrong (an unknown
// command or flag, a flag value that does not parse, the wrong number of
// arguments), 130 when ctx was cancelled (Ctrl-C) while the command ran,
// whether it stopped or finished all the same. A failure is one line on env.Stderr, and so is a stop but a
// league run's, which says on stdout where the league stands. Cancelling
// ctx stops a long command at its next safe point (a league run abandons
// the round under way, a search stops within a tenth of a second).
//
// Each call builds its own commands: urfave/cli writes into commands and
// flags while it parses, so calls may run concurrently only because they
// share none; and a call reads no process-wide state (the working
// directory, the environment) but through env.
func Run(ctx context.Context, env Env, args []string) int {
	app := newApp(env)
	err := app.RunContext(ctx, append([]string{app.Name}, flagsFirst(app.Commands, args)...))
	switch {
	case errors.Is(err, errInterrupted):
		return exitInterrupted
	case ctx.Err() != nil:
		// Stopped by Ctrl-C (SIGTERM, SIGHUP) at whatever it was doing:
		// what failed failed with the stop, and says nothing more. A
		// command that finished all the same says so too: a stop has one
		// behaviour, whenever it comes, and a file it wrote is whole
		// (its rename was the last step) or not there.
		fmt.Fprintf(env.Stderr, "%s: stopped: interrupted\n", app.Name)
		return exitInterrupted
	case err == nil:
		return exitOK
	}
	// One line, whatever the error: a joined error holds several.
	msg := err.Error()
	if _, checked := errors.AsType[checkFailure](err); !checked {
		msg = store.Explained(err)
	}
	msg = strings.ReplaceAll(msg, "\n", "; ")
	fmt.Fprintf(env.Stderr, "%s: %s\n", app.Name, msg)
	if _, ok := errors.AsType[*usageError](err); ok {
		return exitUsage
	}
	return exitError
}

// checkFailure is an error of ttt check, which says itself what it
// found damaged: Run sends the user to ttt check with any other error
// that says a league file is damaged.
type checkFailure struct{ error }

func (e checkFailure) Unwrap() error { return e.error }

// newApp builds the command line of a run in env.
func newApp(env Env) *cli.App {
	app := &cli.App{
		Name:    "ttt",
		Usage:   "train game-playing agents (tic-tac-toe, Connect Four) by reinforcement learning, in a self-play league rated with Elo and kept in one SQLite file",
		Version: version(),
		UsageText: `ttt [--version] COMMAND [options] [arguments]

   ttt league run --duration 8h     # a league in ./league.db
   ttt ratings                      # its leaderboard
   ttt help ratings                 # a command's usage and flags`,
		Reader:    env.Stdin,
		Writer:    env.Stdout,
		ErrWriter: env.Stderr,
		Metadata:  map[string]any{envKey: env},
		Commands: []*cli.Command{
			leagueCommand(),
			ratingsCommand(),
			roundsCommand(),
			trainCommand(),
			verifyCommand(),
			analyzeCommand(),
			checkpointsCommand(),
			showCommand(),
			playCommand(),
			exportCommand(),
			importCommand(),
			gamesCommand(),
			roundrobinCommand(),
			compareCommand(),
			checkCommand(),
			pruneCommand(),
			upgradeCommand(),
			serveCommand(),
			helpCommand(),
		},
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "version", Usage: "print the version", DisableDefaultText: true},
		},
		Action: func(c *cli.Context) error {
			switch {
			case c.Bool("version"):
				fmt.Fprintf(c.App.Writer, "%s version %s\n", c.App.Name, c.App.Version)
				return nil
			case c.NArg() == 0:
				return cli.ShowAppHelp(c)
			}
			return unknownCommand(nil, c.App.Commands, c.Args().First())
		},
		// urfave/cli's own help and version flags and help command are
		// package variables that it writes into while it parses, which
		// concurrent Runs must not share: each app has its own, the help
		// flags added by setUp.
		HideHelp:        true,
		HideHelpCommand: true,
		HideVersion:     true,
		// Run decides the exit code: nothing may call os.Exit.
		ExitErrHandler: func(*cli.Context, error) {},
	}
	setUp(app)
	return app
}

// version is the version of this build (see versionOf).
func version() string {
	info, _ := debug.ReadBuildInfo()
	return versionOf(info)
}

// versionOf is the main module's version when the build recorded one (go
// install of a tagged version), and otherwise "devel" with the commit it
// was built from, when go build recorded one (a build in a git checkout):
// a bug report then says which code ran.
func versionOf(info *debug.BuildInfo) string {
	if info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		vcs[s.Key] = s.Value
	}
	rev := vcs["vcs.revision"]
	if rev == "" {
		return "devel"
	}
	v := "devel " + rev[:min(len(rev), 12)]
	if t := vcs["vcs.time"]; t != "" {
		v += " " + t
	}
	if vcs["vcs.modified"] == "true" {
		v += " (modified)"
	}
	return v
}

// helpCommand is `ttt help [COMMAND [SUBCOMMAND]]`, which runs the
// command with --help: urfave/cli sets a command up for its help text
// only when it runs.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:  "help",
		Usage: "list the commands, or show one command's usage and flags",
		UsageText: `ttt help [COMMAND [SUBCOMMAND]]

   ttt help
   ttt help league run`,
		Action: func(c *cli.Context) error {
			var cmd *cli.Command // nil: ttt itself
			cmds := c.App.Commands
			for _, name := range c.Args().Slice() {
				next := findCommand(cmds, name)
				if next == nil {
					return unknownCommand(cmd, cmds, name)
				}
				cmd, cmds = next, next.Subcommands
			}
			args := append(c.Args().Slice(), "--help")
			return c.App.RunContext(c.Context, append([]string{c.App.Name}, args...))
		},
	}
}
