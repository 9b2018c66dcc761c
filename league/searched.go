package league

import (
	"context"
	"errors"

	"ttt/agents"
	"ttt/agents/search"
	"ttt/store"
)

// AddSearched stores a, a searched agent that Lookup made (a learned
// model with a search around it, named BASE@SEARCH), with the facts the
// league keeps of every agent: the next round rates it, a newcomer that
// plays its pool. A searched agent is a player, not a new scale: it is
// rated among the others by the games it plays.
func AddSearched(ctx context.Context, db *store.DB, kit *agents.Kit, a *Agent) (*Agent, error) {
	m, err := ModelOf(kit, a)
	if err != nil {
		return nil, err
	}
	// The store keeps the parent's model, not a copy, and names the
	// agent after it.
	stored := &store.Agent{Kind: store.Searched, ParentID: a.ParentID, Search: a.Search,
		Generation: a.Generation, TrainGames: a.TrainGames}
	// Measured to the search's full depth, which nothing but ctx stops:
	// what a stopped search measured is not kept.
	Measure(kit, stored, search.Bound(ctx, m, 0))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &Agent{Agent: stored, Spec: a.Spec}, db.AddAgent(ctx, stored)
}

// searched is base, a learned model, with the search s around it: an
// agent the league has not stored (ID 0), which plays as the stored one
// would.
func searched(base *Agent, s search.Spec) *Agent {
	return &Agent{Agent: &store.Agent{Kind: store.Searched, Name: base.Name + "@" + s.String(), ParentID: base.ID,
		Generation: base.Generation, TrainGames: base.TrainGames, Method: base.Method, Search: s.String(),
		Weights: base.Weights}, Spec: &s}
}

// searchBest adds the league's best network with each of the run's
// searches (Config.Search), where the league has not got it yet: a new
// best is rated with its searches from the round after it became the
// best. The best is read from what the rounds committed, so a run that
// resumes after a kill adds the same agents at the same rounds.
func (lg *league) searchBest(ctx context.Context) error {
	if len(lg.cfg.Search) == 0 {
		return nil
	}
	best, err := Lookup(ctx, lg.db, store.Best)
	switch {
	case errors.Is(err, store.ErrNoCheckpoints):
		return nil
	case err != nil:
		return err
	case !best.Kind.Learned():
		return nil
	}
	for _, s := range lg.cfg.Search {
		a := searched(best, s)
		_, err := lg.db.Agent(ctx, a.Name)
		if errors.Is(err, store.ErrNotFound) {
			_, err = AddSearched(ctx, lg.db, lg.kit, a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
