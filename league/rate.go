package league

import (
	"context"
	"math"
	"slices"

	"ttt/agents/game"
	"ttt/league/elo"
	"ttt/store"
)

// fitBudget bounds the rating fit's work in a round, in visits of a
// result: a small share of a round (BENCHMARKS.md, "Rating fit: a
// round's update at 100,000 agents"). A round's new results move a few
// dozen ratings, and the fit settles them far within it even at 100,000
// checkpoints. A league that ever needs more goes on with the rest in the
// next round, and the round says how many it left (store.RoundStats).
const fitBudget = 5_000_000

// fit is what rating a round's matches changes: the fit's report, the
// exact ratings it moved, the standings of the agents that played and
// the history rows of the ratings that moved.
type fit struct {
	settled elo.Settled
	fits    *store.Fits
	updates []store.Update
	history []store.HistoryRow
}

// rate adds the round's matches to the rating fit and settles it. Every
// rating it moved goes to the fits table, exact, for a resumed league to
// go on from, and every anchor the table does not hold yet, so that it
// says which scale the league is on; after a few hundred rounds, every
// rating at once, which makes the rows before useless. An agent that played gets its record
// updated, and one that the fit moved by more than store.StandingStep
// since its standing's Elo, that Elo: what the leaderboard shows is
// the fit's rating, not its history's, which lags by up to
// store.HistoryStep, more than the fit's own error (README). One whose
// rating or interval moved by more than store.HistoryStep since its last
// history row, or that is new, gets a row, which its standing shows.
func (lg *league) rate(matches []store.Match) (fit, error) {
	played := map[int64]game.Record{}
	for _, m := range matches {
		if err := lg.ratings.Add(elo.Pair{A: m.A, B: m.B, Record: m.Record}); err != nil {
			return fit{}, err
		}
		played[m.A] = played[m.A].Plus(m.Record)
		played[m.B] = played[m.B].Plus(m.Record.Reversed())
	}
	f := fit{settled: lg.ratings.Settle(fitBudget), fits: &store.Fits{}}

	// STEP 1: the exact ratings, moved or all.
	moved := lg.ratings.Moved()
	if lg.fitsSince+fitBytes*len(moved) > fitBytes*len(lg.members) {
		f.fits.Full = true
		for id := range int64(len(lg.members)) + 1 { // 0 is the snapshot
			if r, ok := lg.ratings.Rating(id); ok {
				f.fits.Agents, f.fits.Elo = append(f.fits.Agents, id), append(f.fits.Elo, r.Elo)
			}
		}
	} else {
		for _, id := range slices.Concat(moved, lg.unfitted) {
			r, _ := lg.ratings.Rating(id)
			f.fits.Agents, f.fits.Elo = append(f.fits.Agents, id), append(f.fits.Elo, r.Elo)
		}
	}

	// STEP 2: the standings and the history, of the agents that played
	// or moved, or whose standing is behind the fit.
	touched := slices.Concat(moved, lg.behind)
	for id := range played {
		touched = append(touched, id)
	}
	slices.Sort(touched)
	for _, id := range slices.Compact(touched) {
		r, _ := lg.ratings.Rating(id)
		now := store.HistoryRow{Agent: id, Elo: r.Elo, Lo: r.Lo, Hi: r.Hi, Games: r.Games}
		row := id == 0 || lg.member(id).shown.Round == 0 || now.MovedFrom(lg.member(id).shown)
		if row {
			f.history = append(f.history, now)
		}
		u := store.Update{Agent: id, Played: played[id], Ranked: id == 0 || ranks(lg.member(id).kind)} // 0 is the snapshot
		if _, behind := slices.BinarySearch(lg.behind, id); !row && (behind || math.Abs(now.Elo-lg.member(id).elo) > store.StandingStep) {
			u.Elo = &now.Elo
		}
		if _, ok := played[id]; ok || row || u.Elo != nil {
			f.updates = append(f.updates, u)
		}
	}
	return f, nil
}

// fitBytes is the size of one rating in the fits table.
const fitBytes = 12

// committed brings the league in memory up to date with round r, just
// committed. Another ttt may have added agents since the round began (ttt
// import, ttt train --db), whose ids come before a snapshot's: they join
// now, and play in the next round.
func (lg *league) committed(ctx context.Context, r *store.Round, con contestant) error {
	// STEP 1: the members, the snapshot last, which joins rated: the
	// round's update and history row are its standing.
	lg.lastRound = r.ID
	var id int64 // the snapshot's
	newest := int64(len(lg.members))
	if r.Snapshot != nil {
		id = r.Snapshot.ID
		newest = id - 1
	}
	if newest > int64(len(lg.members)) {
		err := lg.db.Members(ctx, int64(len(lg.members)), func(m store.Member) error {
			if m.ID > newest {
				return nil
			}
			return lg.add(m)
		})
		if err != nil {
			return err
		}
	}
	if r.Snapshot != nil {
		var shown store.HistoryRow
		for _, h := range r.History {
			if h.Agent == id {
				shown = h
			}
		}
		if err := lg.add(store.Member{ID: id, Kind: store.Checkpoint, Round: r.ID, Shown: shown, Elo: shown.Elo}); err != nil {
			return err
		}
		if err := lg.ratings.Rename(0, id); err != nil {
			return err
		}
		lg.latest[r.Snapshot.Method] = id
		lg.contestants.add(id, con)
	}
	lg.behind, lg.unfitted = nil, nil

	// STEP 2: ratings shown and ranked (the commit replaced the
	// snapshot's 0 by its id in the history rows), and the size of the
	// fits table since its last full row.
	for _, h := range r.History {
		m := lg.member(h.Agent)
		if m.kind.PlaysModel() {
			lg.ranking.Delete(ranked{m.shown.Elo, h.Agent})
			lg.ranking.ReplaceOrInsert(ranked{h.Elo, h.Agent})
		}
		m.shown, m.elo = h, h.Elo
	}
	for _, u := range r.Updates {
		if u.Elo != nil {
			lg.member(u.Agent).elo = *u.Elo
		}
	}
	if lg.fitsSince += fitBytes * len(r.Fits.Agents); r.Fits.Full {
		lg.fitsSince = 0
	}
	lg.waiting = slices.DeleteFunc(lg.waiting, func(w int64) bool { return lg.member(w).shown.Round != 0 })

	return nil
}
