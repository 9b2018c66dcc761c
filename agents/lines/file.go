package lines

import (
	"encoding/binary"
	"fmt"
	"math"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// Magic starts a lines network's file.
const Magic = "ttt-line"

// A network's file is little-endian: the header of every file of ttt's
// own (learn.AppendHeader: Magic, the game, the side, always 0: it plays
// both), then the shape as two uint16s (Features, Hidden), then every
// weight as a float32, in the order of Net.W:
//
//   - the lines' tables, in the order of the game's winning lines
//     (game.Board.Lines), each a row of Features for each way the line's
//     cells can be: the row's number is the line's cell states read as
//     the digits of a number in base States, its first cell the most
//     significant; states as the side that has just moved sees them (0
//     empty, 1 its stone, 2 the other side's, then the game's own:
//     Connect Four's 3 a playable cell, 4 one out of reach);
//   - the side's rows: Features for X having just moved, then for O;
//   - the sum's Features biases;
//   - the dense layer: Features rows of Hidden, then Hidden biases;
//   - the output: Hidden weights, then its bias.
//
// A position's value to the side that has just moved is the sigmoid of
// the output of ReLU(dense · ReLU(sum)), the sum being the biases, the
// side's row and every line's chosen row.

// limits bound the shape a file may declare, so that a file's few bytes
// of shape cannot ask for gigabytes.
var limits = Shape{Features: 256, Hidden: 1024}

// Bytes implements learn.Model: a league stores the file itself.
func (n *Net) Bytes() []byte { return n.File() }

// File implements learn.Model.
func (n *Net) File() []byte {
	buf := learn.AppendHeader(make([]byte, 0, 64+4*len(n.W)), Magic, n.Game, nil)
	buf = binary.LittleEndian.AppendUint16(buf, uint16(n.Shape.Features))
	buf = binary.LittleEndian.AppendUint16(buf, uint16(n.Shape.Hidden))
	for _, w := range n.W {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(w))
	}
	return buf
}

// maxFile is the size of the largest file of a network of g.
func maxFile(g game.Game) int64 {
	return 64 + 4 + 4*int64(Params(g, limits))
}

// parse reads a network of g from a file's bytes after its header.
func parse(g game.Game, rest []byte) (*Net, error) {
	if len(rest) < 4 {
		return nil, fmt.Errorf("a lines network's file ends before its shape")
	}
	s := Shape{Features: int(binary.LittleEndian.Uint16(rest)), Hidden: int(binary.LittleEndian.Uint16(rest[2:]))}
	if s.Features < 1 || s.Hidden < 1 || s.Features > limits.Features || s.Hidden > limits.Hidden {
		return nil, fmt.Errorf("a lines network's shape %+v is beyond what ttt reads (%+v at most, at least one of each)", s, limits)
	}
	n, err := alloc(g, s)
	if err != nil {
		return nil, err
	}
	if want := 4 + 4*len(n.W); len(rest) != want {
		return nil, fmt.Errorf("a lines network of %+v has %d bytes of shape and weights, not %d", s, want, len(rest))
	}
	for i := range n.W {
		n.W[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4+4*i:]))
	}
	if err := n.Validate(); err != nil {
		return nil, fmt.Errorf("a lines network that cannot play: %w", err)
	}
	return n, nil
}

// decode reads what Bytes stored.
func decode(g game.Game, stored []byte) (learn.Model, error) { return decodeNet(g, stored) }

// decodeNet is decode, typed.
func decodeNet(g game.Game, stored []byte) (*Net, error) {
	side, rest, err := learn.ReadHeader(stored, Magic, g, "a lines network")
	switch {
	case err != nil:
		return nil, err
	case side != nil:
		return nil, fmt.Errorf("a stored lines network of one side")
	}
	return parse(g, rest)
}

// ReadFile reads a network's plain file for g.
func ReadFile(g game.Game, data []byte) ([]learn.Reading, error) {
	if !learn.HasMagic(data, Magic) {
		return nil, nil
	}
	n, err := decodeNet(g, data)
	if err != nil {
		return nil, err
	}
	return []learn.Reading{{Model: n, Method: "lines", What: fmt.Sprintf("a %s %s", g.Title(), n.Describe())}}, nil
}
