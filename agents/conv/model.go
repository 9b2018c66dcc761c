package conv

import (
	"fmt"
	"math"
	"math/bits"

	"ttt/agents/game"
	"ttt/agents/learn"
)

var _ learn.Model = (*Net)(nil)

// Afterstates writes into values (nil: not at all) what each legal move
// of pos is worth to the side to move: the exact score where the move
// ends the game, the network's value of the position it leaves
// otherwise, all of those in one batch. It returns its move and that
// move's worth: the lowest move that wins by the rules, else the lowest
// of the moves worth within tie of the most (a reader of the file who
// adds up in another order, or in float64, differs in the last bits, and
// must pick the same move).
func (n *Net) Afterstates(pos game.Position, p *Pass, values []float32) (best int, worth float32) {
	g := n.Game
	side := g.ToMove(pos)
	p.kids, p.movers, p.moves = p.kids[:0], p.movers[:0], p.moves[:0]
	won := -1
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		after := g.Play(pos, m)
		switch r := g.Result(after); r {
		case game.Ongoing:
			p.kids, p.movers, p.moves = append(p.kids, after), append(p.movers, side), append(p.moves, m)
			continue
		case game.Tie:
			p.worth[m] = 0.5
		case game.Win(side):
			p.worth[m] = 1
			if won < 0 {
				won = m
			}
		default:
			p.worth[m] = 0
		}
	}
	if len(p.kids) > 0 {
		n.Forward(p.kids, p.movers, p)
		for i, m := range p.moves {
			p.worth[m] = Sigmoid(p.Out[i])
		}
	}
	most := float32(-1)
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		most = max(most, p.worth[m])
		if values != nil {
			values[m] = p.worth[m]
		}
	}
	if won >= 0 {
		return won, 1
	}
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		if m := bits.TrailingZeros64(legal); p.worth[m] >= most-tie {
			return m, p.worth[m]
		}
	}
	return -1, -1
}

// tie is how close to the best a move's worth must be to tie with it.
const tie = 1e-5

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

// Judge implements learn.Model: Afterstates, with a Pass of its own, so
// that a search judges a position's moves in one batch.
func (n *Net) Judge() func(p game.Position, values []float32) {
	var pass Pass
	return func(p game.Position, values []float32) { n.Afterstates(p, &pass, values) }
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

// maxWeight bounds a weight that can play: beyond it a forward pass of
// a few hundred terms can overflow float32.
const maxWeight = 1e15

// Validate implements learn.Model: every weight finite and within
// maxWeight.
func (n *Net) Validate() error {
	for i, w := range n.W {
		if math.IsNaN(float64(w)) || math.Abs(float64(w)) > maxWeight {
			return fmt.Errorf("weight %d of %d is %v", i, len(n.W), w)
		}
	}
	return nil
}
