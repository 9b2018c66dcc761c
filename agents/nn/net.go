// Package nn is the policy network of ttt and its learning rule: one
// hidden ReLU layer, a softmax over the nine squares, float32 throughout,
// trained by the reward-scaled cross-entropy rule of antirez's ttt-rl.
//
// Inputs (19): for square s, input 2s is 1 when X holds s and input 2s+1
// is 1 when O holds s; input 18 is 1 when X is to move. The side input is
// what lets one network play both X and O.
//
// The inputs are 0/1 and at most ten of them are on, so the hidden layer
// is computed as the bias plus the weight rows of the inputs that are on,
// the way GNU Backgammon's evaluator skips zero inputs; and the output
// layer and the backward pass skip hidden units that ReLU switched off.
// Both give the same sums, term for term, as the dense loops would.
package nn

import (
	"math/bits"
	"math/rand/v2"

	"ttt/agents"
	"ttt/agents/game"
)

// Layer sizes.
const (
	Inputs        = 19  // 9 squares x {X, O} + side to move
	Outputs       = 9   // one per square
	DefaultHidden = 100 // as in ttt-rl
	MaxHidden     = 4096
	sideInput     = 18
)

// Net is a network's parameters. The layout is the one of ttt-rl's
// ttt_nn.bin: WIH[i*Hidden+j] joins input i to hidden unit j, and
// WHO[j*Outputs+k] joins hidden unit j to output k.
//
// A Net is read-only during Forward, so frozen nets can be shared by
// concurrent games; each goroutine brings its own Pass.
type Net struct {
	Hidden int
	WIH    []float32 // Inputs x Hidden
	WHO    []float32 // Hidden x Outputs
	BH     []float32 // Hidden
	BO     []float32 // Outputs
}

// New returns a network with hidden units whose weights and biases are
// drawn uniformly from [-0.5, 0.5), as ttt-rl does. (He initialisation
// would suit ReLU better; the original's choice trains well enough here
// and keeps its numbers comparable.)
func New(hidden int, rng *rand.Rand) *Net {
	n := alloc(hidden)
	for _, p := range [][]float32{n.WIH, n.WHO, n.BH, n.BO} {
		for i := range p {
			p[i] = rng.Float32() - 0.5
		}
	}
	return n
}

// alloc returns a zero network with one backing array for all parameters.
func alloc(hidden int) *Net {
	all := make([]float32, Params(Inputs, hidden))
	n := &Net{Hidden: hidden}
	n.WIH, all = all[:Inputs*hidden], all[Inputs*hidden:]
	n.WHO, all = all[:hidden*Outputs], all[hidden*Outputs:]
	n.BH, n.BO = all[:hidden], all[hidden:]
	return n
}

// Params returns the number of parameters of a network with the given
// number of inputs and hidden units.
func Params(inputs, hidden int) int { return inputs*hidden + hidden*Outputs + hidden + Outputs }

// Clone returns a deep copy of n: a frozen snapshot of a learning net.
func (n *Net) Clone() *Net {
	c := alloc(n.Hidden)
	copy(c.WIH, n.WIH)
	copy(c.WHO, n.WHO)
	copy(c.BH, n.BH)
	copy(c.BO, n.BO)
	return c
}

// evenBits[m] moves bit s of the 9-bit mask m to bit 2s: square s held
// by X is input 2s, held by O input 2s+1.
var evenBits = func() (t [1 << 9]uint32) {
	for m := range t {
		for sq := range 9 {
			if m&(1<<sq) != 0 {
				t[m] |= 1 << (2 * sq)
			}
		}
	}
	return t
}()

// Pass holds the activations of one forward pass, which the backward pass
// needs. Reusing one Pass keeps play and training free of allocation.
type Pass struct {
	on     [10]int32 // inputs that are 1: the side input first, then squares
	nOn    int
	hidden []float32 // pre-activations; ReLU keeps those listed in active
	active []int32   // hidden units with a positive activation
	grad   []float32 // backprop's error at each active unit
	Logits [Outputs]float32
	Probs  [Outputs]float32 // softmax over all nine squares, as in ttt-rl
}

// Forward computes the network's move probabilities for b into p.
func (n *Net) Forward(b game.Board, p *Pass) {
	n.Logits(b, p)
	softmax(&p.Logits, &p.Probs)
}

// Logits computes the network's outputs for b into p without the
// softmax: all that Sample needs, and nine exponentials cheaper. It
// leaves p.Probs as they were.
func (n *Net) Logits(b game.Board, p *Pass) {
	H := n.Hidden
	if cap(p.hidden) < H {
		p.hidden = make([]float32, H)
		p.active = make([]int32, 0, H)
		p.grad = make([]float32, 0, H)
	}
	h := p.hidden[:H]

	// The inputs that are on, in increasing order after the side input.
	// The side input goes first: adding its row straight to the bias is
	// then the very first sum, so folding it into the bias (FoldedBytes)
	// gives bit-identical activations.
	p.nOn = 0
	if b.ToMove() == game.X {
		p.on[0] = sideInput
		p.nOn = 1
	}
	for on := evenBits[b.X] | evenBits[b.O]<<1; on != 0; on &= on - 1 {
		p.on[p.nOn] = int32(bits.TrailingZeros32(on))
		p.nOn++
	}

	// Hidden layer: bias plus the weight row of every input that is on.
	copy(h, n.BH)
	for _, i := range p.on[:p.nOn] {
		addRow(h, n.WIH[int(i)*H:][:H])
	}

	// ReLU. Rather than clamp, remember which units are active: the
	// output layer and the backward pass only visit those, so the
	// negative pre-activations left in h are never read.
	act := p.active[:H]
	nAct := 0
	for j, v := range h {
		act[nAct] = int32(j)
		if v > 0 {
			nAct++
		}
	}
	p.active = act[:nAct]

	// Output layer over the active units only.
	z := &p.Logits
	copy(z[:], n.BO)
	for _, j := range p.active {
		v := h[j]
		w := (*[Outputs]float32)(n.WHO[int(j)*Outputs:])
		for k := range z {
			z[k] += v * w[k]
		}
	}
}

// softmax writes the softmax of z into out, subtracting the maximum first
// so that exp cannot overflow.
func softmax(z, out *[Outputs]float32) {
	m := z[0]
	for _, v := range z[1:] {
		m = max(m, v)
	}
	var sum float32
	for k, v := range z {
		out[k] = exp32(v - m)
		sum += out[k]
	}
	for k := range out {
		out[k] /= sum
	}
}

// Greedy returns the empty square with the highest probability in p, the
// lowest such square on a tie: the move of evaluation and play.
func Greedy(b game.Board, p *Pass) int {
	best := -1
	for sq := range Outputs {
		if b.IsEmpty(sq) && (best < 0 || p.Probs[sq] > p.Probs[best]) {
			best = sq
		}
	}
	return best
}

// Table returns n's greedy move in every position: a frozen net as a
// table player.
func (n *Net) Table() *agents.Table {
	var p Pass
	return agents.NewTable(func(b game.Board) int {
		n.Forward(b, &p)
		return Greedy(b, &p)
	})
}

// addRow adds row to h, four at a time: the loop is the hottest in
// training, and unrolling it halves its overhead.
func addRow(h, row []float32) {
	row = row[:len(h)]
	j := 0
	for ; j+4 <= len(h); j += 4 {
		hh, rr := (*[4]float32)(h[j:]), (*[4]float32)(row[j:])
		hh[0] += rr[0]
		hh[1] += rr[1]
		hh[2] += rr[2]
		hh[3] += rr[3]
	}
	for ; j < len(h); j++ {
		h[j] += row[j]
	}
}
