package league

import (
	"context"
	"errors"
	"fmt"
	"strings"

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

// ErrNoModel is the error of a search around an agent that learned no
// model: a built-in player, or an agent searched already.
var ErrNoModel = errors.New("a search goes around a learned model")

// Lookup returns the agent that ref names in db, as store.DB.Agent does,
// best, the league's best by its rule, and a model with a search after
// its name (best@ab4, 12@mcts800): the searched agent the league stores
// under that name where it has one, else one made for the caller,
// unstored (ID 0), which plays the same. A search that is none of
// search.Parse's is search.ErrSpec. A pruned checkpoint comes without
// its network, with store.ErrPruned.
func Lookup(ctx context.Context, db *store.DB, ref string) (*Agent, error) {
	if ref == store.Best {
		if err := db.View(ctx, func(v *store.View) (err error) {
			ref, err = resolve(v, ref)
			return err
		}); err != nil {
			return nil, err
		}
	}
	a, err := db.Agent(ctx, ref)
	if !errors.Is(err, store.ErrNotFound) || !strings.Contains(ref, "@") {
		return stored(a, err)
	}
	name, s, err := search.Split(ref)
	if err != nil {
		return nil, err
	}
	base, err := Lookup(ctx, db, name)
	switch {
	case err != nil:
		return nil, err
	case !base.Kind.Learned():
		return nil, fmt.Errorf("%s: %w, and %s is %s", ref, ErrNoModel, base.Name, what(base.Agent))
	}
	a, err = db.Agent(ctx, base.Name+"@"+s.String())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return searched(base, *s), nil
	case err != nil && !errors.Is(err, store.ErrPruned):
		return nil, err
	}
	return &Agent{Agent: a, Spec: s}, err
}

// what says what a, which learned no model, is.
func what(a *store.Agent) string {
	if a.Kind == store.Searched {
		return "searched already"
	}
	return "a built-in player"
}
