package commands

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/league"
	"ttt/store"
)

// importCommand is `ttt import`: a plain weight file, or a tic-tac-toe
// table of values, joins the league.
func importCommand() *cli.Command {
	return &cli.Command{
		Name:  "import",
		Usage: "store a model's plain file (a network, a table of values, an n-tuple network) in the league",
		UsageText: `ttt import [options] FILE

   ttt import ttt_nn.bin --name ttt-rl     # a net from the original C program
   ttt import --inputs 19 n.bin
   ttt import table.bin                    # a table of values (tic-tac-toe), as ttt train --method table writes it`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "the agent's `NAME` (default: the file's name without extension)"},
			&cli.IntFlag{Name: "inputs", Usage: "inputs of a headerless weight file, `N` (18 or 19 in tic-tac-toe, 84 or 85 in Connect Four), when its size fits more than one network", DefaultText: "what the file says, or its size"},
			dbFlag(),
			gameFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, "FILE"); err != nil {
				return err
			}
			path, name := c.Args().First(), c.String("name")
			if name == "" {
				name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
			} else if err := store.CheckName(name); err != nil {
				return usage(c.Command, "--name: %v", err)
			}
			return runImport(jobOf(c), path, name, c.Int("inputs"))
		},
	}
}

// runImport stores the model file at path in the league as an agent
// called name; inputs is --inputs, 0 for the file to decide.
func runImport(j *job, path, name string, inputs int) error {
	// The file is read and checked before the league is opened: a broken
	// file changes nothing, not even by creating a database.
	kit, err := j.leagueKit()
	if err != nil {
		return err
	}
	if err := j.checkInputs(inputs); err != nil {
		return err
	}
	r, err := j.readModel(kit.Game, path, inputs)
	if err != nil {
		return err
	}
	db, err := j.openLeague(true)
	if err != nil {
		return err
	}
	defer db.Close()
	// A file says what kind of model it holds, not always which method
	// learned it (the CodeProject article's and Sutton and Barto's write
	// the same table file): it is stored as the method its reading
	// names, which plays it the same way.
	a := &store.Agent{Kind: store.Imported, Name: name, Method: r.Method, Weights: r.Model.Bytes(), Hidden: r.Model.Layout().Hidden}
	same, seen, err := db.SameAgent(j.ctx, a)
	if err != nil {
		return err
	}
	league.Measure(kit, a, r.Model)
	err = db.AddAgent(j.ctx, a)
	again := false
	if errors.Is(err, store.ErrNameTaken) {
		// The same model under the same name: an import stopped before
		// its games against the ladder (an I/O error, Ctrl-C) is finished
		// by running it again.
		if had, herr := db.Agent(j.ctx, name); herr == nil && had.Kind == store.Imported && bytes.Equal(had.Weights, a.Weights) {
			a, again, err = had, true, nil
		}
	}
	if errors.Is(err, store.ErrBadName) || errors.Is(err, store.ErrNameTaken) {
		return fmt.Errorf("%w (choose another with --name)", err)
	}
	if err != nil {
		return err
	}
	w := j.Stdout
	if again {
		fmt.Fprintf(w, "%s is stored already as agent %d (%s); its games against the ladder go on\n", path, a.ID, a.Name)
		return settleImport(j, db, kit, a)
	}
	fmt.Fprintf(w, "%s stored as agent %d (%s), %s\n", path, a.ID, a.Name, r.What)
	if r.Side != nil {
		fmt.Fprintf(w, "a file of one side: it plays %s as its checkpoint did, and %s as if it were %s\n", r.Side, r.Side.Other(), r.Side)
	}
	for i, v := range a.Verify {
		fmt.Fprintf(w, "%s; vs random %s\n", v, oddsText(a.VsRandom[i]))
	}
	if a.Shares != nil {
		fmt.Fprintf(w, "%s\n", a.Shares)
	}
	if seen {
		// Allowed, as a copy under another name may be meant; but both
		// play in the league, and their games count twice.
		fmt.Fprintf(w, "the same model as agent %d (%s), stored already: both play in the league\n", same.ID, same.Name)
	}
	return settleImport(j, db, kit, a)
}

// settleImport plays the games against the ladder of a, imported, that
// give it its ladder rating, which says how strong it is before the
// league has rated it, as a league's best gets one.
func settleImport(j *job, db *store.DB, kit *agents.Kit, a *store.Agent) error {
	cfg, _, err := league.Resume(j.ctx, db, league.Default(kit), func(string) bool { return false })
	if err != nil {
		return err
	}
	l, err := league.SettleLadder(j.ctx, db, strconv.FormatInt(a.ID, 10), cfg)
	if err != nil {
		return fmt.Errorf("%s is stored; its games against the ladder: %w (run the import again to finish them)", a.Name, err)
	}
	fmt.Fprintln(j.Stdout, ladderSettled(a.Name, l))
	return nil
}

// ladderSettled is the line that says what a network's extra games
// against the ladder gave: "visitor: ladder 472 [446, 498] over 576 games
// against the built-in players (576 extra, most v mcts-100, in 1.2s)".
func ladderSettled(name string, l league.LadderRating) string {
	if !l.Rated {
		return name + ": no ladder rating (no built-in player of this game draws on a generator)"
	}
	extra := ""
	if l.Extra > 0 {
		extra = fmt.Sprintf(" (%d extra, most v %s, in %s)", l.Extra, l.Opponent, l.Took.Round(100*time.Millisecond))
	}
	return fmt.Sprintf("%s: ladder %.1f [%.1f, %.1f] over %d games against the built-in players%s",
		name, l.Rating.Elo, l.Rating.Lo, l.Rating.Hi, l.Rating.Games, extra)
}
