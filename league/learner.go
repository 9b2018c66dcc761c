package league

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/agents/train"
)

// learner is what a league must keep between rounds to go on exactly as
// if it had never stopped: the learning network, its random generator and
// the number of games it has trained (which drives the epsilon schedule).
type learner struct {
	net   *nn.Net
	pcg   *rand.PCG
	rng   *rand.Rand
	games int64
}

// newLearner starts a learner from seed.
func newLearner(g game.Game, l train.Learning, seed uint64) *learner {
	pcg := rand.NewPCG(seed, 0x6c6561677565) // "league"
	rng := rand.New(pcg)
	return &learner{net: train.NewNet(g, l, rng), pcg: pcg, rng: rng}
}

// stateMagic starts a stored learner state, versioned so that a future
// ttt can read an older one: version 1 held a policy net, of a size its
// weights tell; version 2 says the net's shape.
var (
	stateMagic1 = []byte("ttt-learner-1\n")
	stateMagic  = []byte("ttt-learner-2\n")
)

// marshal encodes the learner: magic, games, generator state, the net's
// hidden units and outputs, weights.
func (l *learner) marshal() ([]byte, error) {
	pcg, err := l.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	buf := append([]byte(nil), stateMagic...)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(l.games))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(pcg)))
	buf = append(buf, pcg...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(l.net.Hidden))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(l.net.Outputs))
	return append(buf, l.net.Bytes()...), nil
}

// unmarshalLearner decodes what marshal wrote, a learner of g.
func unmarshalLearner(g game.Game, data []byte) (*learner, error) {
	bad := func(why string) error { return fmt.Errorf("stored learner state: %s", why) }
	rest, ok := bytes.CutPrefix(data, stateMagic)
	shaped := ok
	if !ok {
		rest, ok = bytes.CutPrefix(data, stateMagic1)
	}
	if !ok {
		return nil, bad("unknown format")
	}
	if len(rest) < 12 {
		return nil, bad("truncated")
	}
	l := &learner{games: int64(binary.LittleEndian.Uint64(rest))}
	n := int(binary.LittleEndian.Uint32(rest[8:]))
	rest = rest[12:]
	if n > len(rest) {
		return nil, bad("truncated")
	}
	l.pcg = new(rand.PCG)
	if err := l.pcg.UnmarshalBinary(rest[:n]); err != nil {
		return nil, errors.Join(bad("generator"), err)
	}
	l.rng = rand.New(l.pcg)
	rest = rest[n:]
	shape := nn.Shape{Inputs: g.Inputs(), Outputs: g.Moves()}
	if shaped {
		if len(rest) < 8 {
			return nil, bad("truncated")
		}
		shape.Hidden = int(binary.LittleEndian.Uint32(rest))
		shape.Outputs = int(binary.LittleEndian.Uint32(rest[4:]))
		rest = rest[8:]
	}
	net, err := nn.Parse(g, rest, shape)
	if err != nil {
		return nil, errors.Join(bad("network"), err)
	}
	l.net = net
	return l, nil
}
