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

// dbFlag is --db.
func dbFlag() cli.Flag {
	return &cli.StringFlag{
		Name:    dbFlagName,
		Value:   "league.db",
		EnvVars: []string{"TTT_DB"},
		Usage:   "the league database `FILE`",
	}
}

// openLeague opens the database that --db names. Commands that only read
// pass create = false: they never create, upgrade or write a league
// (store.OpenRead), and still work where the file cannot be written.
func openLeague(c *cli.Context, create bool) (*store.DB, error) {
	path := c.String(dbFlagName)
	if path == "" {
		// An empty TTT_DB is more likely a mistake than a wish for a
		// database in the current directory under no name.
		return nil, errors.New("--db (or TTT_DB) names no file")
	}
	if create {
		// The writers upgrade an older league as ttt upgrade does, and
		// say on stderr, beside their own output, what it renamed.
		db, err := store.Open(c.Context, path, func() store.Setup { return league.Setup(agents.TicTacToe) })
		if err == nil {
			sayRenamed(c.App.ErrWriter, c.App.Name+": ", db)
		}
		return db, err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no league database at %s (choose one with --db or TTT_DB)", path)
	}
	return store.OpenRead(c.Context, path)
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
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w (see ttt checkpoints)", err)
	}
	return a, err
}

// storedNet returns the stored network that ref (an id, a name, best or
// latest) names.
func storedNet(c *cli.Context, ref string) (*store.Agent, error) {
	a, err := storedAgent(c, ref)
	if err != nil {
		return nil, err
	}
	if a.Net == nil {
		return nil, fmt.Errorf("agent %d (%s) is the built-in %s player, not a network", a.ID, a.Name, a.Kind)
	}
	return a, nil
}

// leagueKit returns the game of the league at --db, or where there is
// none yet, the one --game names (tic-tac-toe by default): the game of a
// weight file read before the league is opened.
func leagueKit(c *cli.Context) (*agents.Kit, error) {
	if _, err := os.Stat(c.String(dbFlagName)); err == nil {
		if db, err := store.OpenRead(c.Context, c.String(dbFlagName)); err == nil {
			defer db.Close()
			return agents.KitFor(db.Game()), nil
		}
	}
	if name := c.String(gameFlagName); name != "" {
		return agents.KitOf(name)
	}
	return agents.TicTacToe, nil
}

// gameFlagName is --game, the game of a new league.
const gameFlagName = "game"
