package league

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/train"
	"ttt/store"
)

// learner is one line of a league's learning, a method of
// Config.Learners, with what the league must keep between rounds to go
// on exactly as if it had never stopped: the method's learner, its
// random generator and the number of games it has trained (which drives
// the schedules of exploration and learning rate).
type learner struct {
	method  *learn.Method
	learner learn.Learner // nil once retired
	pcg     *rand.PCG
	rng     *rand.Rand
	games   int64
	// retired: the line diverged, and trains no more; it keeps no model.
	retired bool

	// frozen is the line's last snapshot as a deterministic player,
	// while the learner is the same; nil once it trains on.
	frozen game.Player
}

// lineRand returns the generator of line i of a league seeded with seed.
// Each line draws from a stream of its own: the first line of a league
// of several learners is the learner of a league of that one.
func lineRand(seed uint64, i int) *rand.PCG {
	return rand.NewPCG(seed, 0x6c6561677565+uint64(i)) // "league"
}

// newLearner starts the learner of line i, of method m learning g as s
// says, from seed.
func newLearner(g game.Game, m *learn.Method, s learn.Settings, seed uint64, i int) (*learner, error) {
	pcg := lineRand(seed, i)
	rng := rand.New(pcg)
	l, err := m.New(g, s, rng)
	if err != nil {
		return nil, fmt.Errorf("the %s learner: %w", m.Name, err)
	}
	return &learner{method: m, learner: l, pcg: pcg, rng: rng}, nil
}

// retire ends the line's learning: its diverged model is dropped.
func (ln *learner) retire() { ln.retired, ln.learner, ln.frozen = true, nil, nil }

// snapshot returns a frozen copy of the learner as a new checkpoint, and
// its model.
func (ln *learner) snapshot() (*store.Agent, learn.Model) {
	model := ln.learner.Model()
	return &store.Agent{Kind: store.Checkpoint, Method: ln.method.Name, TrainGames: ln.games,
		Weights: model.Bytes(), Hidden: model.Layout().Hidden}, model
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
// generator state, and its learner's state (learn.Learner.MarshalBinary,
// nothing for a retired line), each behind its length.
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
		if !ln.retired {
			if model, err = ln.learner.MarshalBinary(); err != nil {
				return nil, err
			}
		}
		buf = append(buf, byte(len(ln.method.Name)))
		buf = append(buf, ln.method.Name...)
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
// league of g learning as settings says of each method, and the line
// that trains next. It reads the one learner of versions 1 and 2 too.
func unmarshalLearners(g game.Game, data []byte, settings func(m *learn.Method) learn.Settings) ([]*learner, int, error) {
	bad := func(why string) error { return fmt.Errorf("stored learner state: %s", why) }
	r := reader{data: data}
	switch {
	case bytes.HasPrefix(data, stateMagic):
		r.data = data[len(stateMagic):]
	case bytes.HasPrefix(data, stateMagic2), bytes.HasPrefix(data, stateMagic1):
		ln, err := unmarshalNetLearner(g, data, settings)
		return []*learner{ln}, 0, err
	default:
		return nil, 0, bad("unknown format")
	}
	n, next := int(r.uint32()), int(r.uint32())
	if r.err != nil || n < 1 || n > len(agents.Methods) || next >= n {
		return nil, 0, bad("truncated")
	}
	lines, err := unmarshalLines(g, r, n, next, true, settings)
	if err != nil {
		// The ttt that first stored several lines (the commit that made
		// schema 7) wrote no retired byte, under the same magic: its
		// leagues read in that form, which the next round's commit
		// writes over in this one. The byte shifts every field after
		// it, so a state of one form does not read whole in the other.
		if old, oldErr := unmarshalLines(g, r, n, next, false, settings); oldErr == nil {
			return old, next, nil
		}
		return nil, 0, err
	}
	return lines, next, nil
}

// unmarshalLines decodes the n lines that r holds, next the one that
// trains next, each with a retired byte after its method's name or
// (withRetired false) without one, as marshalLearners and the first ttt
// of several learners wrote them.
func unmarshalLines(g game.Game, r reader, n, next int, withRetired bool, settings func(m *learn.Method) learn.Settings) ([]*learner, error) {
	bad := func(why string) error { return fmt.Errorf("stored learner state: %s", why) }
	lines := make([]*learner, n)
	for i := range lines {
		name := string(r.bytes(int(r.byte())))
		retired := withRetired && r.byte() == 1
		games := int64(r.uint64())
		pcg, state := r.part(), r.part()
		if r.err != nil {
			return nil, bad("truncated")
		}
		m, err := agents.MethodOf(name)
		if err != nil {
			return nil, errors.Join(bad("a line"), err)
		}
		ln := &learner{method: m, retired: retired, games: games, pcg: new(rand.PCG)}
		if err := ln.pcg.UnmarshalBinary(pcg); err != nil {
			return nil, errors.Join(bad("generator"), err)
		}
		ln.rng = rand.New(ln.pcg)
		if !ln.retired {
			if ln.learner, err = m.Resume(g, settings(m), state, ln.rng); err != nil {
				return nil, errors.Join(bad(m.Name), err)
			}
		}
		lines[i] = ln
	}
	switch {
	case len(r.data) > 0:
		return nil, bad("bytes after the last line")
	case lines[next].retired:
		return nil, bad("the next line is retired")
	}
	return lines, nil
}

// unmarshalNetLearner decodes the one network learner of versions 1 and
// 2: magic, games, generator state, (version 2) the net's hidden units
// and outputs, weights; version 1 held a policy net, of a size its
// weights tell.
func unmarshalNetLearner(g game.Game, data []byte, settings func(m *learn.Method) learn.Settings) (*learner, error) {
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
	if !shaped { // a policy net: its state as version 2 writes it
		floats := len(rest) / 4
		hidden := (floats - g.Moves()) / (g.Inputs() + g.Moves() + 1)
		rest = append(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, uint32(hidden)), uint32(g.Moves())), rest...)
	}
	if len(rest) < 8 {
		return nil, bad("truncated")
	}
	l.method = train.PolicyMethod
	if binary.LittleEndian.Uint32(rest[4:]) == 1 {
		l.method = train.TDLambdaMethod
	}
	var err error
	if l.learner, err = l.method.Resume(g, settings(l.method), rest, l.rng); err != nil {
		return nil, errors.Join(bad("network"), err)
	}
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
