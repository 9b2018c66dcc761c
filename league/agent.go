package league

import (
	"errors"
	"fmt"

	"ttt/agents/search"
	"ttt/store"
)

// Agent is an agent as the league plays it: the stored agent and, for a
// searched agent, its search as the search registry's value, parsed once
// where its name or its row was read, and handed on as it is to its
// moves (ModelOf).
type Agent struct {
	*store.Agent
	Spec *search.Spec // a searched agent's search; nil for the others
}

// AgentOf is a, as the store read it, with its search parsed.
func AgentOf(a *store.Agent) (*Agent, error) {
	if a.Search == "" {
		return &Agent{Agent: a}, nil
	}
	s, err := search.Parse(a.Search)
	if err != nil {
		return nil, fmt.Errorf("agent %d (%s): stored search: %w", a.ID, a.Name, err)
	}
	return &Agent{Agent: a, Spec: &s}, nil
}

// stored is AgentOf(a) where the store read a, with err: nil, or
// store.ErrPruned for a checkpoint that ttt prune thinned out.
func stored(a *store.Agent, err error) (*Agent, error) {
	if err != nil && !errors.Is(err, store.ErrPruned) {
		return nil, err
	}
	l, perr := AgentOf(a)
	if perr != nil {
		return nil, perr
	}
	return l, err
}
