package league

import (
	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/store"
)

// Measure fills in the facts the league keeps of a, whose model is m,
// which the store persists with it: the checks of its game (kit.Check)
// and, where the game has them, its move table. Frozen agents never
// change, so they are computed once, here, for every agent that joins a
// league (snapshots, ttt train --db, ttt import). It returns a.
func Measure(kit *agents.Kit, a *store.Agent, m learn.Model) *store.Agent {
	measure(kit, a, m)
	return a
}

// measure is Measure, and returns the agent as a deterministic player
// and as evaluation plays it.
func measure(kit *agents.Kit, a *store.Agent, m learn.Model) (game.Player, contestant) {
	p := m.Player()
	con := modelContestant(m)
	if kit.Compile != nil {
		a.Compiled = kit.Compile(p)
		p, _ = kit.Compiled(a.Compiled) // a net's table is a table
		con = fixed(p)
	}
	// Every model keeps the class of its check: tic-tac-toe's exhaustive
	// one, or Connect Four's beatable.
	a.Facts, a.Classed = kit.Check(p), true
	return p, con
}

// evalGames counts the games of matches.
func evalGames(matches []store.Match) int {
	n := 0
	for _, m := range matches {
		n += m.Games()
	}
	return n
}
