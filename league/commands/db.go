package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/league"
	"ttt/store"
)

// dbFlagName is --db, the league database of every command that reads or
// writes one.
const dbFlagName = "db"

// dbFlag is --db. TTT_DB stands for it when it is not given (dbName):
// the run's environment, not the process's, which urfave/cli would read.
func dbFlag() cli.Flag {
	return &cli.StringFlag{
		Name:  dbFlagName,
		Value: "league.db",
		Usage: "the league database `FILE` (TTT_DB when set)",
	}
}

// dbName is the league database of c as the user named it: --db, else
// TTT_DB, else league.db.
func dbName(c *cli.Context) string {
	if name, ok := dbGiven(c); ok {
		return name
	}
	return c.String(dbFlagName)
}

// dbGiven is the league database that --db or TTT_DB names, if either
// does.
func dbGiven(c *cli.Context) (string, bool) {
	if c.IsSet(dbFlagName) {
		return c.String(dbFlagName), true
	}
	return envOf(c).lookupEnv("TTT_DB")
}

// openLeague opens the database that --db names. Commands that only read
// pass create = false: they never create, upgrade or write a league
// (store.OpenRead), and still work where the file cannot be written.
func openLeague(c *cli.Context, create bool) (*store.DB, error) {
	path := dbName(c)
	if path == "" {
		// An empty TTT_DB is more likely a mistake than a wish for a
		// database in the current directory under no name.
		return nil, usage(c.Command, "--db (or TTT_DB) names no file")
	}
	if create {
		// The writers upgrade an older league as ttt upgrade does, and
		// say on stderr, beside their own output, what it renamed.
		// A new league plays the game --game names, tic-tac-toe by
		// default; a league that exists keeps its own.
		kit := agents.TicTacToe
		if name := c.String(gameFlagName); name != "" {
			var err error
			if kit, err = agents.KitOf(name); err != nil {
				return nil, usage(c.Command, "--game: %v", err)
			}
		}
		db, err := store.Open(c.Context, local(c, path), func() store.Setup { return league.Setup(kit) })
		if err != nil {
			return nil, userNames(err, local(c, path), path)
		}
		if c.IsSet(gameFlagName) && db.Game() != kit.Game {
			db.Close()
			return nil, usage(c.Command, "--game %s: the league in %s plays %s (a new --db starts another league)", kit.Name(), path, db.Game().Title())
		}
		sayRenamed(c.App.ErrWriter, c.App.Name+": ", db)
		return db, nil
	}
	if _, err := os.Stat(local(c, path)); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no league database at %s (choose one with --db or TTT_DB)", path)
	}
	db, err := store.OpenRead(c.Context, local(c, path))
	return db, userNames(err, local(c, path), path)
}

// storedAgent reads the agent that ref (an id, a name, best, latest,
// random or perfect) names, and closes the database at once: the
// commands that read one agent hold no connection while they work.
func storedAgent(c *cli.Context, ref string) (*store.Agent, error) {
	db, err := openLeague(c, false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return lookup(c, db, ref)
}

// lookup returns the agent that ref names in db, and says where to look
// when there is none.
func lookup(c *cli.Context, db *store.DB, ref string) (*store.Agent, error) {
	a, err := db.Agent(c.Context, ref)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, fmt.Errorf("%w (see ttt checkpoints)", err)
	case errors.Is(err, store.ErrPruned):
		return a, nil // its record is whole; commands that need its net say so
	}
	return a, err
}

// errPruned is the error of a command that needs the network of a, a
// checkpoint that ttt prune thinned out.
func errPruned(a *store.Agent) error {
	return fmt.Errorf("agent %d (%s): %w", a.ID, a.Name, store.ErrPruned)
}

// storedNet returns the stored network that ref (an id, a name, best or
// latest) names.
func storedNet(c *cli.Context, ref string) (*store.Agent, error) {
	a, err := storedAgent(c, ref)
	if err != nil {
		return nil, err
	}
	if a.Net == nil && a.Kind.IsNetwork() {
		return nil, errPruned(a)
	}
	if a.Net == nil {
		return nil, fmt.Errorf("agent %d (%s) is the built-in %s player, not a network", a.ID, a.Name, a.Kind)
	}
	return a, nil
}

// leagueKit returns the game of the league at --db, or where there is
// none yet, the one --game names (tic-tac-toe by default): the game that
// a command's settings and files must be read for before the league is
// opened. A --game that disagrees with the league's is refused.
func leagueKit(c *cli.Context) (*agents.Kit, error) {
	kit := agents.TicTacToe
	if name := c.String(gameFlagName); name != "" {
		var err error
		if kit, err = agents.KitOf(name); err != nil {
			return nil, usage(c.Command, "--game: %v", err)
		}
	}
	if _, err := os.Stat(local(c, dbName(c))); err == nil {
		if db, err := store.OpenRead(c.Context, local(c, dbName(c))); err == nil {
			defer db.Close()
			if c.IsSet(gameFlagName) && db.Game() != kit.Game {
				return nil, usage(c.Command, "--game %s: the league in %s plays %s (a new --db starts another league)", kit.Name(), dbName(c), db.Game().Title())
			}
			return agents.KitFor(db.Game()), nil
		}
	}
	return kit, nil
}

// gameFlag is --game, the game of a new league.
func gameFlag() cli.Flag {
	return &cli.StringFlag{Name: gameFlagName, Value: agents.Games[0].Name(),
		Usage: "the game of a new league, `tictactoe|connect4`; a league keeps the game it was made with"}
}

// gameFlagName is --game, the game of a new league.
const gameFlagName = "game"
