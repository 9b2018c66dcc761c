package nn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"ttt/agents/game"
)

// A plain weight file is headerless little-endian float32, exactly the
// layout of ttt-rl's ttt_nn.bin: WIH (inputs x hidden), WHO (hidden x
// outputs), BH (hidden), BO (outputs). Files with all of the game's inputs
// (19 for tic-tac-toe) carry the side-to-move input; files with one input
// fewer (18) are the original's format, one side only.

// Bytes returns n as a plain weight file with all its inputs.
func (n *Net) Bytes() []byte {
	return encode(n.WIH, n.WHO, n.BH, n.BO)
}

// FoldedBytes returns n as a plain weight file without the side input
// (18 inputs for tic-tac-toe, 84 for Connect Four) that plays side
// exactly as n does. With X to move the side input is 1, so its weights
// are added to the hidden biases; with O to move it is 0 and they are
// dropped. Forward adds the side input first, so the folded biases are
// the very sums n computes, bit for bit. With 100 hidden units the file
// is what ttt-rl's play program loads.
func (n *Net) FoldedBytes(side game.Side) []byte {
	H, sideInput := n.Hidden, n.Inputs-1
	bh := append([]float32(nil), n.BH...)
	if side == game.X {
		for j, w := range n.WIH[sideInput*H : (sideInput+1)*H] {
			bh[j] += w
		}
	}
	return encode(n.WIH[:sideInput*H], n.WHO, bh, n.BO)
}

func encode(parts ...[]float32) []byte {
	var size int
	for _, p := range parts {
		size += 4 * len(p)
	}
	buf := make([]byte, 0, size)
	for _, p := range parts {
		for _, v := range p {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	}
	return buf
}

// ErrAmbiguous is returned by Parse when a file's size fits more than one
// network of its game; the caller must say which.
var ErrAmbiguous = errors.New("the file size fits more than one network")

// Shape is what a plain weight file does not say of its network: its
// numbers of inputs (the game's, or one fewer without the side input),
// hidden units and outputs (one per move for a policy net, one for a
// value net). Zero is not known.
type Shape struct{ Inputs, Hidden, Outputs int }

// Parse reads a plain weight file of a network for g, of the shape want
// where it says, inferring the rest from the file's size. A file without
// the side input becomes a net whose side-input weights are zero: it
// plays both sides as the file would. Parse refuses an empty file, a size
// that fits no network, NaN and Inf values, and weights large enough to
// overflow a forward pass (Validate). A size that fits networks with and
// without the side input is refused (ErrAmbiguous); one that fits a
// policy net and a value net (a 19-20-9 net has as many weights as a
// 19-28-1) is read as the policy net, ttt-rl's file, unless want says
// otherwise.
func Parse(g game.Game, data []byte, want Shape) (*Net, error) {
	if len(data) == 0 {
		return nil, errors.New("the file is empty")
	}
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%d bytes is not a whole number of float32 values", len(data))
	}
	floats := len(data) / 4
	full := g.Inputs()
	ins, outs := []int{full - 1, full}, []int{g.Moves(), 1}
	if want.Inputs != 0 {
		if want.Inputs != full-1 && want.Inputs != full {
			return nil, fmt.Errorf("inputs must be %d or %d, not %d", full-1, full, want.Inputs)
		}
		ins = []int{want.Inputs}
	}
	if want.Outputs != 0 {
		if want.Outputs != g.Moves() && want.Outputs != 1 {
			return nil, fmt.Errorf("outputs must be %d or 1, not %d", g.Moves(), want.Outputs)
		}
		outs = []int{want.Outputs}
	}
	// A file holds inputs*H + H*outputs + H + outputs floats.
	var fits []Shape
	for _, in := range ins {
		for _, out := range outs {
			h := want.Hidden
			if h == 0 {
				h = (floats - out) / (in + out + 1)
			}
			if h >= 1 && h <= MaxHidden && Params(in, h, out) == floats {
				fits = append(fits, Shape{in, h, out})
			}
		}
	}
	// A size that fits a policy net is the policy net's.
	if policy := slices.DeleteFunc(slices.Clone(fits), func(s Shape) bool { return s.Outputs == 1 }); len(policy) > 0 {
		fits = policy
	}
	switch {
	case len(fits) == 0:
		in := fmt.Sprint(ins[0])
		if len(ins) == 2 {
			in = fmt.Sprintf("%d or %d", ins[0], ins[1])
		}
		return nil, fmt.Errorf("%d bytes fits no network with %s inputs (a %s file holds 4*(inputs*H + %d*H + %d) bytes for a policy net, 4*(inputs*H + 2*H + 1) for a value net)",
			len(data), in, g.Title(), g.Moves()+1, g.Moves())
	case len(fits) > 1:
		return nil, fmt.Errorf("%w: with and without the side input", ErrAmbiguous)
	}
	shape := fits[0]

	vals := make([]float32, floats)
	for i := range vals {
		vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	n := alloc(g, shape.Hidden, shape.Outputs)
	rest := vals[copy(n.WIH[:shape.Inputs*shape.Hidden], vals):] // a file without the side input leaves its row zero
	rest = rest[copy(n.WHO, rest):]
	rest = rest[copy(n.BH, rest):]
	copy(n.BO, rest)
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// MaxActivation bounds the magnitude of every sum a forward pass may
// compute, hidden pre-activations and output logits alike. float32 ends
// at 3.4e38; a net whose sums could pass it computes infinite logits,
// their softmax is NaN, and it plays blind (every move NaN%). The bound
// leaves eight orders of magnitude of room; a trained net's logits are
// in the tens.
const MaxActivation = 1e30

// Validate reports whether some forward pass of n could compute a sum
// beyond MaxActivation, or a weight is NaN or infinite. It bounds each
// hidden unit by its bias plus the magnitudes of all its input weights
// (as if all inputs were on, more than any position sets) and each
// logit by its bias plus every hidden unit's bound times the weight from
// it, in float64: a net that passes can compute no infinite or NaN value
// in any position. It costs one pass over the weights, where running the
// net on every reachable position would cost thousands of passes.
func (n *Net) Validate() error {
	H := n.Hidden
	for i, p := range [][]float32{n.WIH, n.WHO, n.BH, n.BO} {
		for j, v := range p {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("%s[%d] is %v: the weights are broken", [...]string{"weights_ih", "weights_ho", "biases_h", "biases_o"}[i], j, v)
			}
		}
	}
	hidden := make([]float64, H) // the bound of each hidden unit's activation
	for j := range hidden {
		s := math.Abs(float64(n.BH[j]))
		for i := range n.Inputs {
			s += math.Abs(float64(n.WIH[i*H+j]))
		}
		if s > MaxActivation {
			return fmt.Errorf("the weights are too large: hidden unit %d could reach %.3g, beyond the limit of %g (float32 overflows at 3.4e38)", j, s, MaxActivation)
		}
		hidden[j] = s
	}
	for k := range n.Outputs {
		s := math.Abs(float64(n.BO[k]))
		for j, h := range hidden {
			s += h * math.Abs(float64(n.WHO[j*n.Outputs+k]))
		}
		if s > MaxActivation {
			return fmt.Errorf("the weights are too large: the logit of move %d could reach %.3g, beyond the limit of %g (float32 overflows at 3.4e38)", k, s, MaxActivation)
		}
	}
	return nil
}
