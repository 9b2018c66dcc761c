package nn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"ttt/agents/game"
)

// A plain weight file is headerless little-endian float32, exactly the
// layout of ttt-rl's ttt_nn.bin: WIH (inputs x hidden), WHO (hidden x 9),
// BH (hidden), BO (9). Files with 19 inputs carry the side-to-move input;
// files with 18 inputs are the original's format, one side only.

// Bytes returns n as a 19-input plain weight file.
func (n *Net) Bytes() []byte {
	return encode(n.WIH, n.WHO, n.BH, n.BO)
}

// FoldedBytes returns n as an 18-input plain weight file that plays side
// exactly as n does. With X to move the side input is 1, so its weights
// are added to the hidden biases; with O to move it is 0 and they are
// dropped. Forward adds the side input first, so the folded biases are
// the very sums n computes, bit for bit. With 100 hidden units the file
// is what ttt-rl's play program loads.
func (n *Net) FoldedBytes(side game.Side) []byte {
	H := n.Hidden
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

// ErrAmbiguous is returned by Parse when a file's size fits both 18 and
// 19 inputs; the caller must say which.
var ErrAmbiguous = errors.New("the file size fits both 18 and 19 inputs: say which with --inputs")

// Parse reads a plain weight file with 18 or 19 inputs (inputs = 0 infers
// it from the size) and infers the hidden size. An 18-input file becomes a
// net whose side-input weights are zero: it plays both sides as the file
// would. Parse refuses an empty file, a size that fits no network, NaN and
// Inf values.
func Parse(data []byte, inputs int) (*Net, error) {
	if len(data) == 0 {
		return nil, errors.New("the file is empty")
	}
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%d bytes is not a whole number of float32 values", len(data))
	}
	floats := len(data) / 4
	// A file holds inputs*H + 9H + H + 9 floats.
	hiddenFor := func(in int) (int, bool) {
		h := (floats - Outputs) / (in + Outputs + 1)
		return h, h >= 1 && h <= MaxHidden && Params(in, h) == floats
	}
	var hidden int
	switch inputs {
	case 0:
		h18, ok18 := hiddenFor(18)
		h19, ok19 := hiddenFor(19)
		switch {
		case ok18 && ok19:
			return nil, ErrAmbiguous
		case ok18:
			inputs, hidden = 18, h18
		case ok19:
			inputs, hidden = 19, h19
		default:
			return nil, fmt.Errorf("%d bytes fits no network with 18 or 19 inputs (a file holds 4*(inputs*H + 10*H + 9) bytes)", len(data))
		}
	case 18, 19:
		h, ok := hiddenFor(inputs)
		if !ok {
			return nil, fmt.Errorf("%d bytes fits no network with %d inputs (a file holds 4*(%d*H + 10*H + 9) bytes)", len(data), inputs, inputs)
		}
		hidden = h
	default:
		return nil, fmt.Errorf("inputs must be 18 or 19, not %d", inputs)
	}

	vals := make([]float32, floats)
	for i := range vals {
		v := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("value %d of %d is %v: the weights are broken", i, floats, v)
		}
		vals[i] = v
	}
	n := alloc(hidden)
	rest := vals[copy(n.WIH[:inputs*hidden], vals):] // an 18-input file leaves the side row zero
	rest = rest[copy(n.WHO, rest):]
	rest = rest[copy(n.BH, rest):]
	copy(n.BO, rest)
	return n, nil
}
