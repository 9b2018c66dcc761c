package commands

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
	"ttt/league"
	"ttt/league/elo"
	"ttt/store"
)

// showCommand is `ttt show`: everything the league knows about one agent.
func showCommand() *cli.Command {
	return &cli.Command{
		Name:  "show",
		Usage: "describe one agent: kind, lineage, model, Elo, record and verify figures",
		UsageText: `ttt show [options] ID|NAME|best|latest

   ttt show best
   ttt show 12 --format json`,
		Flags: []cli.Flag{formatFlag(), moveTimeFlag(), dbFlag()},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, "ID|NAME|best|latest"); err != nil {
				return err
			}
			if err := checkFormat(c); err != nil {
				return err
			}
			limit, err := moveTime(c)
			if err != nil {
				return err
			}
			return runShow(jobOf(c), c.Args().First(), c.String(formatFlagName), limit)
		},
	}
}

// runShow prints what the league knows of the agent ref names, in format.
// A searched agent the league has not stored is measured here, each
// move limit at most (0: no limit).
func runShow(j *job, ref, format string, limit time.Duration) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := j.lookup(db, ref)
	if err != nil {
		return err
	}
	var m learn.Model
	if a.Weights != nil {
		kit := agents.KitFor(db.Game())
		if m, err = league.ModelOf(kit, a); err != nil {
			return err
		}
		if a.VsRandom == nil && a.Shares == nil { // stored by an older ttt, or searched and not stored
			league.Measure(kit, a.Agent, search.Bound(j.ctx, m, limit))
			if err := j.ctx.Err(); err != nil {
				return err
			}
		}
	}
	var parent *store.Agent
	if a.ParentID != 0 {
		p, err := j.lookup(db, strconv.FormatInt(a.ParentID, 10))
		if err != nil {
			return err
		}
		parent = p.Agent
	}
	ladders, err := league.DBLadders(j.ctx, db, []int64{a.ID})
	if err != nil {
		return err
	}
	l, rated := ladders.Ratings[a.ID]
	provisional := ladders.Provisional(a.ID)
	if format != "table" {
		return agentListing(a.Agent, m, parent, l, rated, provisional != "").write(j.Stdout, format)
	}
	var sides []store.Opponent
	if err := db.View(j.ctx, func(v *store.View) (err error) {
		sides, err = v.Sides(a.ID)
		return err
	}); err != nil {
		return err
	}
	var ladderOf *elo.Rating
	if rated && a.Kind.PlaysModel() {
		ladderOf = &l
	}
	return describe(j.Stdout, a.Agent, m, parent, sides, ladderOf, provisional)
}

// describe writes what show knows of a, whose model is m (nil for none),
// to out, one item a line; sides are its records by side against the
// built-in players, and ladder its ladder rating (nil for none),
// provisional why that rating is provisional ("" when it is not).
func describe(out io.Writer, a *store.Agent, m learn.Model, parent *store.Agent, sides []store.Opponent, ladder *elo.Rating, provisional string) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	if a.ID == 0 {
		fmt.Fprintf(w, "agent:\t%s, not stored: a league stores a searched agent when it rates it (league run --search, roundrobin)\n", a.Name)
	} else {
		fmt.Fprintf(w, "agent:\t%d (%s)\n", a.ID, a.Name)
	}
	fmt.Fprintf(w, "kind:\t%s\n", a.Kind)
	if parent != nil {
		fmt.Fprintf(w, "parent:\t%d (%s)\n", parent.ID, parent.Name)
	} else {
		fmt.Fprintf(w, "parent:\tnone\n")
	}
	// Two numbers a user meets: the agent's id, which its name carries,
	// and the round that made it (its generation, in CSV and JSON).
	if a.Generation > 0 && a.Kind == store.Searched {
		fmt.Fprintf(w, "round:\t%d, the league round that made its model\n", a.Generation)
	} else if a.Generation > 0 {
		fmt.Fprintf(w, "round:\t%d, the league round that made it (agent %d)\n", a.Generation, a.ID)
	} else {
		fmt.Fprintf(w, "round:\tnone: not made by a league round\n")
	}
	fmt.Fprintf(w, "training games:\t%d\n", a.TrainGames)
	if a.Method != "" {
		fmt.Fprintf(w, "method:\t%s\n", a.Method)
	}
	switch {
	case m != nil:
		fmt.Fprintf(w, "model:\t%s\n", m.Describe())
	case a.Kind.Learned():
		fmt.Fprintf(w, "model:\tits weights dropped by ttt prune (its record, ratings and games remain)\n")
	default:
		fmt.Fprintf(w, "model:\tnone (a built-in player)\n")
	}
	if a.ID != 0 {
		fmt.Fprintf(w, "created:\t%s\n", a.CreatedAt.Format(time.RFC3339))
	}
	if s := a.Standing; s != nil {
		// The standing's round is its last history row's: the rating
		// has stayed within store.HistoryStep of that row since.
		fmt.Fprintf(w, "Elo:\t%.1f (95%%: %.1f to %.1f), within half an Elo since round %d\n", s.Elo, s.Lo, s.Hi, s.Round)
		fmt.Fprintf(w, "games:\t%d, %s\n", s.Games, s.Record)
	} else {
		fmt.Fprintf(w, "Elo:\tnot rated yet\n")
	}
	if l := ladder; l != nil {
		// The rating that travels between leagues, and how far the
		// league's own has drifted from it.
		fmt.Fprintf(w, "ladder Elo:\t%.1f (95%%: %.1f to %.1f) over %d games against the built-in players alone", l.Elo, l.Lo, l.Hi, l.Games)
		if a.Standing != nil {
			fmt.Fprintf(w, "; the league's Elo is %s it", drift(league.Float(a, *l)))
		}
		if provisional != "" {
			fmt.Fprintf(w, "; %s", provisional)
		}
		fmt.Fprintln(w)
	}
	switch {
	case a.Shares != nil:
		if a.Random != nil {
			fmt.Fprintf(w, "random set:\toptimal moves %.1f%% (%d/%d positions reached by random moves)\n", 100*a.Random.Share(), a.Random.Optimal, a.Random.Positions)
		}
		fmt.Fprintf(w, "tactical set:\t%s\n", a.Shares)
	case a.Verify == nil && a.Kind == agents.Random:
		fmt.Fprintf(w, "verify:\tnone (a random player has no fixed line to check)\n")
	case a.Verify == nil:
		fmt.Fprintf(w, "verify:\tnot measured (a built-in player that searches at every move)\n")
	default:
		fmt.Fprintf(w, "class:\t%s\n", a.Class)
	}
	for _, r := range a.Verify {
		fmt.Fprintf(w, "verify:\t%s\n", r)
	}
	for i, o := range a.VsRandom {
		fmt.Fprintf(w, "vs random:\t%s\n", oddsLine(game.Side(i), o))
	}
	// The league's games against the built-in players, by side: the
	// first player (X) has the edge in both games.
	for i, o := range sides {
		key := ""
		if i == 0 {
			key = "vs built-ins:"
		}
		first, second := *o.First, o.Second()
		fmt.Fprintf(w, "%s\t%s as X %s (%.1f%%), as O %s (%.1f%%)\n", key, o.Name, first, 100*first.Score(), second, 100*second.Score())
	}
	return w.Flush()
}

// oddsLine says a side's exact odds against a random opponent.
func oddsLine(side game.Side, o game.Expect) string {
	return fmt.Sprintf("%s: %s, an expected score of %.4f", side, oddsText(o), o.Score())
}

// oddsText says exact odds against a random opponent, as W/D/L shares.
func oddsText(o game.Expect) string {
	return "exactly " + o.String()
}

// agentListing is what show knows of a, whose model is m (nil for none),
// as one row of fields, for CSV and JSON (a JSON object); a field that
// does not apply is empty, or null.
func agentListing(a *store.Agent, m learn.Model, parent *store.Agent, ladder elo.Rating, rated, provisional bool) listing {
	l := listing{
		object: true,
		columns: append(append([]string{"id", "name", "kind", "method", "parent_id", "parent", "generation", "train_games", "model", "hidden", "parameters", "table", "created",
			"elo", "lo", "hi", "ladder_elo", "ladder_lo", "ladder_hi", "ladder_games", "ladder_provisional", "rated_round", "games", "wins", "draws", "losses", "class"}, verifyColumns()...), oddsColumns()...),
	}
	var method, parentID, parentName, model, hidden, params, values any
	if a.Method != "" {
		method = a.Method
	}
	if parent != nil {
		parentID, parentName = parent.ID, parent.Name
	}
	if a.Hidden != 0 {
		hidden = a.Hidden
	}
	if m != nil {
		model, params = m.Describe(), m.Size()
		if m.Views() == learn.Values {
			values = m.Size()
		}
	}
	var created any // none for a searched agent the league has not stored
	if a.ID != 0 {
		created = a.CreatedAt.Format(time.RFC3339)
	}
	row := []any{a.ID, a.Name, a.Kind, method, parentID, parentName, a.Generation, a.TrainGames, model, hidden, params, values, created}
	lad := []any{nil, nil, nil, 0, nil}
	if rated && a.Kind.PlaysModel() {
		lad = []any{ladder.Elo, ladder.Lo, ladder.Hi, ladder.Games, provisional}
	}
	if s := a.Standing; s != nil {
		row = append(append(append(row, s.Elo, s.Lo, s.Hi), lad...), s.Round, s.Games, s.Record.Wins, s.Record.Draws, s.Record.Losses)
	} else {
		row = append(append(append(row, nil, nil, nil), lad...), nil, 0, 0, 0, 0)
	}
	var class any
	if a.Verify != nil {
		class = a.Class.String()
	}
	row = append(row, class)
	l.rows = [][]any{append(append(row, verifyCells(a)...), oddsCells(a)...)}
	return l
}
