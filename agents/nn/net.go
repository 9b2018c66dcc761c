// Package nn is the network of ttt: one hidden ReLU layer, float32
// throughout. A policy net has a softmax over the moves of the game and
// learns by the reward-scaled cross-entropy rule of antirez's ttt-rl
// (learn.go); a value net has one sigmoid output, what a position is
// worth, and moves to the position it values most (value.go).
//
// The network's inputs are its game's encoding of a position (two inputs
// per cell, one for each side's stone, and a last input that is 1 when X
// is to move: 19 for tic-tac-toe, 85 for Connect Four), its outputs the
// game's moves (9 squares, 7 columns). The side input is what lets one
// network play both sides.
//
// The inputs are 0/1 and few of them are on, so the hidden layer is
// computed as the bias plus the weight rows of the inputs that are on,
// the way GNU Backgammon's evaluator skips zero inputs; and the output
// layer and the backward pass skip hidden units that ReLU switched off.
// Both give the same sums, term for term, as the dense loops would.
package nn

import (
	"math/rand/v2"

	"ttt/agents/game"
)

// Layer sizes.
const (
	DefaultHidden = 100 // as in ttt-rl
	MaxHidden     = 4096
)

// Net is a network's parameters for one game, a policy net or a value net
// (one output). The layout is the one of ttt-rl's ttt_nn.bin: WIH[i*Hidden+j] joins input i to hidden unit j,
// and WHO[j*Outputs+k] joins hidden unit j to output k.
//
// A Net is read-only during Forward, so frozen nets can be shared by
// concurrent games; each goroutine brings its own Pass.
type Net struct {
	Game    game.Game
	Inputs  int // Game.Inputs()
	Outputs int // Game.Moves(), or 1 for a value net
	Hidden  int
	WIH     []float32 // Inputs x Hidden
	WHO     []float32 // Hidden x Outputs
	BH      []float32 // Hidden
	BO      []float32 // Outputs
}

// New returns a network with hidden units whose weights and biases are
// drawn uniformly from [-0.5, 0.5), as ttt-rl does. (He initialisation
// would suit ReLU better; the original's choice trains well enough here
// and keeps its numbers comparable.)
func New(g game.Game, hidden int, rng *rand.Rand) *Net {
	return initial(alloc(g, hidden, g.Moves()), rng)
}

// initial draws n's weights and biases uniformly from [-0.5, 0.5).
func initial(n *Net, rng *rand.Rand) *Net {
	for _, p := range [][]float32{n.WIH, n.WHO, n.BH, n.BO} {
		for i := range p {
			p[i] = rng.Float32() - 0.5
		}
	}
	return n
}

// alloc returns a zero network with one backing array for all parameters.
func alloc(g game.Game, hidden, out int) *Net {
	in := g.Inputs()
	all := make([]float32, Params(in, hidden, out))
	n := &Net{Game: g, Inputs: in, Outputs: out, Hidden: hidden}
	n.WIH, all = all[:in*hidden], all[in*hidden:]
	n.WHO, all = all[:hidden*out], all[hidden*out:]
	n.BH, n.BO = all[:hidden], all[hidden:]
	return n
}

// Params returns the number of parameters of a network with the given
// numbers of inputs, hidden units and outputs.
func Params(inputs, hidden, outputs int) int {
	return inputs*hidden + hidden*outputs + hidden + outputs
}

// Clone returns a deep copy of n: a frozen snapshot of a learning net.
func (n *Net) Clone() *Net {
	c := alloc(n.Game, n.Hidden, n.Outputs)
	copy(c.WIH, n.WIH)
	copy(c.WHO, n.WHO)
	copy(c.BH, n.BH)
	copy(c.BO, n.BO)
	return c
}

// Pass holds the activations of one forward pass, which the backward pass
// needs. Reusing one Pass keeps play and training free of allocation.
type Pass struct {
	on     []int32   // inputs that are 1: the side input first, then the cells'
	hidden []float32 // pre-activations; ReLU keeps those listed in active
	active []int32   // hidden units with a positive activation
	grad   []float32 // backprop's error at each active unit
	Logits []float32
	Probs  []float32 // softmax over all the moves, legal or not, as in ttt-rl
	target []float32 // the learning rule's target, or Sample's weights
	dOut   []float32 // the error at each output
}

// size makes p's buffers fit n.
func (p *Pass) size(n *Net) {
	if cap(p.hidden) < n.Hidden {
		p.hidden = make([]float32, n.Hidden)
		p.active = make([]int32, 0, n.Hidden)
		p.grad = make([]float32, 0, n.Hidden)
	}
	if len(p.Logits) != n.Outputs {
		p.Logits = make([]float32, n.Outputs)
		p.Probs = make([]float32, n.Outputs)
		p.target = make([]float32, n.Outputs)
		p.dOut = make([]float32, n.Outputs)
	}
}

// Forward computes the network's move probabilities in position pos
// into p.
func (n *Net) Forward(pos game.Position, p *Pass) {
	n.Logits(pos, p)
	softmax(p.Logits, p.Probs)
}

// Logits computes the network's outputs in position pos into p without
// the softmax: all that Sample needs, and an exponential a move cheaper.
// It leaves p.Probs as they were.
func (n *Net) Logits(pos game.Position, p *Pass) {
	H := n.Hidden
	p.size(n)
	h := p.hidden[:H]

	// The inputs that are on, in increasing order after the side input.
	// The side input goes first: adding its row straight to the bias is
	// then the very first sum, so folding it into the bias (FoldedBytes)
	// gives bit-identical activations.
	p.on = n.Game.Encode(pos, p.on[:0])

	// Hidden layer: bias plus the weight row of every input that is on.
	copy(h, n.BH)
	for _, i := range p.on {
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
	z, out := p.Logits, n.Outputs
	copy(z, n.BO)
	for _, j := range p.active {
		v := h[j]
		w := n.WHO[int(j)*out:][:out]
		for k := range z {
			z[k] += v * w[k]
		}
	}
}

// softmax writes the softmax of z into out, subtracting the maximum first
// so that exp cannot overflow.
func softmax(z, out []float32) {
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

// Greedy returns the legal move with the highest probability in p, the
// lowest such move on a tie: the move of evaluation and play.
func (n *Net) Greedy(pos game.Position, p *Pass) int {
	legal := n.Game.Legal(pos)
	best := -1
	for m := range n.Outputs {
		if legal&(1<<m) != 0 && (best < 0 || p.Probs[m] > p.Probs[best]) {
			best = m
		}
	}
	return best
}

// Player is a frozen net as a player: its greedy move. It is not safe for
// concurrent use (it keeps one Pass): give each goroutine its own.
type Player struct {
	Net  *Net
	pass Pass
}

// Move implements game.Player: a policy net's most probable move, a
// value net's best afterstate.
func (pl *Player) Move(pos game.Position) int {
	if pl.Net.IsValue() {
		m, _ := pl.Net.Afterstates(pos, &pl.pass, nil)
		return m
	}
	pl.Net.Forward(pos, &pl.pass)
	return pl.Net.Greedy(pos, &pl.pass)
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
