package commands

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/league"
	"ttt/store"
)

// roundrobinCommand is `ttt roundrobin`: every pair among chosen agents,
// stored like the league's matches, and their crosstable.
func roundrobinCommand() *cli.Command {
	return &cli.Command{
		Name:  "roundrobin",
		Usage: "play every pair among chosen agents that has not played, rate them, print the crosstable",
		UsageText: `ttt roundrobin [options] AGENT AGENT...

   ttt roundrobin best latest perfect random
   ttt roundrobin 120 250 380 --format csv

   AGENT is an id, a name, best, latest, a built-in player, or a model
   with a search after an @ (best@ab8), which joins the league as a player
   of its own. Each pair that has not played yet plays as in the league
   (every opening of --openings moves, in both colours), in one round of
   its own; the ratings move as a league round moves them. The crosstable
   gives each agent's score against each other: points (a draw is half)
   out of games. One roundrobin or league run at a time per database.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "openings", Value: leagueDefaults.Openings, Usage: "play every opening of this many moves (0-2), in both colours"},
			workersFlag(),
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random player's games"},
			formatFlag(), dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 2 {
				return usage(c.Command, "name two agents or more")
			}
			if err := checkFormat(c); err != nil {
				return err
			}
			cfg := league.Config{Openings: c.Int("openings"), Workers: c.Int("workers"), Seed: c.Uint64("seed")}
			if cfg.Openings < 0 || cfg.Openings > league.MaxOpening {
				return usage(c.Command, "--openings must be within 0..%d moves (got %d)", league.MaxOpening, cfg.Openings)
			}
			return runRoundRobin(jobOf(c), c.Args().Slice(), cfg, c.String(formatFlagName))
		},
	}
}

// runRoundRobin plays every pair of the agents refs name that has not
// played, with flags' openings, workers and seed and the league's own
// game and settings otherwise, as a league round, and prints their
// crosstable in format.
func runRoundRobin(j *job, refs []string, flags league.Config, format string) error {
	db, err := j.openLeague(true)
	if err != nil {
		return err
	}
	defer db.Close()
	kit := agents.KitFor(db.Game())
	cfg, _, err := league.Resume(j.ctx, db, league.Default(kit), func(string) bool { return false })
	if err != nil {
		return err
	}
	cfg.Openings, cfg.Workers, cfg.Seed = flags.Openings, flags.Workers, flags.Seed
	var agents []*league.Agent
	seen := map[string]bool{} // by name: every searched agent the league has not got has id 0
	for _, ref := range refs {
		a, err := j.lookup(db, ref)
		if err != nil {
			return err
		}
		if !seen[a.Name] {
			seen[a.Name] = true
			agents = append(agents, a)
		}
	}
	if len(agents) < 2 {
		return j.usage("%s name one agent: a round-robin needs two or more", strings.Join(refs, ", "))
	}
	if err := db.Lock(); err != nil {
		return err
	}
	if err := j.toScale(db, j.Stderr, "ttt: "); err != nil {
		return err
	}
	ids := make([]int64, len(agents))
	for i, a := range agents {
		if a.ID == 0 { // a searched agent the league has not got: it joins
			if a, err = league.AddSearched(j.ctx, db, kit, a); err != nil {
				return err
			}
		}
		ids[i] = a.ID
	}
	round, err := league.RoundRobin(j.ctx, db, ids, cfg)
	if err != nil {
		return err
	}
	if err := j.crosstable(db, ids, round, format); err != nil {
		return err
	}
	// An imported network gets its ladder rating, as at its import (a
	// league of an older ttt may hold one that has none yet).
	for _, a := range agents {
		if a.Kind != store.Imported {
			continue
		}
		l, err := league.SettleLadder(j.ctx, db, strconv.FormatInt(a.ID, 10), cfg)
		if err != nil {
			return fmt.Errorf("%s: its games against the ladder: %w", a.Name, err)
		}
		if format == "table" {
			fmt.Fprintln(j.Stdout, ladderSettled(a.Name, l))
		}
	}
	return nil
}

// crosstable prints the agents ids' crosstable, best-rated first, as
// Ordo and cutechess-cli print one: each agent's rating, games and score,
// and its points against each other agent, by the other's rank.
func (j *job) crosstable(db *store.DB, ids []int64, round int64, format string) error {
	var agents []*store.Agent
	for _, id := range ids {
		a, err := j.lookup(db, fmt.Sprint(id))
		if err != nil {
			return err
		}
		agents = append(agents, a.Agent)
	}
	sortByRating(agents)
	var pairs [][2]int64
	for _, a := range agents {
		for _, b := range agents {
			if a.ID > b.ID {
				pairs = append(pairs, [2]int64{a.ID, b.ID})
			}
		}
	}
	records, err := db.PairRecords(j.ctx, pairs)
	if err != nil {
		return err
	}
	l := listing{columns: []string{"rank", "agent", "elo", "games", "score"}}
	if format != "table" {
		l.columns = []string{"rank", "id", "agent", "elo", "games", "points"}
	}
	for i := range agents {
		l.columns = append(l.columns, fmt.Sprint(i+1))
	}
	for i, a := range agents {
		var games int
		var points float64
		var cells []any
		for _, b := range agents {
			if a.ID == b.ID {
				cells = append(cells, nil)
				continue
			}
			rec := records[[2]int64{max(a.ID, b.ID), min(a.ID, b.ID)}]
			if a.ID < b.ID {
				rec = rec.Reversed()
			}
			games, points = games+rec.Games(), points+rec.Points()
			cells = append(cells, cell(rec.Points(), rec.Games(), format))
		}
		var elo any
		if a.Standing != nil {
			elo = a.Standing.Elo
		}
		row := []any{i + 1, a.Name, elo, games, fmt.Sprintf("%.1f%%", 100*points/float64(max(games, 1)))}
		if format != "table" {
			row = []any{i + 1, a.ID, a.Name, elo, games, exact(points)}
		}
		l.rows = append(l.rows, append(row, cells...))
	}
	if format == "table" {
		if round == 0 {
			fmt.Fprintln(j.Stdout, "Every pair had played: nothing new to play.")
		} else {
			fmt.Fprintf(j.Stdout, "Round %d played the pairs that had not played.\n", round)
		}
	}
	return l.write(j.Stdout, format)
}

// cell is a crosstable cell: points out of games in a table, the points
// alone in CSV and JSON (the games are the same for every pair).
func cell(points float64, games int, format string) any {
	if format != "table" {
		return exact(points)
	}
	return fmt.Sprintf("%g/%d", points, games)
}

// sortByRating orders agents best-rated first, unrated last, ties by id.
func sortByRating(agents []*store.Agent) {
	elo := func(a *store.Agent) float64 {
		if a.Standing == nil {
			return math.Inf(-1)
		}
		return a.Standing.Elo
	}
	slices.SortStableFunc(agents, func(a, b *store.Agent) int {
		return cmp.Or(cmp.Compare(elo(b), elo(a)), cmp.Compare(a.ID, b.ID))
	})
}
