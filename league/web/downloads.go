package web

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
	"strconv"
	"time"

	"ttt/agents"
	"ttt/league"
	"ttt/league/pgn"
	"ttt/store"
)

// The downloads: what a page shows, whole, as files to take away. Each
// is read in one store.View, like the API's answers, and sent as an
// attachment.

// attach sets the headers of a download named name.
func attach(w http.ResponseWriter, contentType, name string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Cache-Control", "no-store")
}

// writeCSV sends rows, the header first, as the CSV file name.
func writeCSV(w http.ResponseWriter, name string, rows [][]string) {
	attach(w, "text/csv; charset=utf-8", name)
	cw := csv.NewWriter(w)
	cw.WriteAll(rows) // a write error is the client's
}

// num formats a rating or a score for a CSV file, as ttt ratings
// --format csv writes them.
func num(v float64) string { return string(league.AppendNumber(nil, v)) }

// curveCSV answers GET /api/progress.csv: the learning curve as CSV, a
// row for every round that made a snapshot (not thinned, unlike
// /api/progress), with its snapshot's shares of optimal moves where the
// game has position sets: the random-ply set's first, as ttt ratings
// writes them (empty for a snapshot measured before that set), then the
// tactical set's.
func (s *Server) curveCSV(w http.ResponseWriter, r *http.Request, o *opened) {
	kit := agents.KitFor(o.db.Game())
	var (
		curve  []store.CurvePoint
		shares map[int64]store.SetShares
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if curve, _, err = v.CurveAfter(0, math.MaxInt); err != nil {
			return err
		}
		shares, err = curveShares(v, kit, curve)
		return err
	})
	if !ok {
		return
	}
	head := []string{"round", "agent", "method", "elo", "lo", "hi"}
	if kit.Positions != nil {
		head = append(head, "random_pct", "tactical_pct")
	}
	rows := [][]string{head}
	for _, c := range curve {
		row := []string{strconv.FormatInt(c.Round, 10), strconv.FormatInt(c.Agent, 10), c.Method, num(c.Elo), num(c.Lo), num(c.Hi)}
		if kit.Positions != nil {
			random, pct := "", ""
			if sc, ok := shares[c.Agent]; ok {
				pct = num(sc.Tactical.Percent())
				if sc.Random != nil {
					random = num(sc.Random.Percent())
				}
			}
			row = append(row, random, pct)
		}
		rows = append(rows, row)
	}
	writeCSV(w, "learning-curve.csv", rows)
}

// opponentsCSV answers GET /api/agents/{ref}/opponents.csv: the agent's
// record against every opponent it has played, by id, as CSV.
func (s *Server) opponentsCSV(w http.ResponseWriter, r *http.Request, o *opened) {
	var (
		agent store.AgentName
		list  []store.Opponent
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if agent, err = league.FindName(v, r.PathValue("ref")); err != nil {
			return err
		}
		list, err = v.Opponents(agent.ID, 0, math.MaxInt)
		return err
	})
	if !ok {
		return
	}
	// The record as X and as O where the league kept it (against the
	// built-in players); empty cells elsewhere.
	rows := [][]string{{"id", "name", "kind", "games", "wins", "draws", "losses", "score",
		"x_wins", "x_draws", "x_losses", "o_wins", "o_draws", "o_losses"}}
	for _, o := range list {
		rec := o.Record
		row := []string{strconv.FormatInt(o.ID, 10), o.Name, string(o.Kind), strconv.Itoa(rec.Games()),
			strconv.Itoa(rec.Wins), strconv.Itoa(rec.Draws), strconv.Itoa(rec.Losses), num(rec.Score()), "", "", "", "", "", ""}
		if o.First != nil {
			x, y := *o.First, o.Second()
			copy(row[8:], []string{strconv.Itoa(x.Wins), strconv.Itoa(x.Draws), strconv.Itoa(x.Losses),
				strconv.Itoa(y.Wins), strconv.Itoa(y.Draws), strconv.Itoa(y.Losses)})
		}
		rows = append(rows, row)
	}
	writeCSV(w, agent.Name+"-opponents.csv", rows)
}

// gamesPGN answers GET /api/agents/{ref}/games.pgn: the agent's games,
// replayed from the stored matches as ttt games export --agent writes
// them. It streams, a match at a time, for as long as it takes (perfect
// has played every snapshot of a league); a replay that fails midway
// breaks the connection, so that no browser keeps a file cut short as
// if it were whole.
func (s *Server) gamesPGN(w http.ResponseWriter, r *http.Request, o *opened) {
	var agent store.AgentName
	if !s.view(w, r, o, func(v *store.View) (err error) {
		agent, err = league.FindName(v, r.PathValue("ref"))
		return err
	}) {
		return
	}
	// The whole answer may take longer than the server's write timeout.
	rc := http.NewResponseController(w)
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.fail(w, r, err)
		return
	}
	attach(w, "application/x-chess-pgn", agent.Name+".pgn")
	pw := pgn.NewWriter(w, "ttt serve", o.db.Game())
	err := league.Games(r.Context(), o.db, store.MatchFilter{Agent: agent.ID}, func(g league.StoredGame) error {
		if err := o.current(); err != nil { // a game of another league's file
			return err
		}
		return pw.Write(pgn.Game{Round: g.Round, Date: g.Date, White: g.XName, Black: g.OName, Result: g.Result, Moves: g.Moves})
	})
	if err == nil {
		err = pw.Flush()
	}
	if err != nil {
		if s.errLog != nil && r.Context().Err() == nil {
			s.errLog.Printf("%s %s: %v", r.Method, r.URL.Path, fmt.Errorf("replaying the games: %w", err))
		}
		panic(http.ErrAbortHandler)
	}
}
