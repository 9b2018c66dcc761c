package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ratingChecks are what checkRatings asks of the standings, the history
// and the rounds' points of the learning curve, each a query of what
// fails it (named as the line says it) and the line that says how. No fit
// writes a rating that is not a finite number, which JSON cannot hold
// (ttt serve could not answer it); an agent's standing is the fit's
// rating, within HistoryStep of its last history row, whose round it
// names, and an agent that has played has one, with the record of all its
// matches.
var ratingChecks = []struct{ query, says string }{
	{`SELECT ` + agentLabel + ` FROM standings s JOIN agents a ON a.id = s.agent_id
		WHERE NOT (` + finiteSQL("s") + `) ORDER BY a.id`,
		"its standing's rating is not a finite number"},
	{`SELECT DISTINCT ` + agentLabel + ` FROM history h JOIN agents a ON a.id = h.agent_id
		WHERE NOT (` + finiteSQL("h") + `) ORDER BY a.id`,
		"a rating in its history is not a finite number"},
	{`SELECT 'round ' || r.id FROM rounds r WHERE r.elo IS NOT NULL AND NOT (` + finiteSQL("r") + `) ORDER BY r.id`,
		"the rating of its snapshot is not a finite number"},
	{`SELECT ` + agentLabel + ` FROM standings s JOIN agents a ON a.id = s.agent_id
		WHERE NOT EXISTS (SELECT 1 FROM history h WHERE h.agent_id = s.agent_id AND h.round_id = s.round_id
			AND abs(h.elo - s.elo) <= ` + historyStepSQL + ` AND abs(h.lo - s.lo) <= ` + historyStepSQL + `
			AND abs(h.hi - s.hi) <= ` + historyStepSQL + `)
			OR EXISTS (SELECT 1 FROM history h WHERE h.agent_id = s.agent_id AND h.round_id > s.round_id)
		ORDER BY a.id`,
		"its standing is not within a history step of its last history row"},
	{`SELECT DISTINCT ` + agentLabel + ` FROM history h JOIN agents a ON a.id = h.agent_id
		WHERE NOT EXISTS (SELECT 1 FROM standings s WHERE s.agent_id = h.agent_id)
		ORDER BY a.id`,
		"it has a rating history but no standing"},
	{`SELECT ` + agentLabel + ` FROM standings s JOIN agents a ON a.id = s.agent_id
		WHERE s.wins != (SELECT coalesce(sum(wins), 0) FROM matches WHERE a = s.agent_id) + (SELECT coalesce(sum(losses), 0) FROM matches WHERE b = s.agent_id)
			OR s.draws != (SELECT coalesce(sum(draws), 0) FROM matches WHERE a = s.agent_id) + (SELECT coalesce(sum(draws), 0) FROM matches WHERE b = s.agent_id)
			OR s.losses != (SELECT coalesce(sum(losses), 0) FROM matches WHERE a = s.agent_id) + (SELECT coalesce(sum(wins), 0) FROM matches WHERE b = s.agent_id)
		ORDER BY a.id`,
		"its record is not the sum of its matches' (a match was deleted or changed)"},
	{`SELECT ` + agentLabel + ` FROM agents a
		WHERE NOT EXISTS (SELECT 1 FROM standings s WHERE s.agent_id = a.id)
			AND (EXISTS (SELECT 1 FROM matches m WHERE m.a = a.id) OR EXISTS (SELECT 1 FROM matches m WHERE m.b = a.id))
		ORDER BY a.id`,
		"it has played but is not rated"},
}

// historyStepSQL is HistoryStep in SQL.
var historyStepSQL = strconv.FormatFloat(HistoryStep, 'g', -1, 64)

// agentLabel names agent a in SQL as Check's lines do: agent ID (NAME).
const agentLabel = `'agent ' || a.id || ' (' || a.name || ')'`

// finiteSQL is an SQL condition: the rating of table t's row (elo, lo and
// hi) is finite numbers. SQLite stores a NaN as NULL, which fails it, as
// does text (such as 'Inf', which a reader would take for an infinity).
func finiteSQL(t string) string {
	var terms []string
	for _, col := range []string{"elo", "lo", "hi"} {
		c := t + "." + col
		terms = append(terms, fmt.Sprintf("typeof(%s) IN ('real', 'integer') AND abs(%s) <= %g", c, c, math.MaxFloat64))
	}
	return strings.Join(terms, " AND ")
}

// checkRatings hands found a line for each agent or round that fails one
// of ratingChecks.
func checkRatings(ctx context.Context, tx *sql.Tx, found func(string)) error {
	for _, c := range ratingChecks {
		rows, err := tx.QueryContext(ctx, c.query)
		if err != nil {
			return err
		}
		var who string
		err = scanEach(ctx, rows, []any{&who}, func() error {
			found(who + ": " + c.says)
			return nil
		})
		rows.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
