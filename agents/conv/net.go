// Package conv is a convolutional value network, which learns from the
// positions of the league's games, each labelled by the strongest
// searched player the league has (expert iteration: package expert).
//
// Why a second kind of value network: an n-tuple network (package
// ntuple) is a sum of local patterns, and it stops learning where a
// position's value turns on two threats far apart, or on which side will
// have to fill a column. Its own search sees those and it does not: with
// eight plies of alpha-beta around it, the n-tuple network keeps the
// value of 97-98% of solved positions, alone 92-93%, however long it
// trains. A few layers of 3×3 filters see the whole 6×7 board (each
// layer widens what a cell sees by one cell each way), so a value that
// depends on cells far apart can be learned; and a label from a search
// is a better target than the next position's own estimate, which is all
// TD(λ) has.
//
// The network reads a position as planes, one per cell state (empty, a
// stone of the side that has just moved, a stone of the other, and any
// state the game adds, as Connect Four's playable cell), and a plane of
// ones where X has just moved: Connect Four is not the same game for the
// side that moves first and the side that moves second. Then Layers
// convolutions of 3×3 cells with Channels filters each, ReLU after each;
// a 1×1 convolution to HeadChannels, ReLU; a dense layer of Hidden units,
// ReLU; and one output through a sigmoid: the position's worth to the
// side that has just moved (1 a win, 1/2 a tie, 0 a loss), the same
// afterstate value the n-tuple and value networks give. It moves to the
// position it values most.
//
// The arithmetic is matrix products (gonum's BLAS, float32): a batch of
// positions' 3×3 neighbourhoods laid out as the rows of one matrix
// (im2col) times the filters. BENCHMARKS.md has the choice measured.
package conv

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"ttt/agents/expert"
	"ttt/agents/game"
)

// Shape is a network's size: its convolutions and its head.
type Shape struct {
	Layers, Channels, HeadChannels, Hidden int
}

// DefaultShape is the network a new line learns: three layers of 16
// filters see a 7×7 square around each cell, and the dense layer reads
// every cell's features: 16,000 weights. Four layers of 32 cost four and
// a half times as much a position (BENCHMARKS.md), more than two cores
// can pay for in a night's search and training.
var DefaultShape = Shape{Layers: 3, Channels: 16, HeadChannels: 4, Hidden: 64}

// Net is a convolutional value network for one game. Its weights are
// read-only while it plays, so one net serves any number of concurrent
// games, each through its own Pass.
type Net struct {
	Game  game.Game
	Shape Shape
	// W holds every weight, layer after layer: each convolution's
	// filters (9·in rows of out columns) and then its biases, the head's
	// 1×1 filters and biases, the dense layer's weights and biases, and
	// the output's weights and bias. One slice, so that the optimiser,
	// the file and a copy each see one array.
	W []float32

	geo  geometry
	conv []dense // the convolutions, then the 1×1 head
	fc   dense   // the dense layer
	out  dense   // the output

	train Pass      // the learner's, for Gradient
	dOut  []float32 // the loss's gradient by each logit, for Gradient
}

// dense is one layer's weights within Net.W: a matrix of in rows and out
// columns, and out biases.
type dense struct {
	in, out int
	w, b    []float32
}

// geometry is the board as the network sees it.
type geometry struct {
	cells, width, states int
	planes               int        // states, and the side plane
	near                 [][9]int32 // each cell's 3×3 neighbourhood, -1 off the board
}

// Params is the number of weights of a network of shape s for g.
func Params(g game.Game, s Shape) int {
	n, _ := layout(newGeometry(g), s, nil)
	return n
}

// newGeometry reads g's board.
func newGeometry(g game.Game) geometry {
	b := g.Board()
	geo := geometry{cells: b.Cells, width: b.Width, states: b.States, planes: b.States + 1}
	rows := b.Cells / b.Width
	for c := range b.Cells {
		r, col := c/b.Width, c%b.Width
		var nb [9]int32
		k := 0
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				rr, cc := r+dr, col+dc
				nb[k] = -1
				if rr >= 0 && rr < rows && cc >= 0 && cc < b.Width {
					nb[k] = int32(rr*b.Width + cc)
				}
				k++
			}
		}
		geo.near = append(geo.near, nb)
	}
	return geo
}

// layout places the layers of shape s within w (nil: only count them)
// and returns the number of weights.
func layout(geo geometry, s Shape, w []float32) (int, []dense) {
	var layers []dense
	off := 0
	add := func(in, out int) {
		d := dense{in: in, out: out}
		if w != nil {
			d.w, d.b = w[off:off+in*out], w[off+in*out:off+in*out+out]
		}
		off += in*out + out
		layers = append(layers, d)
	}
	in := geo.planes
	for range s.Layers {
		add(9*in, s.Channels)
		in = s.Channels
	}
	add(in, s.HeadChannels)
	add(geo.cells*s.HeadChannels, s.Hidden)
	add(s.Hidden, 1)
	return off, layers
}

// New returns a network of shape s for g, its weights drawn from rng as
// He et al. draw them for ReLU layers (a normal of variance 2/inputs),
// biases zero, and the output's weights zero: a new network values every
// position at 1/2, nothing known, as a new n-tuple network does.
func New(g game.Game, s Shape, rng *rand.Rand) (*Net, error) {
	if s.Layers < 0 || s.Layers > 0 && s.Channels < 1 || s.HeadChannels < 1 || s.Hidden < 1 {
		return nil, fmt.Errorf("a convolutional network needs filters in its layers, a head channel and a hidden unit: %+v", s)
	}
	n := alloc(g, s)
	for _, d := range append(n.conv, n.fc) {
		std := math.Sqrt(2 / float64(d.in))
		for i := range d.w {
			d.w[i] = float32(rng.NormFloat64() * std)
		}
	}
	return n, nil
}

// alloc returns a network of shape s for g, every weight zero.
func alloc(g game.Game, s Shape) *Net {
	geo := newGeometry(g)
	size, _ := layout(geo, s, nil)
	n := &Net{Game: g, Shape: s, W: make([]float32, size), geo: geo}
	n.place()
	return n
}

// place points the layers into n.W.
func (n *Net) place() {
	_, layers := layout(n.geo, n.Shape, n.W)
	k := len(layers)
	n.conv, n.fc, n.out = layers[:k-2], layers[k-2], layers[k-1]
}

// Copy implements expert.Net.
func (n *Net) Copy() expert.Net {
	c := &Net{Game: n.Game, Shape: n.Shape, W: append([]float32(nil), n.W...), geo: n.geo}
	c.place()
	return c
}

// Zero implements expert.Net.
func (n *Net) Zero() expert.Net { return alloc(n.Game, n.Shape) }

// Weights implements expert.Net.
func (n *Net) Weights() []float32 { return n.W }

// Pass is the scratch space of a batch of positions through a network:
// every layer's input and pre-activation, kept for the backward pass.
// One goroutine's.
type Pass struct {
	batch  int
	cols   [][]float32  // each convolution's input, as the rows of its neighbourhoods
	pre    [][]float32  // each convolution's output before the ReLU
	acts   [][]float32  // and after it
	flat   []float32    // the head's output after its ReLU, a row a position
	hid    []float32    // the dense layer's output before its ReLU
	act    []float32    // after it
	Out    []float32    // each position's logit
	in     []float32    // the planes of the batch
	grads  [][]float32  // the backward pass's scratch
	moves  expert.Moves // a position's, as Afterstates judges them
	states []uint8
}

// size makes p fit batch positions of n.
func (p *Pass) size(n *Net, batch int) {
	if p.batch >= batch && len(p.cols) == len(n.conv) {
		return
	}
	grow := func(s []float32, k int) []float32 {
		if cap(s) < k {
			return make([]float32, k)
		}
		return s[:k]
	}
	p.batch = batch
	rows := batch * n.geo.cells
	p.cols, p.pre, p.acts = make([][]float32, len(n.conv)), make([][]float32, len(n.conv)), make([][]float32, len(n.conv))
	for i, d := range n.conv {
		p.cols[i] = make([]float32, rows*d.in)
		p.pre[i] = make([]float32, rows*d.out)
		p.acts[i] = make([]float32, rows*d.out)
	}
	p.in = grow(p.in, rows*n.geo.planes)
	p.flat = grow(p.flat, batch*n.fc.in)
	p.hid = grow(p.hid, batch*n.fc.out)
	p.act = grow(p.act, batch*n.fc.out)
	p.Out = grow(p.Out, batch)
}

// planes writes the planes of position pos, after a move by mover, into
// dst (cells×planes, a row a cell): mover's stones are state 1 whoever
// mover is, the other side's state 2. Where sym is not nil, cell c is
// written where the board's symmetry sym takes it.
func (n *Net) planes(pos game.Position, mover game.Side, sym []int, dst []float32, states []uint8) {
	clear(dst)
	n.Game.CellStates(pos, states)
	side := float32(0)
	if mover == game.X {
		side = 1
	}
	np := n.geo.planes
	for c, s := range states {
		if mover == game.O && (s == 1 || s == 2) {
			s = 3 - s
		}
		if sym != nil {
			c = sym[c]
		}
		dst[c*np+int(s)] = 1
		dst[c*np+np-1] = side
	}
}

// Forward computes the logits of a batch of positions, each after a move
// by the matching mover, into p.Out.
func (n *Net) Forward(pos []game.Position, mover []game.Side, p *Pass) {
	n.forward(pos, mover, nil, p)
}

// forward is Forward with each position seen through a symmetry of the
// board (syms[i], an index of Board().Symmetries; nil: as it is).
func (n *Net) forward(pos []game.Position, mover []game.Side, syms []uint8, p *Pass) {
	batch := len(pos)
	p.size(n, batch)
	geo := n.geo
	if len(p.states) != geo.cells {
		p.states = make([]uint8, geo.cells)
	}
	all := n.Game.Board().Symmetries
	for i := range pos {
		var sym []int
		if syms != nil && syms[i] != 0 {
			sym = all[syms[i]]
		}
		n.planes(pos[i], mover[i], sym, p.in[i*geo.cells*geo.planes:(i+1)*geo.cells*geo.planes], p.states)
	}
	rows := batch * geo.cells
	x, width := p.in[:rows*geo.planes], geo.planes
	for l, d := range n.conv {
		col := p.cols[l][:rows*d.in]
		if l < len(n.conv)-1 {
			geo.im2col(x, width, batch, col)
		} else {
			copy(col, x) // the 1×1 head: each cell's channels as they are
		}
		pre := p.pre[l][:rows*d.out]
		matmul(col, rows, d.in, d.w, d.out, pre, d.b)
		x, width = relu(pre, p.acts[l][:rows*d.out]), d.out
	}
	// The head's cells, a row a position: the dense layer reads them all.
	copy(p.flat[:batch*n.fc.in], x)
	hid := p.hid[:batch*n.fc.out]
	matmul(p.flat[:batch*n.fc.in], batch, n.fc.in, n.fc.w, n.fc.out, hid, n.fc.b)
	act := relu(hid, p.act[:batch*n.fc.out])
	matmul(act, batch, n.out.in, n.out.w, 1, p.Out[:batch], n.out.b)
}

// im2col writes the 3×3 neighbourhood of every cell of a batch of
// activations x (a row a cell, width values each) as the rows of col
// (9·width values each), zeros off the board.
func (g geometry) im2col(x []float32, width, batch int, col []float32) {
	k := 9 * width
	for b := range batch {
		base := b * g.cells
		for c := range g.cells {
			row := col[(base+c)*k : (base+c+1)*k]
			for j, nb := range g.near[c] {
				dst := row[j*width : (j+1)*width]
				if nb < 0 {
					clear(dst)
					continue
				}
				copy(dst, x[(base+int(nb))*width:(base+int(nb)+1)*width])
			}
		}
	}
}

// col2im adds each row of dcol (the gradient of a neighbourhood) back
// into the cells it was read from, dx (a row a cell, width values).
func (g geometry) col2im(dcol []float32, width, batch int, dx []float32) {
	clear(dx[:batch*g.cells*width])
	k := 9 * width
	for b := range batch {
		base := b * g.cells
		for c := range g.cells {
			row := dcol[(base+c)*k : (base+c+1)*k]
			for j, nb := range g.near[c] {
				if nb < 0 {
					continue
				}
				dst := dx[(base+int(nb))*width : (base+int(nb)+1)*width]
				for i, v := range row[j*width : (j+1)*width] {
					dst[i] += v
				}
			}
		}
	}
}

// relu writes max(x, 0) into dst and returns it.
func relu(x, dst []float32) []float32 {
	for i, v := range x {
		dst[i] = max(v, 0)
	}
	return dst
}

// matmul sets c (m×n) to a (m×k) times b (k×n), plus bias on every row.
func matmul(a []float32, m, k int, b []float32, n int, c, bias []float32) {
	for i := range m {
		copy(c[i*n:(i+1)*n], bias)
	}
	gemm(false, false, m, n, k, a, b, c)
}

// gemm adds to c (m×n) the product of a and b, each transposed where
// its flag says: a is m×k (or k×m), b k×n (or n×k), all row-major.
func gemm(ta, tb bool, m, n, k int, a, b, c []float32) {
	A := blas32.General{Rows: m, Cols: k, Stride: k, Data: a}
	B := blas32.General{Rows: k, Cols: n, Stride: n, Data: b}
	opA, opB := blas.NoTrans, blas.NoTrans
	if ta {
		A, opA = blas32.General{Rows: k, Cols: m, Stride: m, Data: a}, blas.Trans
	}
	if tb {
		B, opB = blas32.General{Rows: n, Cols: k, Stride: k, Data: b}, blas.Trans
	}
	blas32.Gemm(opA, opB, 1, A, B, 1, blas32.General{Rows: m, Cols: n, Stride: n, Data: c})
}
