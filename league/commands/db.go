package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/learn"
	"ttt/agents/search"
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

// openLeague opens the job's league database. Commands that only read
// pass create = false: they never create, upgrade or write a league
// (store.OpenRead), still work where the file cannot be written, and
// read one state of the league (store.DB.Pin), whatever a league run
// commits meanwhile: what they print of several reads agrees.
func (j *job) openLeague(create bool) (*store.DB, error) {
	if !create {
		db, err := j.openReader()
		if err != nil {
			return nil, err
		}
		if err := db.Pin(j.ctx); err != nil {
			db.Close()
			return nil, userNames(err, j.path(j.db), j.db)
		}
		return db, nil
	}
	if j.db == "" {
		return nil, errNoName(j)
	}
	file := j.path(j.db)
	// The writers upgrade an older league as ttt upgrade does, and say on
	// stderr, beside their own output, what it renamed. A new league
	// plays the game --game names, tic-tac-toe by default; a league that
	// exists keeps its own.
	kit, err := j.newKit()
	if err != nil {
		return nil, err
	}
	db, err := store.Open(j.ctx, file, func() store.Setup { return league.Setup(kit) })
	if err != nil {
		return nil, userNames(err, file, j.db)
	}
	if err := j.sameGame(db); err != nil {
		db.Close()
		return nil, err
	}
	sayRenamed(j.Stderr, "ttt: ", db)
	return db, nil
}

// openReader opens the job's league database to read, as it goes on:
// for ttt serve, which follows a league run's commits.
func (j *job) openReader() (*store.DB, error) {
	if j.db == "" {
		return nil, errNoName(j)
	}
	file := j.path(j.db)
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no league database at %s (ttt league run makes one; choose another with --db or TTT_DB)", j.db)
	}
	db, err := store.OpenRead(j.ctx, file)
	return db, userNames(err, file, j.db)
}

// errNoName is the error of a job whose --db or TTT_DB is empty: more
// likely a mistake than a wish for a database in the current directory
// under no name.
func errNoName(j *job) error { return j.usage("--db (or TTT_DB) names no file") }

// newKit is the game --game names for a new league, the first of the
// games (tic-tac-toe) when it names none.
func (j *job) newKit() (*agents.Kit, error) {
	if j.game == "" {
		return agents.Games[0], nil
	}
	kit, err := agents.KitOf(j.game)
	if err != nil {
		return nil, j.usage("--game: %v", err)
	}
	return kit, nil
}

// sameGame refuses a --game that db's league does not play.
func (j *job) sameGame(db *store.DB) error {
	if j.game != "" && db.Game().Name() != j.game {
		return j.usage("--game %s: the league in %s plays %s (a new --db starts another league)", j.game, j.db, db.Game().Title())
	}
	return nil
}

// lookup returns the agent that ref names in db (league.Lookup: a model
// with a search after its name too), and says where to look when there
// is none.
func (j *job) lookup(db *store.DB, ref string) (*league.Agent, error) {
	a, err := league.Lookup(j.ctx, db, ref)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, j.notFound(db, ref, err)
	case errors.Is(err, store.ErrPruned):
		return a, nil // its record is whole; commands that need its net say so
	case errors.Is(err, search.ErrSpec), errors.Is(err, league.ErrNoModel):
		return nil, j.usage("%v", err)
	}
	return a, err
}

// notFound is err, ref naming no agent in db, with the name of the
// agent nearest to it where one is near enough (a search after its
// name kept as typed), or where to look for the names.
func (j *job) notFound(db *store.DB, ref string, err error) error {
	base, search, searched := strings.Cut(ref, "@")
	names, nerr := db.Names(j.ctx)
	if nerr != nil {
		return fmt.Errorf("%w (see ttt checkpoints)", err)
	}
	s := nearest(base, append(names, store.Best, store.Latest))
	switch {
	case s == "":
		return fmt.Errorf("%w (see ttt checkpoints)", err)
	case searched:
		s += "@" + search
	}
	return fmt.Errorf("%w; did you mean %s?", err, s)
}

// errPruned is the error of a command that needs the network or the
// table of a, a checkpoint that ttt prune thinned out.
func errPruned(a *store.Agent) error {
	return fmt.Errorf("agent %d (%s): %w", a.ID, a.Name, store.ErrPruned)
}

// pruned reports whether a, as lookup read it, is a model whose weights
// ttt prune dropped: the store read none.
func pruned(a *store.Agent) bool { return a.Kind.PlaysModel() && a.Weights == nil }

// storedModel returns the agent that ref (an id, a name, best or latest)
// names and its model: an agent with a file to export and check.
func (j *job) storedModel(ref string) (*league.Agent, learn.Model, error) {
	db, err := j.openLeague(false)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	a, err := j.lookup(db, ref)
	switch {
	case err != nil:
		return nil, nil, err
	case pruned(a.Agent):
		return nil, nil, errPruned(a.Agent)
	case a.Weights == nil:
		return nil, nil, fmt.Errorf("agent %d (%s) is the built-in %s player: it learned no model", a.ID, a.Name, a.Kind)
	}
	m, err := league.ModelOf(agents.KitFor(db.Game()), a)
	return a, m, err
}

// leagueKit returns the game of the job's league, or where there is none
// yet, the one --game names (tic-tac-toe by default): the game that a
// command's settings and files must be read for before the league is
// opened. A --game that disagrees with the league's is refused.
func (j *job) leagueKit() (*agents.Kit, error) {
	kit, err := j.newKit()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(j.path(j.db)); err == nil {
		if db, err := store.OpenRead(j.ctx, j.path(j.db)); err == nil {
			defer db.Close()
			if err := j.sameGame(db); err != nil {
				return nil, err
			}
			return agents.KitFor(db.Game()), nil
		}
	}
	return kit, nil
}

// gameFlag is --game, the game of a new league.
func gameFlag() cli.Flag {
	return &cli.StringFlag{Name: gameFlagName, Value: agents.Games[0].Name(),
		Usage: "the game of a new league, `" + gameNames() + "`; a league keeps the game it was made with"}
}

// gameNames are the games --game takes, as a flag's usage gives them.
func gameNames() string {
	var names []string
	for _, k := range agents.Games {
		names = append(names, k.Name())
	}
	return strings.Join(names, "|")
}

// gameFlagName is --game, the game of a new league.
const gameFlagName = "game"
