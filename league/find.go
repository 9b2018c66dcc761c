package league

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"ttt/agents/search"
	"ttt/store"
)

// The names of agents: what the store names (an id, a name, latest),
// and what only the league can (best, by its rule; a model with a
// search after its name, best@ab4 or 12@mcts800, which the league
// may not have stored).

// ErrNoModel is the error of a search around an agent that learned no
// model: a built-in player, or an agent searched already.
var ErrNoModel = errors.New("a search goes around a learned model")

// Lookup returns the agent that ref names in db, as Find does, from one
// read of the league.
func Lookup(ctx context.Context, db *store.DB, ref string) (a *Agent, err error) {
	err = db.View(ctx, func(v *store.View) error {
		a, err = Find(v, ref)
		return err
	})
	return a, err
}

// Find returns the agent that ref names in v, as store.View.Agent does,
// best, the league's best by its rule, and a model with a search after
// its name: the searched agent the league stores under that name where
// it has one, else one made for the caller, unstored (ID 0), which plays
// the same. A searched agent comes with its search parsed, once. A
// search that is none of search.Parse's is search.ErrSpec. A pruned
// checkpoint comes without its network, with store.ErrPruned.
func Find(v *store.View, ref string) (*Agent, error) {
	id, err := resolve(v, ref)
	if err != nil {
		return nil, err
	}
	a, err := v.Agent(id)
	if !errors.Is(err, store.ErrNotFound) || !strings.Contains(ref, "@") {
		return stored(a, err)
	}
	name, s, err := search.Split(ref)
	if err != nil {
		return nil, err
	}
	// A pruned model is searched as it is kept: without its network.
	base, pruned := Find(v, name)
	switch {
	case pruned != nil && !errors.Is(pruned, store.ErrPruned):
		return nil, pruned
	case !base.Kind.Learned():
		return nil, fmt.Errorf("%s: %w, and %s is %s", ref, ErrNoModel, base.Name, what(base.Agent))
	}
	a, err = v.Agent(base.Name + "@" + s.String())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return searched(base, *s), pruned
	case err != nil && !errors.Is(err, store.ErrPruned):
		return nil, err
	}
	return &Agent{Agent: a, Spec: s}, err
}

// FindName returns the name of the agent that ref names in v, as
// store.View.Name does, and best, the league's best.
func FindName(v *store.View, ref string) (store.AgentName, error) {
	ref, err := resolve(v, ref)
	if err != nil {
		return store.AgentName{}, err
	}
	return v.Name(ref)
}

// resolve turns best into the id of the league's best in v; any other
// ref is the store's to resolve.
func resolve(v *store.View, ref string) (string, error) {
	if ref != store.Best {
		return ref, nil
	}
	n, err := BestName(v)
	return strconv.FormatInt(n.ID, 10), err
}

// what says what a, which learned no model, is.
func what(a *store.Agent) string {
	if a.Kind == store.Searched {
		return "searched already"
	}
	return "a built-in player"
}
