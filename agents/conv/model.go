package conv

import (
	"fmt"

	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/learn"
)

var _ learn.Model = (*Net)(nil)

// Afterstates writes into values (nil: not at all) what each legal move
// of pos is worth to the side to move, the positions the moves leave in
// one batch, and returns its move and that move's worth
// (expert.Afterstates).
func (n *Net) Afterstates(pos game.Position, p *Pass, values []float32) (best int, worth float32) {
	return expert.Afterstates(n.Game, pos, &p.moves, values, func(worth []float32) {
		n.Forward(p.moves.Kids, p.moves.Movers, p)
		for i := range worth {
			worth[i] = expert.Sigmoid(p.Out[i])
		}
	})
}

// judge returns the network's expert.Judge, with a Pass of its own.
func (n *Net) judge() expert.Judge {
	var p Pass
	return func(pos game.Position, values []float32) int {
		m, _ := n.Afterstates(pos, &p, values)
		return m
	}
}

// Plays implements learn.Model.
func (n *Net) Plays() game.Game { return n.Game }

// Player implements learn.Model: greedy, with a Pass of its own.
func (n *Net) Player() game.Player { return n.judge() }

// Views implements learn.Model: expected scores.
func (n *Net) Views() learn.Views { return learn.Scores }

// Explain implements learn.Model.
func (n *Net) Explain(pos game.Position, views []float64) int {
	return n.judge().Explain(pos, n.Game.Moves(), views)
}

// Judge implements learn.Model: Afterstates, with a Pass of its own.
func (n *Net) Judge() func(p game.Position, values []float32) {
	j := n.judge()
	return func(p game.Position, values []float32) { j(p, values) }
}

// Describe implements learn.Model.
func (n *Net) Describe() string {
	s := n.Shape
	if s.Layers == 0 {
		return fmt.Sprintf("value network of %d cell channels and %d hidden units, %d weights", s.HeadChannels, s.Hidden, len(n.W))
	}
	layers := "layers"
	if s.Layers == 1 {
		layers = "layer"
	}
	return fmt.Sprintf("convolutional value network of %d %s of %d filters, %d weights", s.Layers, layers, s.Channels, len(n.W))
}

// Size implements learn.Model: its weights.
func (n *Net) Size() int { return len(n.W) }

// Layout implements learn.Model: its planes, dense units and output;
// the file plays both sides.
func (n *Net) Layout() learn.Layout {
	return learn.Layout{Inputs: n.geo.cells * n.geo.planes, Hidden: n.Shape.Hidden, Outputs: 1}
}

// FileFor implements learn.Model: it has no file of one side.
func (n *Net) FileFor(game.Side) []byte { return nil }

// Validate implements learn.Model: every weight finite and within
// bounds.
func (n *Net) Validate() error { return expert.Validate(n.W) }
