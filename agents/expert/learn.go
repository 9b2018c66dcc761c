// Package expert is expert iteration (Anthony, Tian and Barber 2017; the
// loop AlphaZero runs with MCTS, here with the alpha-beta search ttt
// already has): a value network learns, from the positions of its
// games, what the strongest searched player its league has finds them
// worth. The networks it teaches are in packages of their own (conv,
// lines); this one holds what they share: the learner, its replay
// buffer and actors, the optimiser and the loss.
//
// Why learn from a search: a label from a search is a better target than
// the next position's own estimate, which is all TD(λ) has; and a
// network that can hold more than a sum of local patterns (as an
// n-tuple network is) can take what the search sees and it does not.
package expert

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
)

// Net is a value network that expert iteration can teach: a model of
// the afterstate value (a position's worth to the side that has just
// moved there), with its weights in one slice, so that the optimiser,
// a copy and the file each see one array.
type Net interface {
	learn.Model
	// Weights are every weight of the network.
	Weights() []float32
	// Zero returns a network of the same shape with every weight zero:
	// a gradient's holder.
	Zero() Net
	// Copy returns a copy with weights of its own.
	Copy() Net
	// Gradient adds into grad's weights the gradient of the mean
	// cross-entropy (Loss) of the network's values of b against b's
	// labels, and returns that loss.
	Gradient(b *Batch, grad Net) float64
}

// Batch is a minibatch: positions, each after a move by the matching
// mover, each to be seen through a symmetry of the board (an index of
// Board().Symmetries), and each's label.
type Batch struct {
	Positions []game.Position
	Movers    []game.Side
	Syms      []uint8
	Labels    []float32
}

// Expert is a network learning by expert iteration: it plays games, a
// teacher's search labels the positions they reach, and the network
// learns those labels by minibatch gradient descent from a replay buffer
// of the latest positions. It is not safe for concurrent use, but its
// games and their labels (the costly part: a search a position) can be
// made apart from its learning (learn.Parallel): actors play and label
// on the network and teacher as of the last Sync, and it learns from
// their episodes in the order given.
//
// The loop, as Anthony, Tian and Barber give it:
//
//	STEP 1 (actors): play a game from up to Openings random moves, the
//	network's own moves after them (exploring at epsilon), and label
//	each position it leaves with what the teacher's alpha-beta search,
//	Depth plies deep, finds it worth.
//	STEP 2 (learner): put the labelled positions into the buffer, the
//	oldest out.
//	STEP 3 (learner): for every Batch positions that came in, Reuse steps
//	of Adam on Batch positions drawn from the buffer, each seen through
//	a random symmetry of the board.
//
// The teacher is the strongest searched player its league has (Teach):
// at first another line's network, later its own, once its own plays
// better. Without one, it teaches itself: its own network searched,
// which knows at first only what the rules settle within Depth plies,
// and learns outward from there, as AlphaZero does.
type Expert struct {
	Net      Net
	Opt      *Adam
	Depth    int // plies of the teacher's search
	Openings int // the most random moves a game starts with
	Batch    int
	Reuse    int // steps on each batch's worth of new positions
	Rand     *rand.Rand

	buf     []Labelled // the replay buffer, a ring
	at      int        // where the next position goes
	fresh   int        // positions in since the last step
	teacher learn.Model
	frozen  Net // the network the actors play, as of the last Sync
	own     *actor
	episode Episode
	player  game.Player // the learner's own moves, for Greedy
	grad    Net
	batch   Batch
}

// Labelled is a position after a move by Mover, and its worth to Mover,
// as the teacher's search found it.
type Labelled struct {
	Position game.Position
	Mover    game.Side
	Label    float32
}

// Episode is a game an actor played, with its labelled positions.
type Episode struct {
	Samples []Labelled
	result  game.Result
}

// Result implements learn.Episode.
func (e *Episode) Result() game.Result { return e.result }

// NewExpert returns a learner of net, labelling with a search of depth
// plies, learning at rate lr, keeping buffer positions.
func NewExpert(net Net, depth, openings, buffer int, lr float32, rng *rand.Rand) *Expert {
	l := &Expert{Net: net, Opt: NewAdam(len(net.Weights()), lr, weightDecay), Depth: depth, Openings: openings, Batch: BatchSize, Reuse: reuse, Rand: rng,
		buf: make([]Labelled, 0, buffer), grad: net.Zero()}
	return l
}

// The learner's constants, as measured in BENCHMARKS.md ("A network that
// learns what the search knows").
const (
	BatchSize   = 256
	reuse       = 4    // each position is drawn about this many times before it leaves a buffer that holds a round's
	weightDecay = 1e-4 // Adam's decoupled decay, a share of the rate a step
)

// Teach makes m the teacher whose search labels the positions of the
// games from the next Sync on (nil: the learner's own network).
func (l *Expert) Teach(m learn.Model) { l.teacher = m }

// Play plays one game as side against opp (itself for nil), exploring at
// rate epsilon, and learns from it.
func (l *Expert) Play(side game.Side, opp game.Player, epsilon float64) game.Result {
	if l.own == nil {
		l.own = l.newActor(l.Net, l.Rand)
	}
	r := l.own.Play(&l.episode, side, opp, epsilon)
	l.Learn(&l.episode)
	return r
}

// Greedy returns the learner's move in p.
func (l *Expert) Greedy(p game.Position) int {
	if l.player == nil {
		l.player = l.Net.Player()
	}
	return l.player.Move(p)
}

// Drill plays one game from start, where the learner is to move, with a
// first move other than avoid, against opp, and learns from it.
func (l *Expert) Drill(start game.Position, avoid int, opp game.Player, epsilon float64) game.Result {
	if l.own == nil {
		l.own = l.newActor(l.Net, l.Rand)
	}
	g := l.Net.Plays()
	others := g.Legal(start) &^ (1 << avoid)
	for k := l.Rand.IntN(bits.OnesCount64(others)); k > 0; k-- {
		others &= others - 1
	}
	r := l.own.play(&l.episode, g.Play(start, bits.TrailingZeros64(others)), 0, g.ToMove(start), opp, epsilon)
	l.Learn(&l.episode)
	return r
}

// Schedule implements learn.Learner: Adam's rate for the games from
// games on.
func (l *Expert) Schedule(s learn.Settings, games int64) error {
	l.Opt.LR = float32(s.At(games).LR)
	return nil
}

// Model implements learn.Learner.
func (l *Expert) Model() learn.Model { return l.Net.Copy() }

// Actor implements learn.Parallel.
func (l *Expert) Actor(rng *rand.Rand) learn.Actor {
	if l.frozen == nil {
		l.Sync()
	}
	return l.newActor(l.frozen, rng)
}

// newActor returns an actor that plays net, labelling with the teacher
// (net itself where there is none).
func (l *Expert) newActor(net Net, rng *rand.Rand) *actor {
	var teacher learn.Model = net
	if l.teacher != nil {
		teacher = l.teacher
	}
	return &actor{g: net.Plays(), player: net.Player(), label: search.Label(teacher, l.Depth), openings: l.Openings, rng: rng}
}

// Sync implements learn.Parallel: the actors play, and the learner
// teaches itself with, the network as it is now; a copy, as the learner
// goes on learning while they play.
func (l *Expert) Sync() {
	if l.frozen == nil {
		l.frozen = l.Net.Copy()
	} else {
		copy(l.frozen.Weights(), l.Net.Weights())
	}
	l.own = nil
}

// NewEpisode implements learn.Parallel.
func (l *Expert) NewEpisode() learn.Episode { return new(Episode) }

// Learn implements learn.Parallel: STEPS 2 and 3.
func (l *Expert) Learn(e learn.Episode) {
	for _, s := range e.(*Episode).Samples {
		if len(l.buf) < cap(l.buf) {
			l.buf = append(l.buf, s)
		} else {
			l.buf[l.at] = s
		}
		l.at = (l.at + 1) % cap(l.buf)
		if l.fresh++; l.fresh == l.Batch {
			l.fresh = 0
			for range l.Reuse {
				l.step()
			}
		}
	}
}

// step is one step of Adam on a minibatch drawn from the buffer.
func (l *Expert) step() {
	b, syms := &l.batch, len(l.Net.Plays().Board().Symmetries)
	b.Positions, b.Movers, b.Syms, b.Labels = b.Positions[:0], b.Movers[:0], b.Syms[:0], b.Labels[:0]
	for range l.Batch {
		s := l.buf[l.Rand.IntN(len(l.buf))]
		b.Positions, b.Movers, b.Labels = append(b.Positions, s.Position), append(b.Movers, s.Mover), append(b.Labels, s.Label)
		b.Syms = append(b.Syms, uint8(l.Rand.IntN(syms)))
	}
	clear(l.grad.Weights())
	l.Net.Gradient(b, l.grad)
	l.Opt.Step(l.Net.Weights(), l.grad.Weights())
}

// actor plays and labels games on a frozen network.
type actor struct {
	g        game.Game
	player   game.Player // the network's own moves
	label    func(game.Position) float32
	openings int
	rng      *rand.Rand
}

// Play implements learn.Actor: STEP 1.
func (a *actor) Play(e learn.Episode, side game.Side, opp game.Player, epsilon float64) game.Result {
	random := 0
	if a.openings > 0 {
		random = a.rng.IntN(a.openings + 1)
	}
	return a.play(e.(*Episode), a.g.Start(), random, side, opp, epsilon)
}

// play plays from p into e, its first random moves at random, and labels
// every position in play that a move leaves, p among them.
func (a *actor) play(e *Episode, p game.Position, random int, side game.Side, opp game.Player, epsilon float64) game.Result {
	g := a.g
	e.Samples = e.Samples[:0]
	if g.Plies(p) > 0 && g.Result(p) == game.Ongoing {
		e.Samples = append(e.Samples, Labelled{p, g.ToMove(p).Other(), 1 - a.label(p)})
	}
	for k := 0; g.Result(p) == game.Ongoing; k++ {
		var m int
		switch {
		case k < random:
			m = game.RandomMove(g, p, a.rng)
		case opp != nil && g.ToMove(p) != side:
			m = opp.Move(p)
		case epsilon > 0 && a.rng.Float64() < epsilon:
			m = game.RandomMove(g, p, a.rng)
		default:
			m = a.player.Move(p)
		}
		mover := g.ToMove(p)
		p = g.Play(p, m)
		if g.Result(p) == game.Ongoing {
			e.Samples = append(e.Samples, Labelled{p, mover, 1 - a.label(p)})
		}
	}
	e.result = g.Result(p)
	return e.result
}

// MarshalBinary implements learn.Learner: the network's file, Adam's
// step count and moments, and the replay buffer with its place, so that
// a resumed league learns on exactly as one that never stopped.
func (l *Expert) MarshalBinary() ([]byte, error) {
	buf := l.Net.File()
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(buf)))
	out = append(out, buf...)
	out = binary.LittleEndian.AppendUint64(out, uint64(l.Opt.Steps))
	for _, v := range append(append([]float32(nil), l.Opt.M...), l.Opt.V...) {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(cap(l.buf)))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(l.buf)))
	out = binary.LittleEndian.AppendUint32(out, uint32(l.at))
	out = binary.LittleEndian.AppendUint32(out, uint32(l.fresh))
	for _, s := range l.buf {
		out = binary.LittleEndian.AppendUint64(out, s.Position.A)
		out = binary.LittleEndian.AppendUint64(out, s.Position.B)
		out = append(out, byte(s.Mover))
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(s.Label))
	}
	return out, nil
}

// Unmarshal reads what MarshalBinary wrote, the network by decode.
func Unmarshal(data []byte, decode func([]byte) (Net, error), depth, openings int, lr float32, rng *rand.Rand) (*Expert, error) {
	bad := fmt.Errorf("a stored expert-iteration learner is cut short or damaged")
	if len(data) < 4 {
		return nil, bad
	}
	size := int(binary.LittleEndian.Uint32(data))
	if len(data) < 4+size {
		return nil, bad
	}
	net, err := decode(data[4 : 4+size])
	if err != nil {
		return nil, err
	}
	rest := data[4+size:]
	if len(rest) < 8+8*len(net.Weights())+16 {
		return nil, bad
	}
	l := NewExpert(net, depth, openings, 0, lr, rng)
	l.Opt.Steps = int64(binary.LittleEndian.Uint64(rest))
	rest = rest[8:]
	for i := range l.Opt.M {
		l.Opt.M[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:]))
		l.Opt.V[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[4*(len(l.Opt.M)+i):]))
	}
	rest = rest[8*len(l.Opt.M):]
	capacity, n := int(binary.LittleEndian.Uint32(rest)), int(binary.LittleEndian.Uint32(rest[4:]))
	l.at, l.fresh = int(binary.LittleEndian.Uint32(rest[8:])), int(binary.LittleEndian.Uint32(rest[12:]))
	rest = rest[16:]
	if n > capacity || capacity > MaxBuffer || l.at >= max(capacity, 1) || len(rest) != 21*n {
		return nil, bad
	}
	l.buf = make([]Labelled, n, capacity)
	for i := range l.buf {
		r := rest[21*i:]
		l.buf[i] = Labelled{game.Position{A: binary.LittleEndian.Uint64(r), B: binary.LittleEndian.Uint64(r[8:])}, game.Side(r[16] & 1), math.Float32frombits(binary.LittleEndian.Uint32(r[17:]))}
	}
	return l, nil
}
