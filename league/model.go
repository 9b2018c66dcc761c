package league

import (
	"context"
	"fmt"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
	"ttt/store"
)

// A stored agent's model: read from its weights with its search around
// it, played without chance where it can be, and named as a file.

// Deterministic returns the player of a stored agent of kit's game whose
// move in a position is always the same: a model, playing greedily, or a
// built-in player that draws nothing. It returns nil for random and the
// MCTS players, which draw their moves. A searched agent's search stops
// with ctx, and thinks limit a move at most (0: no limit).
func Deterministic(ctx context.Context, kit *agents.Kit, a *Agent, limit time.Duration) (game.Player, error) {
	if a.Weights != nil {
		m, err := ModelOf(kit, a)
		if err != nil {
			return nil, err
		}
		return search.Bound(ctx, m, limit).Player(), nil
	}
	if b, ok := kit.Builtin(a.Name); ok && !b.Random {
		return b.New(nil), nil
	}
	return nil, nil
}

// ModelOf reads the model of a, an agent of kit's game read with its
// weights, as its method stored it, with a's search around it, if any.
func ModelOf(kit *agents.Kit, a *Agent) (learn.Model, error) {
	m, err := agents.Decode(kit.Game, a.Method, a.Weights)
	if err != nil {
		return nil, fmt.Errorf("agent %d (%s): stored weights: %w", a.ID, a.Name, err)
	}
	if a.Spec != nil {
		m = search.Wrap(m, *a.Spec)
	}
	return m, nil
}

// decode reads a stored model of kit's game, with its search around it
// where it is a searched agent's: the members' models, which the league
// reads by the thousand, as rows, not as Agents.
func decode(kit *agents.Kit, s store.Stored) (learn.Model, error) {
	m, err := agents.Decode(kit.Game, s.Method, s.Weights)
	if err != nil || s.Search == "" {
		return m, err
	}
	spec, err := search.Parse(s.Search)
	if err != nil {
		return nil, err
	}
	return search.Wrap(m, spec), nil
}

// FileName is the name of the plain file of a, whose model is m (of one
// side where side is not nil), where the user names none. A policy net's
// says its inputs, which tell its layouts apart (checkpoint-7-19in.bin,
// checkpoint-7-O-18in.bin). The others' say their method
// (checkpoint-9-ntuple.bin).
func FileName(a *store.Agent, m learn.Model, side *game.Side) string {
	kind := a.Method
	if method, err := agents.MethodOf(a.Method); err == nil && method.Headerless {
		in := m.Plays().Inputs()
		if side != nil {
			in--
		}
		kind = fmt.Sprintf("%din", in)
	}
	if side != nil {
		return fmt.Sprintf("%s-%s-%s.bin", a.Name, side, kind)
	}
	return fmt.Sprintf("%s-%s.bin", a.Name, kind)
}
