package nn

import (
	"encoding/binary"
	"fmt"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// A Net is a learn.Model: a policy net is ttt-rl's, a value net
// TD-Gammon's.
var _ learn.Model = (*Net)(nil)

// Plays implements learn.Model.
func (n *Net) Plays() game.Game { return n.Game }

// Player implements learn.Model.
func (n *Net) Player() game.Player { return &Player{Net: n} }

// Views implements learn.Model: a policy net's probabilities, a value
// net's expected scores.
func (n *Net) Views() learn.Views {
	if n.IsValue() {
		return learn.Scores
	}
	return learn.Probabilities
}

// Judge implements learn.Model: a value net's Afterstates; nil for a
// policy net, which puts no value on a position.
func (n *Net) Judge() func(p game.Position, values []float32) {
	if !n.IsValue() {
		return nil
	}
	var pass Pass
	return func(p game.Position, values []float32) { n.Afterstates(p, &pass, values) }
}

// Explain implements learn.Model: a policy net's probability of each
// legal move, or a value net's worth of the position after it.
func (n *Net) Explain(pos game.Position, views []float64) int {
	var p Pass
	if n.IsValue() {
		values := make([]float32, n.Game.Moves())
		m, _ := n.Afterstates(pos, &p, values)
		for k, v := range values {
			views[k] = float64(v)
		}
		return m
	}
	n.Forward(pos, &p)
	for k, v := range p.Probs {
		views[k] = float64(v)
	}
	return n.Greedy(pos, &p)
}

// Describe implements learn.Model.
func (n *Net) Describe() string {
	kind := "policy network"
	if n.IsValue() {
		kind = "value network"
	}
	return fmt.Sprintf("%d-%d-%d %s, %d parameters", n.Inputs, n.Hidden, n.Outputs, kind, n.Size())
}

// Size implements learn.Model: the count of weights and biases.
func (n *Net) Size() int { return Params(n.Inputs, n.Hidden, n.Outputs) }

// Layout implements learn.Model: its inputs, hidden units and outputs,
// and whether its side input weighs nothing.
func (n *Net) Layout() learn.Layout {
	l := learn.Layout{Sided: true, Inputs: n.Inputs, Hidden: n.Hidden, Outputs: n.Outputs, NoSideInput: true}
	for _, w := range n.WIH[(n.Inputs-1)*n.Hidden:] {
		if w != 0 {
			l.NoSideInput = false
			break
		}
	}
	return l
}

// ValueMagic starts a value net's file.
const ValueMagic = "ttt-vnet"

// File implements learn.Model. A policy net's file is ttt-rl's headerless
// layout (Bytes). A value net's has a header (learn.AppendHeader, magic
// ValueMagic), then its hidden units as a little-endian uint32, then the
// same layout with one output: a value net's file never reads as a
// policy net's, nor as another game's.
func (n *Net) File() []byte {
	if !n.IsValue() {
		return n.Bytes()
	}
	return n.valueFile(nil, n.Bytes())
}

// FileFor implements learn.Model: the network without the side input,
// playing side exactly as n does. A policy net chooses its move in the
// position where side is to move, so the side input is folded in as it
// is then; a value net judges the positions after side's moves, where
// the other side is to move.
func (n *Net) FileFor(side game.Side) []byte {
	if !n.IsValue() {
		return n.FoldedBytes(side)
	}
	return n.valueFile(&side, n.FoldedBytes(side.Other()))
}

// valueFile writes weights, a plain layout, as a value net's file.
func (n *Net) valueFile(side *game.Side, weights []byte) []byte {
	buf := learn.AppendHeader(nil, ValueMagic, n.Game, side)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(n.Hidden))
	return append(buf, weights...)
}

// ReadValueFile reads a value net's file for g: no reading for a file
// that is not one. A file of one side becomes a net whose side-input
// weights are zero, which plays that side as the file does.
func ReadValueFile(g game.Game, data []byte) ([]learn.Reading, error) {
	if !learn.HasMagic(data, ValueMagic) {
		return nil, nil
	}
	side, rest, err := learn.ReadHeader(data, ValueMagic, g, "a value network")
	if err != nil {
		return nil, err
	}
	if len(rest) < 4 {
		return nil, fmt.Errorf("value network file: truncated header")
	}
	shape := Shape{Inputs: g.Inputs(), Hidden: int(binary.LittleEndian.Uint32(rest)), Outputs: 1}
	if side != nil {
		shape.Inputs--
	}
	if shape.Hidden < 1 || shape.Hidden > MaxHidden {
		return nil, fmt.Errorf("value network file: %d hidden units (1 to %d)", shape.Hidden, MaxHidden)
	}
	net, err := Parse(g, rest[4:], shape)
	if err != nil {
		return nil, fmt.Errorf("value network file: %w", err)
	}
	what := fmt.Sprintf("a %s value network of %d hidden units", g.Title(), shape.Hidden)
	if side != nil {
		what += ", playing " + side.String()
	}
	return []learn.Reading{{Model: net, Method: "tdlambda", Side: side, What: what}}, nil
}

// ReadPlain reads a headerless weight file as a network of g: every
// shape its size fits, with and without the side input. A size that fits
// a policy net is the policy net's, ttt-rl's file; one that fits only a
// value net is an older ttt's value net, written before value nets had a
// file of their own. It returns no reading for a size that fits no
// network of g, and an error for a file that fits one but cannot play
// (NaN, weights that overflow).
func ReadPlain(g game.Game, data []byte) ([]learn.Reading, error) {
	if len(data) == 0 || len(data)%4 != 0 || learn.HasMagic(data, learn.MagicPrefix) {
		return nil, nil
	}
	floats := len(data) / 4
	var fits []Shape
	for _, out := range []int{g.Moves(), 1} {
		for _, in := range []int{g.Inputs(), g.Inputs() - 1} {
			h := (floats - out) / (in + out + 1)
			if h >= 1 && h <= MaxHidden && Params(in, h, out) == floats {
				fits = append(fits, Shape{in, h, out})
			}
		}
		if len(fits) > 0 {
			break // a policy net's size is the policy net's
		}
	}
	var out []learn.Reading
	for _, s := range fits {
		net, err := Parse(g, data, s)
		if err != nil {
			return nil, err
		}
		r := learn.Reading{Model: net, Method: "policy",
			What: fmt.Sprintf("a %s policy network of %d inputs and %d hidden units", g.Title(), s.Inputs, s.Hidden)}
		if s.Outputs == 1 {
			r.Method = "tdlambda"
			r.What = fmt.Sprintf("a %s value network of %d inputs and %d hidden units (an older ttt's headerless file)", g.Title(), s.Inputs, s.Hidden)
		}
		if s.Inputs < g.Inputs() {
			r.What += ", one side"
		}
		out = append(out, r)
	}
	return out, nil
}
