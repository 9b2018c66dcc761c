package commands

import (
	"context"

	"github.com/urfave/cli/v2"
)

// A job is a command's work once its command line is read: an Action
// reads its flags and arguments into options, and hands them with the job
// to the function that does the work. The job carries what every such
// function may need beyond its options: the context, the run's Env (its
// streams, working directory and environment), and the league database
// and game the command line names. Below the Actions nothing reads a
// flag.
type job struct {
	ctx context.Context
	Env
	cmd  *cli.Command // the command, whose usage a usage error found at work points to
	db   string       // the league database as the user named it: --db, TTT_DB or league.db
	game string       // --game, the game of a new league; "" when not given
}

// jobOf is the job of the command c runs.
func jobOf(c *cli.Context) *job {
	j := &job{ctx: c.Context, Env: envOf(c), cmd: c.Command, db: dbName(c)}
	if c.IsSet(gameFlagName) {
		j.game = c.String(gameFlagName)
	}
	return j
}

// usage is a usage error of the job's command: the command line was
// wrong, though it took the work to find out.
func (j *job) usage(format string, args ...any) error { return usage(j.cmd, format, args...) }
