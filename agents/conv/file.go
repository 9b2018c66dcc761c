package conv

import (
	"encoding/binary"
	"fmt"
	"math"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// Magic starts a convolutional value network's file.
const Magic = "ttt-conv"

// A network's file is little-endian: the header of every file of ttt's
// own (learn.AppendHeader: Magic, the game, the side, always 0: it plays
// both), then the shape as four uint16s (Layers, Channels, HeadChannels,
// Hidden), then every weight as a float32, in the order of Net.W:
//
//   - each 3×3 convolution, first to last: its filters, a matrix of 9·in
//     rows and Channels columns, row by row (row k·in + c is input
//     channel c of the neighbour k, numbered 0-8 row by row from the
//     cell below and left of it, 4 the cell itself; in is the planes for
//     the first layer, Channels after), then its Channels biases;
//   - the 1×1 head: in rows of HeadChannels, then HeadChannels biases;
//   - the dense layer: cells·HeadChannels rows of Hidden (row
//     cell·HeadChannels + c), then Hidden biases;
//   - the output: Hidden weights, then its bias.
//
// A position's planes, a row per cell (row·width + column, row 0 the
// bottom), are its game's cell states one-hot (0 empty, 1 a stone of
// the side that has just moved, 2 the other side's, then the game's own:
// Connect Four's 3 a playable cell, 4 one out of reach), and last a
// plane of 1 where X has just moved. A neighbour off the board reads 0
// in every plane. ReLU follows every layer but the output, whose
// sigmoid is the position's worth to the side that has just moved.

// limits bound the shape a file may declare, so that a file's few bytes
// of shape cannot ask for gigabytes.
var limits = Shape{Layers: 16, Channels: 256, HeadChannels: 64, Hidden: 1024}

// Bytes implements learn.Model: a league stores the file itself. Its
// weights are dense float32 noise, which deflate would not shrink.
func (n *Net) Bytes() []byte { return n.File() }

// File implements learn.Model.
func (n *Net) File() []byte {
	buf := learn.AppendHeader(make([]byte, 0, 64+4*len(n.W)), Magic, n.Game, nil)
	for _, v := range []int{n.Shape.Layers, n.Shape.Channels, n.Shape.HeadChannels, n.Shape.Hidden} {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(v))
	}
	for _, w := range n.W {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(w))
	}
	return buf
}

// maxFile is the size of the largest file of a network of g.
func maxFile(g game.Game) int64 {
	return 64 + 8 + 4*int64(Params(g, limits))
}

// parse reads a network of g from a file's bytes after its header.
func parse(g game.Game, rest []byte) (*Net, error) {
	if len(rest) < 8 {
		return nil, fmt.Errorf("a convolutional network's file ends before its shape")
	}
	u := func(i int) int { return int(binary.LittleEndian.Uint16(rest[2*i:])) }
	s := Shape{Layers: u(0), Channels: u(1), HeadChannels: u(2), Hidden: u(3)}
	if s.Layers > limits.Layers || s.Channels > limits.Channels || s.HeadChannels > limits.HeadChannels || s.Hidden > limits.Hidden ||
		s.Layers > 0 && s.Channels < 1 || s.HeadChannels < 1 || s.Hidden < 1 {
		return nil, fmt.Errorf("a convolutional network's shape %+v is beyond what ttt reads (%+v at most, and at least one of each)", s, limits)
	}
	n := alloc(g, s)
	if want := 8 + 4*len(n.W); len(rest) != want {
		return nil, fmt.Errorf("a convolutional network of %+v has %d bytes of shape and weights, not %d", s, want, len(rest))
	}
	for i := range n.W {
		n.W[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[8+4*i:]))
	}
	if err := n.Validate(); err != nil {
		return nil, fmt.Errorf("a convolutional network that cannot play: %w", err)
	}
	return n, nil
}

// decode reads what Bytes stored.
func decode(g game.Game, stored []byte) (learn.Model, error) { return decodeNet(g, stored) }

// decodeNet is decode, typed.
func decodeNet(g game.Game, stored []byte) (*Net, error) {
	side, rest, err := learn.ReadHeader(stored, Magic, g, "a convolutional network")
	switch {
	case err != nil:
		return nil, err
	case side != nil:
		return nil, fmt.Errorf("a stored convolutional network of one side")
	}
	return parse(g, rest)
}

// ReadFile reads a network's plain file for g.
func ReadFile(g game.Game, data []byte) ([]learn.Reading, error) {
	if !learn.HasMagic(data, Magic) {
		return nil, nil
	}
	m, err := decode(g, data)
	if err != nil {
		return nil, err
	}
	n := m.(*Net)
	return []learn.Reading{{Model: n, Method: "conv", What: fmt.Sprintf("a %s %s", g.Title(), n.Describe())}}, nil
}
