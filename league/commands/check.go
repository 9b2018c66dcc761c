package commands

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"ttt/league"
	"ttt/store"
)

// errDamaged makes `ttt check` exit non-zero without another message: the
// lines above it say what is wrong.
var errDamaged = errors.New("the league is damaged")

// checkCommand is `ttt check`: is the league file sound?
func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "check a league file: SQLite's checks, the checksums of every stored net, the ratings, replayed matches",
		UsageText: `ttt check [options]

   ttt check
   ttt check --sample 1          # replay every match
   ttt check --ratings           # refit every result from scratch instead

   Runs SQLite's integrity check, checks every stored network and move
   table against the checksum stored with it (SQLite cannot see into
   them), writes every stored model out as ttt export would and reads
   the file back, which must give the same model, checks the ratings (finite numbers; every agent that played
   rated; each standing within half an Elo of its last history row), and replays every
   --sample-th stored match, which must give its stored record. Prints what is wrong and where, one line each, and exits
   with 1 if anything is; it only reads.

   With --ratings it fits every stored result from scratch instead, and
   compares each agent's rating (the leaderboard's) with the refit: it
   prints the largest difference, with its agent, and the median. An
   agent more than 0.1 Elo away is named, as a lag of the league's
   incremental fit behind a full one, which is no damage: ttt ratings
   refit sets every rating to the refit. A rated agent in no stored
   match is damage, and exits with 1.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "sample", Value: 100, Usage: "replay one match in `N`"},
			&cli.BoolFlag{Name: "ratings", Usage: "refit every stored result and compare the ratings with it"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			if c.Int("sample") < 1 {
				return usage(c.Command, "--sample must be at least 1 (got %d)", c.Int("sample"))
			}
			if c.Bool("ratings") {
				if c.IsSet("sample") {
					return usage(c.Command, "--ratings replays no match: --sample goes without it")
				}
				return asCheck(runCheckRatings(jobOf(c)))
			}
			return asCheck(runCheck(jobOf(c), c.Int("sample")))
		},
	}
}

// asCheck makes err a checkFailure: what check found, said by check.
func asCheck(err error) error {
	if err == nil {
		return nil
	}
	return checkFailure{err}
}

// runCheck looks for damage in the job's league: SQLite's checks, the
// blobs' checksums, the ratings, and every sample-th match replayed.
func runCheck(j *job, sample int) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	w := j.Stdout
	problems := 0
	found := func(what string) {
		problems++
		fmt.Fprintln(w, what)
	}
	blobs, err := db.Check(j.ctx, found)
	if err != nil {
		return err
	}
	// Damage that keeps a part of the check from reading on is a line,
	// and the other parts go on.
	models, err := league.CheckModels(j.ctx, db, found)
	if store.Damaged(err) {
		found("reading the models: " + err.Error())
	} else if err != nil {
		return err
	}
	replayed, err := league.Replay(j.ctx, db, sample, found)
	if store.Damaged(err) {
		found("replaying the matches: " + err.Error())
	} else if err != nil {
		return err
	}
	if err := league.CheckResume(j.ctx, db, found); err != nil {
		return err
	}
	// Extra games against the ladder that a network owes are no damage:
	// a league run killed or stopped after a round's commit leaves them
	// to the next run, and that network's ladder rating is provisional
	// until then. Each is a line, whatever the verdict.
	owed, err := provisionalLadders(j, db)
	if err != nil {
		return err
	}
	for _, line := range owed {
		fmt.Fprintln(w, line)
	}
	if problems > 0 {
		fmt.Fprintf(w, "%s: %s found\n", j.db, plural(problems, "problem"))
		return errDamaged
	}
	fmt.Fprintf(w, "%s is healthy: SQLite's checks pass, %d stored blobs match their checksums, %d models export and read back exactly, %d replayed matches their records\n",
		j.db, blobs, models, replayed)
	return nil
}

// provisionalLadders says of each network that owes extra games against
// the ladder its ladder rating, which is provisional, in one line each:
// "agent 20 (checkpoint-20): its ladder rating 292.7 over 576 games is
// provisional: ...".
func provisionalLadders(j *job, db *store.DB) ([]string, error) {
	var lines []string
	err := db.View(j.ctx, func(v *store.View) error {
		owed, err := v.LadderOwed()
		if err != nil || len(owed) == 0 {
			return err
		}
		ids := slices.Sorted(maps.Keys(owed))
		ladders, err := league.LaddersOf(v, ids)
		if err != nil {
			return err
		}
		for _, id := range ids {
			name, err := v.Name(strconv.FormatInt(id, 10))
			if err != nil {
				return err
			}
			rating := "unrated yet"
			if l, ok := ladders.Ratings[id]; ok {
				rating = fmt.Sprintf("%.1f over %d games", l.Elo, l.Games)
			}
			lines = append(lines, fmt.Sprintf("agent %d (%s): its ladder rating, %s, is provisional: its extra games against the ladder after round %d are still to be played, and a league run plays them first; no damage",
				id, name.Name, rating, owed[id]))
		}
		return nil
	})
	return lines, err
}

// runCheckRatings is `ttt check --ratings`: every stored result fitted
// from scratch, against the ratings the league shows. Ratings further
// than the bound from the refit are a lag, said with its size and what
// settles it; a rated agent without a result is damage.
func runCheckRatings(j *job) error {
	db, err := j.openLeague(false)
	if err != nil {
		return err
	}
	defer db.Close()
	refit, err := league.CheckRatings(j.ctx, db)
	if err != nil {
		return err
	}
	w := j.Stdout
	if refit.OlderScale {
		fmt.Fprintf(w, "%s: its ratings are on the scale of an older ttt, random at 0 alone, and so is the refit: ttt upgrade moves them to the %s scale\n",
			j.db, db.Game().Title())
	}
	for _, g := range refit.Missing {
		fmt.Fprintf(w, "agent %d (%s): rated %.3f, a refit of the stored results says %s\n", g.Agent, g.Name, g.Stored, refitText(g))
	}
	if len(refit.Missing) > 0 {
		fmt.Fprintf(w, "%s: %d of %d rated agents are in no stored match\n", j.db, len(refit.Missing), refit.Agents)
		return errDamaged
	}
	if refit.Agents == 0 {
		fmt.Fprintf(w, "%s rates no agent yet: nothing to refit\n", j.db)
		return nil
	}
	g := refit.Largest
	if len(refit.Beyond) > 0 {
		for _, g := range refit.Beyond {
			fmt.Fprintf(w, "agent %d (%s): rated %.3f, a refit of the stored results says %s\n", g.Agent, g.Name, g.Stored, refitText(g))
		}
		fmt.Fprintf(w, "%s: %d of %d ratings lag a refit of %d stored matches by more than %g Elo, %.3f at most (agent %d, %s), %.3f median: the league's incremental fit has not caught up with a full one, which is no damage; ttt ratings refit sets every rating to the refit\n",
			j.db, len(refit.Beyond), refit.Agents, refit.Results, league.RefitBound, g.Diff(), g.Agent, g.Name, refit.Median)
		return nil
	}
	fmt.Fprintf(w, "%s: a refit of %d stored matches agrees with the %d ratings within %g Elo: %.3f at most (agent %d, %s: rated %.3f, refit %.3f), %.3f median\n",
		j.db, refit.Results, refit.Agents, league.RefitBound, g.Diff(), g.Agent, g.Name, g.Stored, g.Refit, refit.Median)
	return nil
}

// refitText says what a refit makes of an agent, and how far that is
// from its rating.
func refitText(g league.RefitGap) string {
	if math.IsNaN(g.Refit) {
		return "nothing: it is in no stored match"
	}
	return fmt.Sprintf("%.3f (%.3f Elo apart)", g.Refit, g.Diff())
}
