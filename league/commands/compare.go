package commands

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league"
	"ttt/store"
)

// compareCommand is `ttt compare`: two agents side by side.
func compareCommand() *cli.Command {
	return &cli.Command{
		Name:  "compare",
		Usage: "compare two agents: their games against each other, their ratings, the positions where they move differently",
		UsageText: `ttt compare [options] AGENT AGENT

   ttt compare best latest
   ttt compare checkpoint-120 perfect | less

   AGENT is an id, a name, best or latest. It prints the first agent's
   record against the second, the difference of their ratings with its
   95% interval and the score it expects of the first, and then every
   position where they move differently, with the value of each move: in
   tic-tac-toe every position where a move is due, in Connect Four the
   position set of the share of optimal moves. Random and the MCTS
   players draw their moves, and have none to compare. Only reads the
   database.`,
		Flags: []cli.Flag{moveTimeFlag(), dbFlag()},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c, "AGENT", "AGENT"); err != nil {
				return err
			}
			limit, err := moveTime(c)
			if err != nil {
				return err
			}
			return runCompare(jobOf(c), c.Args().Get(0), c.Args().Get(1), limit)
		},
	}
}

// runCompare compares the agents that refA and refB name; a searched
// one thinks limit a move at most (0: no limit).
func runCompare(j *job, refA, refB string, limit time.Duration) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := j.lookup(db, refA)
	if err != nil {
		return err
	}
	b, err := j.lookup(db, refB)
	if err != nil {
		return err
	}
	var record game.Record
	var met bool
	if a.ID != 0 && b.ID != 0 { // a searched agent the league has not got has met nobody
		if err := db.View(j.ctx, func(v *store.View) (err error) {
			record, met, err = league.HeadToHead(v, a.ID, b.ID)
			return err
		}); err != nil {
			return err
		}
	}
	if a.Name == b.Name {
		return j.usage("%s and %s are one agent, %s (%d): name two", refA, refB, a.Name, a.ID)
	}
	// A pruned checkpoint has no moves to compare, which random and the
	// MCTS players' lack of fixed moves must not be taken for.
	for _, x := range []*league.Agent{a, b} {
		if pruned(x.Agent) {
			return errPruned(x.Agent)
		}
	}
	kit := agents.KitFor(db.Game())
	cmp := league.Compare(a, b, record, met)
	if err := cmp.Moves(j.ctx, kit, limit); err != nil {
		return err
	}
	ladder, err := league.DBLadders(j.ctx, db, []int64{a.ID, b.ID})
	if err != nil {
		return err
	}
	writeComparison(j.Stdout, kit, cmp, ladder)
	return nil
}

// writeComparison prints cmp: the figures, the agents' ladder ratings
// (ladder, by id) among them, a provisional one marked so, then each
// position where the agents move differently, drawn as the game draws it.
func writeComparison(w io.Writer, kit *agents.Kit, cmp *league.Comparison, ladder league.Ladders) {
	a, b := cmp.A.Name, cmp.B.Name
	fmt.Fprintf(w, "%s against %s\n", a, b)
	if cmp.Met {
		fmt.Fprintf(w, "head to head:  %s in %d games, a score of %.3f for %s\n", cmp.Record, cmp.Record.Games(), cmp.Record.Score(), a)
	} else {
		fmt.Fprintf(w, "head to head:  they have not played each other\n")
	}
	rating := func(ag *store.Agent) string {
		if ag.Standing == nil {
			return ag.Name + " not rated yet"
		}
		s := ag.Standing
		return fmt.Sprintf("%s %.1f [%.0f, %.0f]", ag.Name, s.Elo, s.Lo, s.Hi)
	}
	fmt.Fprintf(w, "Elo:           %s, %s\n", rating(cmp.A.Agent), rating(cmp.B.Agent))
	onLadder := func(ag *store.Agent) string {
		if l, ok := ladder.Ratings[ag.ID]; ok && ag.Kind.PlaysModel() {
			if _, owed := ladder.Owed[ag.ID]; owed {
				return fmt.Sprintf("%s %.1f [%.0f, %.0f] (provisional: its extra games after round %d are still to be played)", ag.Name, l.Elo, l.Lo, l.Hi, ladder.Owed[ag.ID])
			}
			return fmt.Sprintf("%s %.1f [%.0f, %.0f]", ag.Name, l.Elo, l.Lo, l.Hi)
		}
		return ag.Name + " none"
	}
	if cmp.A.Kind.PlaysModel() || cmp.B.Kind.PlaysModel() {
		// The ratings from the games against the built-in players alone,
		// which compare across leagues.
		fmt.Fprintf(w, "ladder Elo:    %s, %s\n", onLadder(cmp.A.Agent), onLadder(cmp.B.Agent))
	}
	if cmp.Rated {
		fmt.Fprintf(w, "difference:    %+.1f (95%%: %+.1f to %+.1f), an expected score of %.3f for %s\n", cmp.Diff, cmp.Lo, cmp.Hi, cmp.Expected, a)
	}
	if cmp.Compared == 0 {
		fmt.Fprintf(w, "moves:         not compared: random and the MCTS players draw their moves\n")
		return
	}
	where := "every position where a move is due"
	if kit.Positions != nil {
		where = "the position set"
	}
	keptA, keptB := 0, 0
	for _, d := range cmp.Differences {
		best := max(d.AValue, d.BValue)
		if d.AValue == best {
			keptA++
		}
		if d.BValue == best {
			keptB++
		}
	}
	fmt.Fprintf(w, "moves:         different in %d of %d positions (%s)\n", len(cmp.Differences), cmp.Compared, where)
	if len(cmp.Differences) > 0 {
		fmt.Fprintf(w, "               the move of the higher value: %s's in %d, %s's in %d (both where they are equal)\n", a, keptA, b, keptB)
	}
	for _, d := range cmp.Differences {
		fmt.Fprintln(w)
		rows := strings.Split(kit.Format(d.Position), "\n")
		side := kit.ToMove(d.Position)
		rows[0] += fmt.Sprintf("   %s to move: %s plays %s (%s), %s plays %s (%s)", side,
			a, kit.FormatMove(d.A), d.AValue, b, kit.FormatMove(d.B), d.BValue)
		for _, r := range rows {
			fmt.Fprintln(w, r)
		}
	}
}
