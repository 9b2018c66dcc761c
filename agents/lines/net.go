// Package lines is a value network that reads a board by its winning
// lines: the states of each line's cells choose a vector of features
// from that line's own table, the vectors of every line (and one for the
// side that has just moved) add up, and two dense layers judge the sum.
// It learns by expert iteration (package expert), from the values a
// teacher's search finds.
//
// Why this shape: an n-tuple network (package ntuple) reads the same
// lines, but adds up one number a line, and a sum cannot say that two
// threats far apart win where either alone does not, or which side will
// have to fill a column; the dense layers over the lines' features can.
// A convolutional network (package conv) can see those too, but pays
// for every cell's neighbourhood in every layer: this network's first
// layer is a table lookup a line (69 in Connect Four), so a position
// costs a few thousand additions, and a night's two cores teach it tens
// of millions of positions (BENCHMARKS.md compares the two).
//
// It is the first layer of an NNUE (Nasu's efficiently updatable
// network of shogi and chess engines) with the lines as its features.
// Its value is the worth of a position to the side that has just moved
// (1 a win, 1/2 a tie, 0 a loss), the afterstate value of the n-tuple
// and convolutional networks, and it moves to the position it values
// most.
package lines

import (
	"fmt"
	"math"
	"math/rand/v2"

	"ttt/agents/expert"
	"ttt/agents/game"
)

// Shape is a network's size.
type Shape struct {
	Features int // of each line's vectors, and of their sum
	Hidden   int // units of the dense layer
}

// DefaultShape is the network a new line learns (BENCHMARKS.md): in
// Connect Four 565,000 weights, almost all of them the lines' tables.
var DefaultShape = Shape{Features: 32, Hidden: 32}

// Net is a lines network for one game. Its weights are read-only while
// it plays, so one net serves any number of concurrent games, each
// through its own Pass.
type Net struct {
	Game  game.Game
	Shape Shape
	// W holds every weight: the lines' tables (line after line, a row of
	// Features for each way its cells can be), the side's rows (X has
	// just moved, then O), the sum's biases, the dense layer (Features
	// rows of Hidden) and its biases, the output's Hidden weights and
	// its bias.
	W []float32

	lines                                             [][]int
	states                                            int // a cell's
	ways                                              int // a line's: states^cells
	table, side, bias, dense, denseBias, out, outBias []float32

	train Pass // the learner's, for Gradient
}

// Params is the number of weights of a network of shape s for g.
func Params(g game.Game, s Shape) int {
	b := g.Board()
	return len(b.Lines)*ways(b)*s.Features + 3*s.Features + s.Features*s.Hidden + 2*s.Hidden + 1
}

// ways is the number of states a line of b can be in.
func ways(b game.Board) int {
	w := 1
	for range b.Lines[0] {
		w *= b.States
	}
	return w
}

// New returns a network of shape s for g: the tables drawn small (their
// sum over the lines has a standard deviation of 1/2), the dense layer
// as He et al. draw it for ReLU, biases zero, and the output's weights
// zero: a new network values every position at 1/2, nothing known.
func New(g game.Game, s Shape, rng *rand.Rand) (*Net, error) {
	if s.Features < 1 || s.Hidden < 1 {
		return nil, fmt.Errorf("a lines network needs a feature and a hidden unit: %+v", s)
	}
	n, err := alloc(g, s)
	if err != nil {
		return nil, err
	}
	std := 0.5 / math.Sqrt(float64(len(n.lines)))
	for i := range n.table {
		n.table[i] = float32(rng.NormFloat64() * std)
	}
	std = math.Sqrt(2 / float64(s.Features))
	for i := range n.dense {
		n.dense[i] = float32(rng.NormFloat64() * std)
	}
	return n, nil
}

// alloc returns a network of shape s for g, every weight zero.
func alloc(g game.Game, s Shape) (*Net, error) {
	b := g.Board()
	if len(b.Lines) == 0 {
		return nil, fmt.Errorf("%s has no lines that win", g.Title())
	}
	for _, l := range b.Lines {
		if len(l) != len(b.Lines[0]) {
			return nil, fmt.Errorf("%s's winning lines are not all of one length", g.Title())
		}
	}
	n := &Net{Game: g, Shape: s, W: make([]float32, Params(g, s)), lines: b.Lines, states: b.States, ways: ways(b)}
	n.place()
	return n, nil
}

// place points the layers into n.W.
func (n *Net) place() {
	f, h, w := n.Shape.Features, n.Shape.Hidden, n.W
	take := func(k int) []float32 {
		s := w[:k:k]
		w = w[k:]
		return s
	}
	n.table = take(len(n.lines) * n.ways * f)
	n.side, n.bias = take(2*f), take(f)
	n.dense, n.denseBias = take(f*h), take(h)
	n.out, n.outBias = take(h), take(1)
}

// Copy implements expert.Net.
func (n *Net) Copy() expert.Net {
	c := *n
	c.W = append([]float32(nil), n.W...)
	c.train = Pass{}
	c.place()
	return &c
}

// Zero implements expert.Net.
func (n *Net) Zero() expert.Net {
	z, _ := alloc(n.Game, n.Shape) // n's game and shape were allocated once
	return z
}

// Weights implements expert.Net.
func (n *Net) Weights() []float32 { return n.W }

// Pass is the scratch space of positions through a network, one
// position's values kept for the backward pass. One goroutine's.
type Pass struct {
	states, seen []uint8
	rows         []int32 // the table row each line chose
	sum, act     []float32
	pre, hid     []float32
	dSum, dHid   []float32
	moves        expert.Moves
}

// size makes p fit n.
func (p *Pass) size(n *Net) {
	if len(p.rows) == len(n.lines) && len(p.sum) == n.Shape.Features && len(p.pre) == n.Shape.Hidden && len(p.states) == n.Game.Board().Cells {
		return
	}
	f, h, cells := n.Shape.Features, n.Shape.Hidden, n.Game.Board().Cells
	p.states, p.seen, p.rows = make([]uint8, cells), make([]uint8, cells), make([]int32, len(n.lines))
	p.sum, p.act, p.dSum = make([]float32, f), make([]float32, f), make([]float32, f)
	p.pre, p.hid, p.dHid = make([]float32, h), make([]float32, h), make([]float32, h)
}

// logit returns the network's logit of pos after a move by mover, seen
// through the board's symmetry sym (nil: as it is), and keeps in p what
// the backward pass needs.
func (n *Net) logit(pos game.Position, mover game.Side, sym []int, p *Pass) float32 {
	p.size(n)
	n.Game.CellStates(pos, p.states)
	seen := p.states
	if sym != nil {
		seen = p.seen
		for c, s := range p.states {
			seen[sym[c]] = s
		}
	}
	// The side that has just moved is 1, the other 2, whoever moved.
	swap := mover == game.O
	f := n.Shape.Features
	side := n.side[:f]
	if swap {
		side = n.side[f:]
	}
	for i := range p.sum {
		p.sum[i] = n.bias[i] + side[i]
	}
	for l, line := range n.lines {
		row := 0
		for _, c := range line {
			s := seen[c]
			if swap && (s == 1 || s == 2) {
				s = 3 - s
			}
			row = row*n.states + int(s)
		}
		at := int32((l*n.ways + row) * f)
		p.rows[l] = at
		for i, v := range n.table[at : int(at)+f] {
			p.sum[i] += v
		}
	}
	for i, v := range p.sum {
		p.act[i] = max(v, 0)
	}
	h := n.Shape.Hidden
	z := n.outBias[0]
	copy(p.pre, n.denseBias)
	for i, a := range p.act {
		if a == 0 {
			continue
		}
		for j, w := range n.dense[i*h : (i+1)*h] {
			p.pre[j] += a * w
		}
	}
	for j, v := range p.pre {
		p.hid[j] = max(v, 0)
		z += p.hid[j] * n.out[j]
	}
	return z
}

// backward adds into g the gradient of the last logit's loss, d being
// its gradient by the logit; mover is the side logit was given.
func (n *Net) backward(d float32, mover game.Side, p *Pass, g *Net) {
	f, h := n.Shape.Features, n.Shape.Hidden
	g.outBias[0] += d
	for j, v := range p.hid {
		g.out[j] += d * v
		p.dHid[j] = 0
		if p.pre[j] > 0 {
			p.dHid[j] = d * n.out[j]
		}
		g.denseBias[j] += p.dHid[j]
	}
	for i, a := range p.act {
		p.dSum[i] = 0
		if p.sum[i] <= 0 {
			continue
		}
		w, gw := n.dense[i*h:(i+1)*h], g.dense[i*h:(i+1)*h]
		var s float32
		for j, dh := range p.dHid {
			s += dh * w[j]
			gw[j] += dh * a
		}
		p.dSum[i] = s
	}
	side := g.side[:f]
	if mover == game.O {
		side = g.side[f:]
	}
	for i, v := range p.dSum {
		g.bias[i] += v
		side[i] += v
	}
	for _, at := range p.rows {
		row := g.table[at : int(at)+f]
		for i, v := range p.dSum {
			row[i] += v
		}
	}
}

// Value returns the worth of pos, after a move by mover, to mover.
func (n *Net) Value(pos game.Position, mover game.Side, p *Pass) float32 {
	return expert.Sigmoid(n.logit(pos, mover, nil, p))
}

// Gradient implements expert.Net.
func (n *Net) Gradient(b *expert.Batch, grad expert.Net) float64 {
	g := grad.(*Net)
	all := n.Game.Board().Symmetries
	var loss float64
	scale := 1 / float32(len(b.Positions))
	for i, pos := range b.Positions {
		var sym []int
		if b.Syms != nil && b.Syms[i] != 0 {
			sym = all[b.Syms[i]]
		}
		l, d := expert.CrossEntropy(n.logit(pos, b.Movers[i], sym, &n.train), b.Labels[i])
		loss += l
		n.backward(d*scale, b.Movers[i], &n.train, g)
	}
	return loss / float64(len(b.Positions))
}
