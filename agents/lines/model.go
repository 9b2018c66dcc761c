package lines

import (
	"fmt"

	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/learn"
)

var _ expert.Net = (*Net)(nil)

// Afterstates writes into values (nil: not at all) what each legal move
// of pos is worth to the side to move, and returns its move and that
// move's worth (expert.Afterstates).
func (n *Net) Afterstates(pos game.Position, p *Pass, values []float32) (best int, worth float32) {
	return expert.Afterstates(n.Game, pos, &p.moves, values, func(worth []float32) {
		for i, kid := range p.moves.Kids {
			worth[i] = n.Value(kid, p.moves.Movers[i], p)
		}
	})
}

// Player is a network playing greedily: the move to the afterstate it
// values most.
type Player struct {
	Net  *Net
	pass Pass
}

// Move implements game.Player.
func (pl *Player) Move(pos game.Position) int {
	m, _ := pl.Net.Afterstates(pos, &pl.pass, nil)
	return m
}

// Plays implements learn.Model.
func (n *Net) Plays() game.Game { return n.Game }

// Player implements learn.Model.
func (n *Net) Player() game.Player { return &Player{Net: n} }

// Views implements learn.Model: expected scores.
func (n *Net) Views() learn.Views { return learn.Scores }

// Explain implements learn.Model.
func (n *Net) Explain(pos game.Position, views []float64) int {
	var p Pass
	values := make([]float32, n.Game.Moves())
	m, _ := n.Afterstates(pos, &p, values)
	for k, v := range values {
		views[k] = float64(v)
	}
	return m
}

// Judge implements learn.Model: Afterstates, with a Pass of its own.
func (n *Net) Judge() func(p game.Position, values []float32) {
	var pass Pass
	return func(p game.Position, values []float32) { n.Afterstates(p, &pass, values) }
}

// Describe implements learn.Model.
func (n *Net) Describe() string {
	return fmt.Sprintf("lines network of %d lines, %d features and %d hidden units, %d weights", len(n.lines), n.Shape.Features, n.Shape.Hidden, len(n.W))
}

// Size implements learn.Model: its weights.
func (n *Net) Size() int { return len(n.W) }

// Layout implements learn.Model: its lines' states, dense units and
// output; the file plays both sides.
func (n *Net) Layout() learn.Layout {
	return learn.Layout{Inputs: len(n.lines) * n.ways, Hidden: n.Shape.Hidden, Outputs: 1}
}

// FileFor implements learn.Model: it has no file of one side.
func (n *Net) FileFor(game.Side) []byte { return nil }

// Validate implements learn.Model: every weight finite and within
// bounds.
func (n *Net) Validate() error { return expert.Validate(n.W) }
