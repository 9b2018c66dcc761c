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
	"ttt/store"
)

// learner is one line of a league's learning, a method of Config.Learners,
// with what the league must keep between rounds to go on exactly as if it
// had never stopped: the network or the table it learns, its random
// generator and the number of games it has trained (which drives the
// epsilon schedule).
type learner struct {
	method string
	net    *nn.Net            // a network's weights, or
	values train.TableLearner // a table learner
	pcg    *rand.PCG
	rng    *rand.Rand
	games  int64
	// retired: the line diverged, and trains no more; it keeps no model.
	retired bool

	// frozen is the line's last snapshot as a deterministic player,
	// while the learner is the same; nil once it trains on.
	frozen game.Player
}

// newLearner starts the learner of line i, method l.Method, from seed.
// Each line draws from a stream of its own: the first line of a league
// of several learners is the learner of a league of that one.
func newLearner(g game.Game, l train.Learning, seed uint64, i int) *learner {
	pcg := rand.NewPCG(seed, 0x6c6561677565+uint64(i)) // "league"
	rng := rand.New(pcg)
	ln := &learner{method: l.Method, pcg: pcg, rng: rng}
	if train.IsTable(l.Method) {
		ln.values = train.NewTable(l, rng)
	} else {
		ln.net = train.NewNet(g, l, rng)
	}
	return ln
}

// retire ends the line's learning: its diverged network is dropped.
func (ln *learner) retire() { ln.retired, ln.net, ln.values, ln.frozen = true, nil, nil, nil }

// trainer returns the learner as train plays its games, learning as l
// says.
func (ln *learner) trainer(l train.Learning) train.Learner {
	if ln.values != nil {
		return ln.values
	}
	return train.New(ln.net, l, ln.rng)
}

// snapshot returns a frozen copy of the learner as a new checkpoint.
func (ln *learner) snapshot() *store.Agent {
	a := &store.Agent{Kind: store.Checkpoint, Method: ln.method, TrainGames: ln.games}
	if ln.values != nil {
		a.Table = ln.values.Values()
	} else {
		a.Net = ln.net.Clone()
	}
	return a
}

// player returns a frozen copy of the learner as it plays now, greedily.
func (ln *learner) player() game.Player {
	if ln.values != nil {
		return ln.values.Values()
	}
	return &nn.Player{Net: ln.net.Clone()}
}

// hidden returns the size of a network learner, 0 for a table.
func (ln *learner) hidden() int {
	if ln.net == nil {
		return 0
	}
	return ln.net.Hidden
}

// stateMagic starts a stored learner state, versioned so that a future
// ttt can read an older one: version 1 held a policy net, of a size its
// weights tell; version 2 says the net's shape; version 3 holds every
// line of a league of several learners, and which of them trains next.
var (
	stateMagic1 = []byte("ttt-learner-1\n")
	stateMagic2 = []byte("ttt-learner-2\n")
	stateMagic  = []byte("ttt-learner-3\n")
)

// marshalLearners encodes the lines and next, the line that trains next:
// magic, the number of lines, next, then each line: its method (a byte of
// length, then the name), whether it is retired (a byte), games,
// generator state, and its model, a network (hidden units, outputs,
// weights), a table learner's state or nothing for a retired line, each
// behind its length.
func marshalLearners(lines []*learner, next int) ([]byte, error) {
	buf := append([]byte(nil), stateMagic...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(lines)))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(next))
	for _, ln := range lines {
		pcg, err := ln.pcg.MarshalBinary()
		if err != nil {
			return nil, err
		}
		var model []byte
		switch {
		case ln.retired:
		case ln.values != nil:
			if model, err = ln.values.MarshalBinary(); err != nil {
				return nil, err
			}
		default:
			model = binary.LittleEndian.AppendUint32(model, uint32(ln.net.Hidden))
			model = binary.LittleEndian.AppendUint32(model, uint32(ln.net.Outputs))
			model = append(model, ln.net.Bytes()...)
		}
		buf = append(buf, byte(len(ln.method)))
		buf = append(buf, ln.method...)
		buf = append(buf, boolByte(ln.retired))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(ln.games))
		for _, part := range [][]byte{pcg, model} {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(len(part)))
			buf = append(buf, part...)
		}
	}
	return buf, nil
}

// unmarshalLearners decodes what marshalLearners wrote, the lines of a
// league of g learning as learning says of each method, and the line
// that trains next. It reads the one learner of versions 1 and 2 too.
func unmarshalLearners(g game.Game, data []byte, learning func(method string) train.Learning) ([]*learner, int, error) {
	bad := func(why string) error { return fmt.Errorf("stored learner state: %s", why) }
	r := reader{data: data}
	switch {
	case bytes.HasPrefix(data, stateMagic):
		r.data = data[len(stateMagic):]
	case bytes.HasPrefix(data, stateMagic2), bytes.HasPrefix(data, stateMagic1):
		ln, err := unmarshalNetLearner(g, data)
		return []*learner{ln}, 0, err
	default:
		return nil, 0, bad("unknown format")
	}
	n, next := int(r.uint32()), int(r.uint32())
	if r.err != nil || n < 1 || n > len(train.Methods) || next >= n {
		return nil, 0, bad("truncated")
	}
	lines := make([]*learner, n)
	for i := range lines {
		ln := &learner{method: string(r.bytes(int(r.byte())))}
		ln.retired = r.byte() == 1
		ln.games = int64(r.uint64())
		pcg, model := r.part(), r.part()
		if r.err != nil {
			return nil, 0, bad("truncated")
		}
		ln.pcg = new(rand.PCG)
		if err := ln.pcg.UnmarshalBinary(pcg); err != nil {
			return nil, 0, errors.Join(bad("generator"), err)
		}
		ln.rng = rand.New(ln.pcg)
		var err error
		switch l := learning(ln.method); {
		case ln.retired:
		case train.IsTable(ln.method):
			ln.values, err = train.UnmarshalTable(l, model, ln.rng)
		case len(model) < 8:
			err = errors.New("truncated")
		default:
			shape := nn.Shape{Inputs: g.Inputs(), Hidden: int(binary.LittleEndian.Uint32(model)), Outputs: int(binary.LittleEndian.Uint32(model[4:]))}
			ln.net, err = nn.Parse(g, model[8:], shape)
		}
		if err != nil {
			return nil, 0, errors.Join(bad(ln.method), err)
		}
		lines[i] = ln
	}
	switch {
	case len(r.data) > 0:
		return nil, 0, bad("bytes after the last line")
	case lines[next].retired:
		return nil, 0, bad("the next line is retired")
	}
	return lines, next, nil
}

// unmarshalNetLearner decodes the one network learner of versions 1 and
// 2: magic, games, generator state, (version 2) the net's hidden units
// and outputs, weights.
func unmarshalNetLearner(g game.Game, data []byte) (*learner, error) {
	bad := func(why string) error { return fmt.Errorf("stored learner state: %s", why) }
	rest, shaped := bytes.CutPrefix(data, stateMagic2)
	if !shaped {
		rest, _ = bytes.CutPrefix(data, stateMagic1)
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
	l.net, l.method = net, store.NetMethod(net)
	return l, nil
}

// boolByte encodes b as a byte, 1 for true.
func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// reader reads a learner state's fields in order; the first read past
// the end sets err, and every read after it returns zeros.
type reader struct {
	data []byte
	err  error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n > len(r.data) {
		r.err = errors.New("truncated")
		return nil
	}
	b := r.data[:n]
	r.data = r.data[n:]
	return b
}

func (r *reader) byte() byte {
	if b := r.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) uint32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) uint64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// part reads a length, then that many bytes.
func (r *reader) part() []byte { return r.bytes(int(r.uint32())) }
