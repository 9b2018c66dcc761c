package commands

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/search"
	"ttt/agents/verify"
	"ttt/league"
)

// errBeatable makes `ttt verify` exit with status 1 when a side can be
// beaten: the report above it says which.
var errBeatable = errors.New("the agent can be beaten")

// verifyCommand is `ttt verify`: the check of a model.
func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "check a model: tic-tac-toe against every opponent line (exit 0 only if unbeatable), Connect Four on solved positions and against the built-in players",
		UsageText: `ttt verify [options] FILE|ID|NAME|best|latest
   ttt verify [options] --checkpoint ID|NAME|best|latest

   ttt verify n.bin
   ttt verify table.bin             # a table of values, as ttt train --method table writes it
   ttt verify ttt_nn.bin --side O
   ttt verify best                  # a model stored in the league
   ttt verify --checkpoint 12       # agent 12, checkpoint-12, as export and play name it
   ttt verify --db c4.db best --positions mine.txt   # Connect Four, on your own positions
   ttt verify --db c4.db best@ab8   # with a search around it (abN, mctsN), and its time a move

   Tic-tac-toe: every line of every opponent, for each side, in
   milliseconds; the exit status is 1 if a side can be beaten. A file of
   one side that does not say which (ttt-rl's 18 inputs) is checked as
   both unless --side says; it passes if it is unbeatable as one.
   Connect Four: the share of two built-in sets of 1,000 solved positions
   (reached by random moves, and in games of tactical players) where its
   move keeps the position's value, then its games as X and as O against
   each built-in player over every opening of two moves: about a minute
   on one core, most of it against mcts-10000 and the solver (--against
   chooses). --positions FILE measures it on positions of your own, one
   a line: the moves from the start (columns 1-7, or squares 0-8), then
   optionally the value of each move (W, D, L, or - where it cannot be
   played); the solver labels a line without them, which takes from
   milliseconds late in a game to minutes for a position of few stones.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Usage: "a stored model, `ID|NAME|best|latest`, as export and play take it"},
			&cli.StringFlag{Name: "side", Usage: "check only `X|O` (default both)"},
			&cli.IntFlag{Name: "inputs", Usage: "inputs of a headerless weight file, `N`, when its size fits more than one network", DefaultText: "what the file says, or its size"},
			&cli.IntFlag{Name: "games", Value: 10000, Usage: "tic-tac-toe: games against a random opponent per side"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random opponent"},
			&cli.StringSliceFlag{Name: "against", Usage: "Connect Four: the built-in players to play, `NAME,...` (default all)"},
			&cli.StringFlag{Name: "positions", Usage: "measure it on the positions in `FILE` instead (see above)"},
			moveTimeFlag(),
			dbFlag(),
			&cli.StringFlag{Name: gameFlagName, Usage: "the game of a file, `tictactoe|connect4`, where it does not say (without a league)"},
		},
		Action: func(c *cli.Context) error {
			ref := c.String("checkpoint")
			if ref == "" {
				if err := checkArgs(c, "FILE|ID|NAME|best|latest"); err != nil {
					return err
				}
				ref = c.Args().First()
			} else if err := checkArgs(c); err != nil {
				return usage(c.Command, "takes --checkpoint or an argument, not both")
			}
			side, err := sideFlag(c)
			if err != nil {
				return err
			}
			if c.Int("games") < 0 {
				return usage(c.Command, "--games must not be negative (got %d)", c.Int("games"))
			}
			limit, err := moveTime(c)
			if err != nil {
				return err
			}
			return runVerify(jobOf(c), verifyOptions{ref: ref, stored: c.IsSet("checkpoint"), side: side,
				inputs: c.Int("inputs"), games: c.Int("games"), seed: c.Uint64("seed"), against: c.StringSlice("against"), positions: c.String("positions"), moveTime: limit})
		},
	}
}

// verifyOptions are ttt verify's flags and argument.
type verifyOptions struct {
	ref       string     // a file, or a stored agent
	stored    bool       // ref is --checkpoint's: a stored agent, never a file
	side      *game.Side // --side; nil for both
	inputs    int        // --inputs, 0 for a file to decide
	games     int        // against random, per side
	seed      uint64
	against   []string // Connect Four: the built-in players to play, none for all
	positions string   // --positions: a file of the user's positions
	moveTime  time.Duration
}

// runVerify checks the model o.ref names: on positions of the user's
// (--positions), tic-tac-toe's exhaustive check of each side and its
// odds against random, or in a larger game its shares of optimal moves
// on the position sets and its results against the built-in players.
func runVerify(j *job, o verifyOptions) error {
	r, err := j.modelToVerify(o.ref, o.stored, o.inputs)
	if err != nil {
		return err
	}
	r.Model = search.Bound(j.ctx, r.Model, o.moveTime)
	kit := agents.KitFor(r.Model.Plays())
	// First what the model was read as, file or stored alike: its game
	// and its kind, and the side of a file that says it holds one.
	side := ""
	if r.Side != nil {
		side = fmt.Sprintf(", a file of %s", *r.Side)
	}
	fmt.Fprintf(j.Stdout, "%s, %s%s\n", kit.Title(), r.Model.Describe(), side)
	sides := []game.Side{game.X, game.O}
	switch {
	case o.side != nil:
		sides = []game.Side{*o.side}
	case r.Side != nil:
		sides = []game.Side{*r.Side}
	}
	player := r.Model.Player()
	if o.positions != "" {
		t := timeMoves(player)
		if err := j.verifyPositions(kit, t, o.positions, sides); err != nil {
			return err
		}
		return t.report(j.Stdout, r.Model)
	}
	if !kit.Solved {
		return j.verifySampled(kit, r.Model, sides, o.against, o.seed)
	}
	table := tictactoe.NewTable(player)
	if err := j.ctx.Err(); err != nil { // a search stopped: the table is not its moves
		return err
	}
	w := j.Stdout
	// A file of one side that does not say which (ttt-rl's 18 inputs)
	// plays its side as its checkpoint did and the other as if it were
	// that side: checked as both, it passes if either side is unbeatable,
	// and says which.
	oneSide := r.Side == nil && o.side == nil && r.Model.Layout().NoSideInput
	if oneSide {
		fmt.Fprintf(w, "a file of one side, which it does not say (%d inputs): each side is checked, and it passes as the side it holds\n", kit.Inputs()-1)
	}
	var holds []string
	for _, side := range sides {
		rep := verify.Check(table, side)
		if rep.Unbeatable() {
			holds = append(holds, side.String())
		}
		sampled, err := verify.VsRandom(j.ctx, table, side, o.games, o.seed)
		if err != nil {
			return fmt.Errorf("verify stopped: %w", err)
		}
		fmt.Fprintf(w, "%s; vs random %s, sampled %s\n", rep, oddsText(verify.Exact(table, side)), sampled)
		if line := verify.ShortestLoss(table, side); line != nil {
			// The opponent's moves are every other one, X's first.
			var yours []string
			for i := int(side.Other()); i < len(line); i += 2 {
				yours = append(yours, strconv.Itoa(line[i]))
			}
			fmt.Fprintf(w, "%s: beaten in %d moves by %s (X first); in ttt play --as %s, type %s\n",
				side, len(line), strings.Trim(fmt.Sprint(line), "[]"), side.Other(), strings.Join(yours, " "))
		}
	}
	switch {
	case oneSide && len(holds) > 0:
		fmt.Fprintf(w, "unbeatable as %s: a file of that side\n", strings.Join(holds, " and as "))
	case len(holds) < len(sides):
		return errBeatable
	}
	return nil
}

// modelToVerify reads the model arg names: the file at arg when there is
// one (and arg is not a --checkpoint), else the model arg names in the
// league.
func (j *job) modelToVerify(arg string, stored bool, inputs int) (learn.Reading, error) {
	if stored {
		_, m, err := j.storedModel(arg)
		return learn.Reading{Model: m}, err
	}
	// A file with a search after its name: its model, searched.
	if name, spec, err := search.Split(arg); err == nil && spec != nil {
		if info, err := os.Stat(j.path(name)); err == nil && !info.IsDir() {
			r, err := j.modelToVerify(name, false, inputs)
			if err == nil {
				r.Model = search.Wrap(r.Model, *spec)
			}
			return r, err
		}
	}
	// Whatever is at arg but a directory is read as a model's file,
	// which refuses what is not one: /dev/zero is not an agent's name.
	info, err := os.Stat(j.path(arg))
	if err == nil && !info.IsDir() {
		if err := j.checkInputs(inputs); err != nil {
			return learn.Reading{}, err
		}
		g, err := j.fileGame()
		if err != nil {
			return learn.Reading{}, err
		}
		return j.readModel(g, arg, inputs)
	}
	_, m, err := j.storedModel(arg)
	if err != nil {
		what := "no file " + arg
		if info != nil {
			what = arg + " is a directory"
		}
		return learn.Reading{}, fmt.Errorf("%s, and %w", what, err)
	}
	return learn.Reading{Model: m}, nil
}

// fileGame is the game a model's file is read for: --game's, else the
// league's where there is one, else nil, whatever game the file says or
// its size fits.
func (j *job) fileGame() (game.Game, error) {
	if j.game != "" {
		kit, err := agents.KitOf(j.game)
		if err != nil {
			return nil, j.usage("--game: %v", err)
		}
		return kit.Game, nil
	}
	if _, err := os.Stat(j.path(j.db)); err != nil {
		return nil, nil
	}
	kit, err := j.leagueKit()
	if err != nil {
		return nil, err
	}
	return kit.Game, nil
}

// verifySampled is ttt verify for a game too large to try every line
// (Connect Four): the model's share of optimal moves on the game's fixed
// sets of solved positions (of sides, the side of a file of one side),
// beside a random player's (the floor) and the tactician's (the first
// rung), and its results as X and as O against each built-in player
// named in against (all for none) over every opening of two moves,
// seeded from seed.
func (j *job) verifySampled(kit *agents.Kit, m learn.Model, sides []game.Side, against []string, seed uint64) error {
	for _, name := range against {
		if _, ok := kit.Builtin(name); !ok {
			return j.usage("--against %s: %s has no such built-in player", name, kit.Title())
		}
	}
	w := j.Stdout
	t := timeMoves(m.Player())
	for _, set := range []struct {
		name      string
		positions []game.Solved
	}{{"random set", kit.Random()}, {"tactical set", kit.Positions()}} {
		positions := ofSides(kit, set.positions, sides)
		checked := verify.CheckSet(t, positions)
		if err := j.ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s\n", set.name, checked)
		all, _ := verify.RandomShare(positions)
		fmt.Fprintf(w, "  random player: %.1f%% expected", 100*all)
		for _, b := range kit.Builtins {
			if b.Checked {
				fmt.Fprintf(w, "; %s: %.1f%%", b.Name, 100*verify.CheckSet(b.New(nil), positions).All.Share())
			}
		}
		fmt.Fprintln(w)
	}
	if err := t.report(w, m); err != nil {
		return err
	}
	games := 0
	for _, b := range kit.Builtins {
		if len(against) == 0 || slices.Contains(against, b.Name) {
			games += 2 * len(game.Openings(kit.Game, league.MaxOpening))
		}
	}
	bar := j.progress(int64(games), "playing the built-in players", "games")
	played := 0
	err := league.Ladder(j.ctx, kit, m, against, league.MaxOpening, seed, func() {
		played++
		bar.set(int64(played))
	}, func(name string, asX, asO game.Record) {
		bar.println(w, "vs %s: as X %s, as O %s", name, asX, asO)
	})
	bar.finish()
	return err
}

// ofSides returns the positions of set where one of sides is to move.
func ofSides(kit *agents.Kit, set []game.Solved, sides []game.Side) []game.Solved {
	if len(sides) == 2 {
		return set
	}
	var out []game.Solved
	for _, p := range set {
		if kit.ToMove(p.Position) == sides[0] {
			out = append(out, p)
		}
	}
	return out
}

// verifyPositions measures player on the positions of the file at path
// where one of sides is to move: the share where its move keeps the
// value, with the solver's labels where a line has none.
func (j *job) verifyPositions(kit *agents.Kit, player game.Player, path string, sides []game.Side) error {
	data, err := os.ReadFile(j.path(path))
	if err != nil {
		return userNames(fmt.Errorf("cannot read the positions: %w", err), j.path(path), path)
	}
	bar := j.progress(0, "labelling positions", "positions")
	set, unchecked, err := agents.ParsePositions(j.ctx, kit, string(data), func(done int) { bar.set(int64(done)) })
	bar.finish()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if unchecked > 0 {
		fmt.Fprintf(j.Stdout, "%s: the values of %s are taken as given: the solver did not check them in %v each (too few stones)\n", path, plural(unchecked, "position"), agents.LabelCheck)
	}
	set = ofSides(kit, set, sides)
	all, _ := verify.RandomShare(set)
	checked := verify.CheckSet(player, set)
	if err := j.ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "%s: %s\n  random player: %.1f%% expected\n", path, checked, 100*all)
	return nil
}

// timed is a player whose moves are timed.
type timed struct {
	game.Player
	times []time.Duration
}

// timeMoves returns p with its moves timed.
func timeMoves(p game.Player) *timed { return &timed{Player: p} }

// Move implements game.Player.
func (t *timed) Move(p game.Position) int {
	start := time.Now()
	m := t.Player.Move(p)
	t.times = append(t.times, time.Since(start))
	return m
}

// report writes the median and the 90th percentile of the times of a
// searched model's moves, what its search costs on this machine: nothing
// for a model alone, which takes microseconds.
func (t *timed) report(w io.Writer, m learn.Model) error {
	s := search.Searching(m, 0)
	if s == nil || len(t.times) == 0 {
		return nil
	}
	slices.Sort(t.times)
	q := func(f float64) time.Duration { return t.times[int(f*float64(len(t.times)-1))].Round(time.Microsecond) }
	_, err := fmt.Fprintf(w, "time a move, searched %s: median %v, 90th percentile %v (%d moves, one core)\n", s.Spec().Describe(), q(0.5), q(0.9), len(t.times))
	return err
}
