package league

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"ttt/agents"
	"ttt/league/elo"
	"ttt/store"
)

// The scale of a league's ratings: its game's built-in players anchored
// at their values (agents.Builtin.Elo), random at 0 among them, so that a
// rating means the same in every league of the game. The leagues of ttt
// before it anchored random alone, and the rest of their scale floated
// with their seed and their learners: two Connect Four leagues that
// differed only in their seed rated mcts-100 610.8 and 593.2.
//
// A league does not say which scale it is on: its fit does. The fits
// table holds the exact rating of every agent the fit has rated, the
// built-in players among them once they have played, so a league is on
// its game's scale when each anchor it holds is at its value, and on the
// older scale otherwise.

// ErrOlderScale is returned by Run and RoundRobin for a league whose
// ratings are on the scale of an older ttt: Rerate moves them.
var ErrOlderScale = errors.New("its ratings are on the scale of an older ttt, random at 0 alone: ttt upgrade moves them to the game's scale")

// anchors returns the anchors of the league's scale: every built-in
// player at its value, by id.
func (c *contestants) anchors() []elo.Anchor {
	var out []elo.Anchor
	for _, id := range slices.Sorted(maps.Keys(c.builtins)) {
		out = append(out, elo.Anchor{ID: id, Elo: c.builtins[id].Elo})
	}
	return out
}

// olderAnchors returns the anchors of the scale of ttt before the game's
// scale: random at 0 alone.
func (c *contestants) olderAnchors() []elo.Anchor {
	return []elo.Anchor{{ID: c.random()}}
}

// onScale reports whether fits, a league's stored ratings, are on the
// scale of anchors: every anchor with a rating has its value.
func onScale(fits map[int64]float64, anchors []elo.Anchor) bool {
	for _, a := range anchors {
		if f, ok := fits[a.ID]; ok && f != a.Elo {
			return false
		}
	}
	return true
}

// scaleOf returns the anchors the stored ratings of db's league were fitted
// with, and whether they are its game's.
func scaleOf(ctx context.Context, db *store.DB, cons *contestants) ([]elo.Anchor, bool, error) {
	if cons.random() == 0 {
		return nil, false, errors.New("the league has no random player, the scale's 0")
	}
	fits, _, err := db.Fits(ctx)
	if err != nil {
		return nil, false, err
	}
	if anchors := cons.anchors(); onScale(fits, anchors) {
		return anchors, true, nil
	}
	return cons.olderAnchors(), false, nil
}

// OnScale reports whether the ratings of db's league are on its game's
// scale; a league of an older ttt is not, until Rerate moves it.
func OnScale(ctx context.Context, db *store.DB) (bool, error) {
	cons, err := newContestants(ctx, db, agents.KitFor(db.Game()))
	if err != nil {
		return false, err
	}
	_, on, err := scaleOf(ctx, db, cons)
	return on, err
}

// Rerated is what Rerate did.
type Rerated struct {
	Agents  int      // rated agents, each set to the refit's rating
	Results int      // stored matches refitted
	Largest RefitGap // the agent that moved furthest: its rating before and after
}

// Rerate fits every stored result anew on the game's scale (elo.Fit, its
// anchors) and stores every agent's rating as that fit has it
// (store.DB.Rerate): each agent's history moves by as much as its
// rating, so that a learning curve keeps its shape, and a resumed league
// goes on from the new ratings. It is how a league of an older ttt moves
// to its game's scale, and how a fit that lags a full one by more than
// RefitBound (CheckRatings) catches up. The caller holds db's league
// lock.
func Rerate(ctx context.Context, db *store.DB) (Rerated, error) {
	var out Rerated
	kit := agents.KitFor(db.Game())
	cons, err := newContestants(ctx, db, kit)
	if err != nil {
		return out, err
	}
	if cons.random() == 0 {
		return out, errors.New("the league has no random player, the scale's 0")
	}
	pairs, err := storedPairs(ctx, db)
	if err != nil {
		return out, err
	}
	fitted, err := elo.Fit(pairs, cons.anchors())
	if err != nil {
		return out, fmt.Errorf("cannot refit the stored results on the %s scale: %w", kit.Title(), err)
	}
	list, _, err := db.Standings(ctx, 0)
	if err != nil {
		return out, err
	}
	before := map[int64]*store.Agent{}
	for _, a := range list {
		before[a.ID] = a
	}
	ratings := make([]store.HistoryRow, 0, len(fitted))
	for _, r := range fitted {
		ratings = append(ratings, store.HistoryRow{Agent: r.Agent, Elo: r.Elo, Lo: r.Lo, Hi: r.Hi, Games: r.Games})
		if a := before[r.Agent]; a != nil {
			g := RefitGap{Agent: a.ID, Name: a.Name, Stored: a.Standing.Elo, Refit: r.Elo}
			if out.Agents == 0 || g.Diff() > out.Largest.Diff() {
				out.Largest = g
			}
			out.Agents++
		}
	}
	out.Results = len(pairs)
	return out, db.Rerate(ctx, ratings)
}

// storedPairs reads every stored result as the fit takes them.
func storedPairs(ctx context.Context, db *store.DB) ([]elo.Pair, error) {
	var pairs []elo.Pair
	err := db.Results(ctx, func(m store.Match) error {
		pairs = append(pairs, elo.Pair{A: m.A, B: m.B, Record: m.Record})
		return nil
	})
	return pairs, err
}
