package commands

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league"
	"ttt/store"
)

// ratingsCommand is `ttt ratings`: the leaderboard, and the rating
// history.
func ratingsCommand() *cli.Command {
	return &cli.Command{
		Name:  "ratings",
		Usage: "the leaderboard: rank, agent, method, Elo, interval, W/D/L, class and verify figures",
		UsageText: `ttt ratings [options]

   ttt ratings                        # the top 20
   ttt ratings --limit 100
   ttt ratings --all --format csv
   ttt ratings history --agent best

   The table fits a terminal of 100 columns. METHOD is how the agent
   learned (policy, tdlambda, table, selfplay-table or ntuple; a dash for
   a built-in player). CLASS is what ttt verify finds of both sides at
   once: perfect (every move keeps the game's value), unbeatable (no line
   beats it) or beatable; X OPT and O OPT are the shares of its moves as
   X and as O that keep the game's value. CSV
   and JSON hold every figure in a field of its own, with the agent's id
   and kind, the lines that beat it, and its exact odds against random.
   Best, the agent export and play take by default, is the first network
   by class (tic-tac-toe), then the low end of its Elo interval, then the
   newest: the line under the table names it, and where the best is not
   among the agents listed (a league run with --search can fill the top
   with the best searched), its row closes the table, at its rank.
   --searched=false lists the agents without a search around them.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Value: 20, Usage: "list the `N` best-rated agents"},
			&cli.BoolFlag{Name: "all", Usage: "list every rated agent"},
			&cli.BoolFlag{Name: "searched", Value: true, Usage: "list the searched agents (league run --search) among the others; --searched=false leaves them out"},
			formatFlag(), dbFlag(),
		},
		Subcommands: []*cli.Command{ratingsHistoryCommand(), ratingsPlotCommand(), ratingsRefitCommand()},
		Action: func(c *cli.Context) error {
			limit, err := listingFlags(c)
			if err != nil {
				return err
			}
			return runRatings(jobOf(c), limit, c.String(formatFlagName), c.Bool("searched"))
		},
	}
}

// runRatings lists the limit best-rated agents (0: all) in format, the
// searched agents among them or not, and the best after them where it
// is not among them: a league run with --search can fill the top with
// the best searched.
func runRatings(j *job, limit int, format string, searched bool) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	var (
		list          []*store.Agent
		listed, rated int
		best          *store.Agent
		ranks         []int
	)
	err = db.View(j.ctx, func(v *store.View) (err error) {
		l := store.Listing{Desc: true, NoSearched: !searched, Limit: cmp.Or(limit, math.MaxInt32)}
		if list, listed, rated, err = v.Leaderboard(l); err != nil {
			return err
		}
		for i := range list {
			ranks = append(ranks, i+1)
		}
		found, err := league.Find(v, store.Best)
		if errors.Is(err, store.ErrNoCheckpoints) {
			return nil
		} else if err != nil {
			return err
		}
		if best = found.Agent; best.Standing == nil || slices.ContainsFunc(list, func(a *store.Agent) bool { return a.ID == best.ID }) {
			return nil
		}
		rank, err := v.EloRank(best, !searched)
		list, ranks = append(list, best), append(ranks, rank)
		return err
	})
	if err != nil {
		return err
	}
	var ladder league.Ladders
	if format != "table" || best != nil {
		ids := make([]int64, 0, len(list))
		for _, a := range list {
			ids = append(ids, a.ID)
		}
		if best != nil && !slices.Contains(ids, best.ID) {
			ids = append(ids, best.ID)
		}
		if ladder, err = league.DBLadders(j.ctx, db, ids); err != nil {
			return err
		}
	}
	kit := agents.KitFor(db.Game())
	if err := leaderboard(list, ranks, best, format, kit, ladder).write(j.Stdout, format); err != nil {
		return err
	}
	if format == "table" {
		if rated == 0 {
			fmt.Fprintf(j.Stdout, "(no agent is rated yet: ttt league run --db %s plays the first round)\n", j.db)
		}
		shown := min(limit, listed)
		if limit == 0 {
			shown = listed
		}
		switch {
		case shown < listed && !searched:
			fmt.Fprintf(j.Stdout, "(the %d best of %d rated agents, the searched ones left out: --limit N or --all for more)\n", shown, listed)
		case shown < listed:
			fmt.Fprintf(j.Stdout, "(the %d best of %d rated agents: --limit N or --all for more)\n", shown, listed)
		case !searched && listed < rated:
			fmt.Fprintf(j.Stdout, "(%d searched agents left out)\n", rated-listed)
		}
		if best != nil {
			fmt.Fprintf(j.Stdout, "best: %s (%s, Elo %s)%s\n", best.Name, best.Verdict(), eloText(best), floatLine(best, ladder))
		}
	}
	return nil
}

// floatLine is what the line under the table says of the best's ladder
// rating and of how far the league's Elo has drifted from it there:
// "; ladder 301.2 [270, 332]: the league's Elo is 1.1 above it", with
// "(provisional: ...)" after the rating while its extra games are owed.
// The table has no room for a column of its own within 100 columns; CSV
// and JSON give every agent's.
func floatLine(best *store.Agent, ladder league.Ladders) string {
	l, ok := ladder.Ratings[best.ID]
	if !ok || best.Standing == nil {
		return ""
	}
	provisional := ""
	if p := ladder.Provisional(best.ID); p != "" {
		provisional = " (" + p + ")"
	}
	return fmt.Sprintf("; ladder %.1f [%.0f, %.0f]%s: the league's Elo is %s it", l.Elo, l.Lo, l.Hi, provisional, drift(league.Float(best, l)))
}

// drift says how far a league Elo is from a ladder rating: "5.3 above",
// "2.0 below".
func drift(f float64) string {
	if f < 0 {
		return fmt.Sprintf("%.1f below", -f)
	}
	return fmt.Sprintf("%.1f above", f)
}

// ladderColumns name an agent's ladder rating in CSV and JSON, beside
// its league Elo (after hi); a built-in player's is its value.
// ladder_provisional is true while the network owes extra games against
// the ladder (league.Ladders.Owed), which will move its rating.
var ladderColumns = []string{"ladder_elo", "ladder_lo", "ladder_hi", "ladder_provisional"}

// afterHi is where ladderColumns go among a leaderboard's standing
// fields (standingFields): after rank, id, agent, round, method, kind,
// best, elo, lo and hi.
const afterHi = 10

// besideElo inserts a's ladder rating (none where it has none) into its
// standing fields.
func besideElo(fields []any, a *store.Agent, kit *agents.Kit, ladder league.Ladders) []any {
	cells := []any{nil, nil, nil, nil}
	if b, ok := kit.Builtin(a.Name); ok && !a.Kind.PlaysModel() {
		cells = []any{b.Elo, b.Elo, b.Elo, false}
	} else if l, ok := ladder.Ratings[a.ID]; ok {
		_, owed := ladder.Owed[a.ID]
		cells = []any{l.Elo, l.Lo, l.Hi, owed}
	}
	return slices.Insert(fields, afterHi, cells...)
}

// eloText is a's rating as a line says it, or "unrated".
func eloText(a *store.Agent) string {
	if a.Standing == nil {
		return "unrated"
	}
	return fmt.Sprintf("%.1f", a.Standing.Elo)
}

// leaderboard is the listing of ttt ratings: list, rated agents best
// first, each at its rank in ranks, as format prints them, best marked.
// The table fits a terminal of 100 columns; CSV and JSON hold every
// figure in a field of its own.
func leaderboard(list []*store.Agent, ranks []int, best *store.Agent, format string, kit *agents.Kit, ladder league.Ladders) listing {
	isBest := func(a *store.Agent) bool { return best != nil && a.ID == best.ID }
	if kit.Positions != nil {
		return sampledLeaderboard(list, ranks, isBest, format, kit, ladder)
	}
	if format == "table" {
		// The games are W+D+L, so the table has no column of their own.
		l := listing{columns: []string{"rank", "agent", "round", "method", "elo", "95%", "w/d/l", "class", "x opt", "o opt"}}
		for i, a := range list {
			row := standingRow(ranks[i], a, isBest(a))
			if len(a.Verify) == 0 { // random has no single line to check
				row = append(row, nil, nil, nil)
			} else {
				row = append(row, a.Class.String(), fmt.Sprintf("%.1f%%", 100*a.Verify[0].OptimalShare()),
					fmt.Sprintf("%.1f%%", 100*a.Verify[1].OptimalShare()))
			}
			l.rows = append(l.rows, row)
		}
		return l
	}
	l := listing{columns: append(slices.Insert([]string{"rank", "id", "agent", "round", "method", "kind", "best", "elo", "lo", "hi", "games", "wins", "draws", "losses", "class"}, afterHi, ladderColumns...),
		append(verifyColumns(), oddsColumns()...)...)}
	for i, a := range list {
		var class any
		if len(a.Verify) > 0 {
			class = a.Class.String()
		}
		row := append(besideElo(standingFields(ranks[i], a, isBest(a)), a, kit, ladder), class)
		l.rows = append(l.rows, append(append(row, verifyCells(a)...), oddsCells(a)...))
	}
	return l
}

// oddsColumns name the exact odds against a random opponent in CSV and
// JSON: X's win, draw and loss probabilities, then O's.
func oddsColumns() []string {
	return []string{"x_win", "x_draw", "x_loss", "o_win", "o_draw", "o_loss"}
}

// oddsCells are a's odds for oddsColumns: none where they are not known
// (random, and networks stored by an older ttt).
func oddsCells(a *store.Agent) []any {
	if len(a.VsRandom) < 2 {
		return []any{nil, nil, nil, nil, nil, nil}
	}
	x, o := a.VsRandom[0], a.VsRandom[1]
	return []any{exact(x.Win), exact(x.Draw), exact(x.Loss), exact(o.Win), exact(o.Draw), exact(o.Loss)}
}

// verifyColumns name the figures of the exhaustive check in CSV and JSON,
// X's then O's: the worst result an opponent can force (win, draw or
// loss), the lines that beat the agent, all lines, and the percentage of
// its moves that keep the game's value.
func verifyColumns() []string {
	var cols []string
	for _, side := range []string{"x", "o"} {
		cols = append(cols, side+"_worst", side+"_lost", side+"_lines", side+"_optimal_pct")
	}
	return cols
}

// verifyCells are a's figures for verifyColumns: none for random, which
// has no single line to check.
func verifyCells(a *store.Agent) []any {
	cells := make([]any, 0, 8)
	for s := range 2 {
		if s < len(a.Verify) {
			v := a.Verify[s]
			cells = append(cells, v.Worst.String(), v.LostLines, v.Lines, v.OptimalPercent())
		} else {
			cells = append(cells, nil, nil, nil, nil)
		}
	}
	return cells
}

// maxTableName is the widest agent name a table shows whole, within a
// line of 100 columns: a checkpoint's name up to checkpoint-9999999, and
// with a search up to checkpoint-99@mcts800. An imported net's name may
// be longer; CSV and JSON give it whole.
const maxTableName = 20

// clip shortens s to n characters by an ellipsis in its middle, which
// keeps apart names that differ only at their end (from-c-1, from-c-2).
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// count writes a number of games in at most five characters, as a table
// has room for: 98765, 123k, 14.4M. The best agents of a night's league
// play millions.
func count(n int) string {
	switch {
	case n < 100_000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}

// ratingsHistoryCommand is `ttt ratings history`.
func ratingsHistoryCommand() *cli.Command {
	return &cli.Command{
		Name:  "history",
		Usage: "an agent's Elo after every round, or every stored change of rating",
		UsageText: `ttt ratings history --agent ID|NAME|best|latest [options]
   ttt ratings history [options]

   ttt ratings history --agent best --format csv

   The league stores a rating when it moves by more than half an Elo (or
   either end of its interval does), not every agent after every round.
   With --agent, the agent's rating after every round from the one that
   first rated it, each round's being its last stored row (STORED says
   which rounds stored one): never more than half an Elo from the rating
   the league held after that round. Without, the stored rows, by agent,
   the first --limit of them (a night's league stores millions).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "the agent: `ID|NAME|best|latest`"},
			&cli.IntFlag{Name: "limit", Value: 1000, Usage: "without --agent: list the first `N` stored rows"},
			&cli.BoolFlag{Name: "all", Usage: "without --agent: list every stored row"},
			formatFlag(), dbFlag(),
		},
		Action: func(c *cli.Context) error {
			limit, err := listingFlags(c)
			if err != nil {
				return err
			}
			j := jobOf(c)
			if ref := c.String("agent"); ref != "" {
				return runAgentHistory(j, ref, c.String(formatFlagName))
			}
			return runHistory(j, limit, c.String(formatFlagName))
		},
	}
}

// runHistory lists the first limit stored rows of the rating history
// (0: all), by agent, in format.
func runHistory(j *job, limit int, format string) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	l := listing{columns: []string{"round", "id", "agent", "elo", "lo", "hi", "games"}}
	more := false
	err = db.AllHistory(j.ctx, func(r store.HistoryRow, name string) error {
		if limit > 0 && len(l.rows) == limit {
			more = true
			return errStopListing
		}
		l.rows = append(l.rows, []any{r.Round, r.Agent, name, r.Elo, r.Lo, r.Hi, r.Games})
		return nil
	})
	if err != nil && !errors.Is(err, errStopListing) {
		return err
	}
	if err := l.write(j.Stdout, format); err != nil {
		return err
	}
	if more && format == "table" {
		fmt.Fprintf(j.Stdout, "(the first %d stored rows: --limit N, --all, or --agent for one agent's)\n", limit)
	}
	return nil
}

// runAgentHistory lists the rating of the agent ref names after every
// round since it was first rated, in format.
func runAgentHistory(j *job, ref, format string) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := j.lookup(db, ref)
	if err != nil {
		return err
	}
	history, err := db.History(j.ctx, a.ID)
	if err != nil {
		return err
	}
	last, _, err := db.LastRound(j.ctx)
	if err != nil && !errors.Is(err, store.ErrNoRounds) {
		return err
	}
	l := listing{columns: []string{"round", "id", "agent", "elo", "lo", "hi", "games", "stored"}}
	for i, r := range history {
		until := last // the round before the next stored row
		if i+1 < len(history) {
			until = history[i+1].Round - 1
		}
		for round := r.Round; round <= until; round++ {
			l.rows = append(l.rows, []any{round, r.Agent, a.Name, r.Elo, r.Lo, r.Hi, r.Games, round == r.Round})
		}
	}
	return l.write(j.Stdout, format)
}

// errStopListing ends a listing's walk over the rows once it has as many
// as it shows.
var errStopListing = errors.New("enough rows")

// sampledLeaderboard is the leaderboard of a game whose players are
// measured on sets of solved positions (Connect Four): the share of
// their moves that keep the value on the random set, then on the
// tactical set, overall and by phase.
func sampledLeaderboard(list []*store.Agent, ranks []int, isBest func(*store.Agent) bool, format string, kit *agents.Kit, ladder league.Ladders) listing {
	shares := func(a *store.Agent, pct func(game.Score) any) []any {
		out := []any{nil, nil, nil, nil, nil}
		if a.Random != nil {
			out[0] = pct(*a.Random)
		}
		if s := a.Shares; s != nil {
			out[1], out[2], out[3], out[4] = pct(s.All), pct(s.Early), pct(s.Middle), pct(s.Late)
		}
		return out
	}
	if format == "table" {
		l := listing{columns: []string{"rank", "agent", "round", "method", "elo", "95%", "w/d/l", "random", "tactical", "early", "middle", "late"}}
		pct := func(s game.Score) any { return fmt.Sprintf("%.1f%%", s.Percent()) }
		for i, a := range list {
			l.rows = append(l.rows, append(standingRow(ranks[i], a, isBest(a)), shares(a, pct)...))
		}
		return l
	}
	l := listing{columns: slices.Insert([]string{"rank", "id", "agent", "round", "method", "kind", "best", "elo", "lo", "hi", "games", "wins", "draws", "losses",
		"random_pct", "tactical_pct", "early_pct", "middle_pct", "late_pct"}, afterHi, ladderColumns...)}
	pct := func(s game.Score) any { return exact(s.Percent()) }
	for i, a := range list {
		l.rows = append(l.rows, append(besideElo(standingFields(ranks[i], a, isBest(a)), a, kit, ladder), shares(a, pct)...))
	}
	return l
}

// standingRow is the start of a leaderboard table's row of a, at rank: name (starred when best), the round that made it, its
// method, Elo, interval, W/D/L. The name carries the agent's id, and the
// round is the other number a user meets (a checkpoint's round line, ttt
// rounds).
func standingRow(rank int, a *store.Agent, best bool) []any {
	s := a.Standing
	name := clip(a.Name, maxTableName)
	if best {
		name += " *"
	}
	return []any{rank, name, madeIn(a), methodOf(a), s.Elo, fmt.Sprintf("[%.0f, %.0f]", s.Lo, s.Hi),
		count(s.Record.Wins) + "/" + count(s.Record.Draws) + "/" + count(s.Record.Losses)}
}

// standingFields is the start of a leaderboard's CSV or JSON row of a,
// at rank: id, name, round, method, kind, best, Elo, interval,
// games, W, D, L.
func standingFields(rank int, a *store.Agent, best bool) []any {
	s := a.Standing
	return []any{rank, a.ID, a.Name, madeIn(a), methodOf(a), a.Kind, best, s.Elo, s.Lo, s.Hi, s.Games, s.Record.Wins, s.Record.Draws, s.Record.Losses}
}

// madeIn is the league round that made a, none (nil) for an agent made
// outside the rounds: a built-in player, an import, a ttt train --db.
func madeIn(a *store.Agent) any {
	if a.Generation == 0 {
		return nil
	}
	return a.Generation
}

// methodOf is how a learned, none (nil) for a built-in player or no
// agent.
func methodOf(a *store.Agent) any {
	if a == nil || a.Method == "" {
		return nil
	}
	return a.Method
}
