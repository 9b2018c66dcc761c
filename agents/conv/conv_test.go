package conv

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
)

// small is a network quick enough for tests to train.
var small = Shape{Layers: 2, Channels: 8, HeadChannels: 2, Hidden: 16}

// newLearner returns a learner of g with a small network.
func newLearner(t testing.TB, g game.Game, seed uint64) *expert.Expert {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	n, err := New(g, small, rng)
	if err != nil {
		t.Fatal(err)
	}
	return expert.NewExpert(n, 2, 4, 2000, 0.003, rng)
}

// TestFileReadsBack: a file read back is the same network, byte for
// byte and move for move, and a damaged one is refused.
func TestFileReadsBack(t *testing.T) {
	for _, g := range []game.Game{tictactoe.Game, connect4.Game} {
		l := newLearner(t, g, 3)
		for i := range 20 {
			l.Play(game.Side(i%2), nil, 0.2)
		}
		n := l.Model().(*Net)
		file := n.File()
		readings, err := ReadFile(g, file)
		if err != nil || len(readings) != 1 {
			t.Fatalf("%s: %v, %d readings", g.Name(), err, len(readings))
		}
		back := readings[0].Model.(*Net)
		if !bytes.Equal(back.File(), file) {
			t.Errorf("%s: the file read back writes other bytes", g.Name())
		}
		rng := rand.New(rand.NewPCG(1, 1))
		for range 200 {
			p := g.Start()
			for k := rng.IntN(g.MaxPlies() - 1); k > 0 && g.Result(p) == game.Ongoing; k-- {
				p = g.Play(p, game.RandomMove(g, p, rng))
			}
			if g.Result(p) != game.Ongoing {
				continue
			}
			if a, b := n.Player().Move(p), back.Player().Move(p); a != b {
				t.Fatalf("%s: in\n%s\nthe network plays %d, read back %d", g.Name(), g.Format(p), a, b)
			}
		}
		for _, cut := range []int{len(file) - 1, len(file) - 4, 20} {
			if _, err := ReadFile(g, file[:cut]); err == nil {
				t.Errorf("%s: a file cut to %d bytes of %d reads", g.Name(), cut, len(file))
			}
		}
		other := connect4.Game
		if g == connect4.Game {
			other = tictactoe.Game
		}
		if _, err := ReadFile(other, file); err == nil {
			t.Errorf("a %s file reads as %s's", g.Name(), other.Name())
		}
	}
}

// TestResumeLearnsOnTheSame: a learner stored and resumed between games
// goes on exactly as one that never stopped: the same network after the
// same games.
func TestResumeLearnsOnTheSame(t *testing.T) {
	g := connect4.Game
	a, b := newLearner(t, g, 5), newLearner(t, g, 5)
	for i := range 30 {
		a.Play(game.Side(i%2), nil, 0.1)
		b.Play(game.Side(i%2), nil, 0.1)
	}
	state, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b, err = unmarshal(g, state, b.Depth, b.Openings, b.Opt.LR, b.Rand)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		a.Play(game.Side(i%2), nil, 0.1)
		b.Play(game.Side(i%2), nil, 0.1)
	}
	if !bytes.Equal(a.Net.File(), b.Net.File()) {
		t.Error("the resumed learner's network differs from the one that never stopped")
	}
	for cut := range state {
		if cut%97 != 0 {
			continue
		}
		if _, err := unmarshal(g, state[:cut], 2, 4, 0.001, b.Rand); err == nil {
			t.Fatalf("a state cut to %d bytes of %d reads", cut, len(state))
		}
	}
}

// solvedTeacher is a tic-tac-toe model that judges every move exactly,
// from the solved game: a teacher whose one-ply search is perfect.
type solvedTeacher struct{ *Net }

func (solvedTeacher) Judge() func(p game.Position, values []float32) {
	solved := tictactoe.Solve()
	return func(p game.Position, values []float32) {
		b := tictactoe.FromPosition(p)
		for m := b.Empty(); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			values[sq] = float32(solved.MoveValue(b, sq)+1) / 2
		}
	}
}

// TestLearnsTheTeachersValues: taught by a perfect teacher, the network
// comes to keep the value of most positions, where a new one keeps far
// fewer (it finds only the wins the rules settle at once).
func TestLearnsTheTeachersValues(t *testing.T) {
	g := tictactoe.Game
	l := newLearner(t, g, 9)
	l.Depth = 1
	l.Teach(solvedTeacher{l.Net.(*Net)})
	share := func() float64 {
		kept, all := 0, 0
		solved := tictactoe.Solve()
		rng := rand.New(rand.NewPCG(2, 2))
		player := l.Model().Player()
		for range 300 {
			p := g.Start()
			for k := rng.IntN(7); k > 0 && g.Result(p) == game.Ongoing; k-- {
				p = g.Play(p, game.RandomMove(g, p, rng))
			}
			if g.Result(p) != game.Ongoing {
				continue
			}
			all++
			if solved.Optimal(tictactoe.FromPosition(p), player.Move(p)) {
				kept++
			}
		}
		return float64(kept) / float64(all)
	}
	before := share()
	for i := range 3000 {
		l.Play(game.Side(i%2), nil, 0.3)
	}
	after := share()
	t.Logf("keeps the value in %.1f%% of positions, %.1f%% before", 100*after, 100*before)
	if after < 0.8 || after < before+0.1 {
		t.Errorf("taught by a perfect search, the network keeps the value in %.1f%% of positions (%.1f%% before)", 100*after, 100*before)
	}
}

// TestDefaultFileSize holds docs/files.md's figure: a default Connect
// Four network's weights and file.
func TestDefaultFileSize(t *testing.T) {
	n, err := New(connect4.Game, DefaultShape, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(n.W), 16_325; got != want {
		t.Errorf("%d weights, docs/files.md says %d", got, want)
	}
	if got, want := len(n.File()), 65_326; got != want {
		t.Errorf("a file of %d bytes, docs/files.md says %d", got, want)
	}
}

// documented is a network read from its file as docs/files.md describes
// it, by plain loops in float64: an outside reader's.
type documented struct {
	g                    game.Game
	l, c, h, u           int
	convs                [][]float64 // each layer's matrix then biases
	head, dense, out     []float64
	cells, width, planes int
}

// readDocumented reads file as docs/files.md says.
func readDocumented(t *testing.T, g game.Game, file []byte) *documented {
	t.Helper()
	rest := file[8+1+len(g.Name())+1:]
	u16 := func(i int) int { return int(binary.LittleEndian.Uint16(rest[2*i:])) }
	d := &documented{g: g, l: u16(0), c: u16(1), h: u16(2), u: u16(3), cells: g.Board().Cells, width: g.Board().Width, planes: g.Board().States + 1}
	rest = rest[8:]
	take := func(in, out int) []float64 {
		w := make([]float64, in*out+out)
		for i := range w {
			w[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:])))
		}
		rest = rest[4*len(w):]
		return w
	}
	in := d.planes
	for range d.l {
		d.convs = append(d.convs, take(9*in, d.c))
		in = d.c
	}
	d.head, d.dense, d.out = take(in, d.h), take(d.cells*d.h, d.u), take(d.u, 1)
	if len(rest) != 0 {
		t.Fatalf("%d bytes after the weights", len(rest))
	}
	return d
}

// layer applies a matrix (in rows, out columns, then the biases) and a
// ReLU to x.
func layer(w []float64, x []float64, in, out int) []float64 {
	y := make([]float64, out)
	for j := range out {
		y[j] = w[in*out+j]
		for i := range in {
			y[j] += x[i] * w[i*out+j]
		}
		y[j] = max(y[j], 0)
	}
	return y
}

// value is the worth of pos to mover, who has just moved there.
func (d *documented) value(pos game.Position, mover game.Side) float64 {
	states := make([]uint8, d.cells)
	d.g.CellStates(pos, states)
	x := make([][]float64, d.cells)
	for c, s := range states {
		x[c] = make([]float64, d.planes)
		if mover == game.O && (s == 1 || s == 2) {
			s = 3 - s
		}
		x[c][s] = 1
		if mover == game.X {
			x[c][d.planes-1] = 1
		}
	}
	rows := d.cells / d.width
	for _, w := range d.convs {
		in := len(x[0])
		next := make([][]float64, d.cells)
		for c := range d.cells {
			r, col := c/d.width, c%d.width
			nb := make([]float64, 9*in)
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					k := 3*(dr+1) + dc + 1
					if rr, cc := r+dr, col+dc; rr >= 0 && rr < rows && cc >= 0 && cc < d.width {
						copy(nb[k*in:], x[rr*d.width+cc])
					}
				}
			}
			next[c] = layer(w, nb, 9*in, d.c)
		}
		x = next
	}
	var flat []float64
	for c := range d.cells {
		flat = append(flat, layer(d.head, x[c], len(x[c]), d.h)...)
	}
	hid := layer(d.dense, flat, len(flat), d.u)
	z := d.out[d.u]
	for i, v := range hid {
		z += v * d.out[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// move is the documented move in pos.
func (d *documented) move(pos game.Position) int {
	g := d.g
	side := g.ToMove(pos)
	worth := map[int]float64{}
	var moves []int
	for m := range g.Moves() {
		if g.Legal(pos)&(1<<m) == 0 {
			continue
		}
		moves = append(moves, m)
		switch q := g.Play(pos, m); g.Result(q) {
		case game.Win(side):
			return m
		case game.Tie:
			worth[m] = 0.5
		case game.Ongoing:
			worth[m] = d.value(q, side)
		default:
			worth[m] = 0
		}
	}
	most := -1.0
	for _, m := range moves {
		most = max(most, worth[m])
	}
	for _, m := range moves {
		if worth[m] >= most-1e-5 {
			return m
		}
	}
	return -1
}

// TestFileAsDocumented: a reader of docs/files.md alone, adding up in
// float64, values positions as ttt does and plays the same moves.
func TestFileAsDocumented(t *testing.T) {
	for _, g := range []game.Game{tictactoe.Game, connect4.Game} {
		l := newLearner(t, g, 11)
		for i := range 30 {
			l.Play(game.Side(i%2), nil, 0.2)
		}
		n := l.Model().(*Net)
		d := readDocumented(t, g, n.File())
		player := n.Player()
		rng := rand.New(rand.NewPCG(4, 4))
		var p Pass
		for range 300 {
			pos := g.Start()
			for k := rng.IntN(g.MaxPlies() - 1); k > 0 && g.Result(pos) == game.Ongoing; k-- {
				pos = g.Play(pos, game.RandomMove(g, pos, rng))
			}
			if g.Result(pos) != game.Ongoing {
				continue
			}
			mover := g.ToMove(pos).Other()
			if g.Plies(pos) > 0 {
				if a, b := float64(n.Value(pos, mover, &p)), d.value(pos, mover); math.Abs(a-b) > 1e-5 {
					t.Fatalf("%s: ttt values\n%s\nat %v, the documented reader at %v", g.Name(), g.Format(pos), a, b)
				}
			}
			if a, b := player.Move(pos), d.move(pos); a != b {
				t.Fatalf("%s: in\n%s\nttt plays %d, the documented reader %d", g.Name(), g.Format(pos), a, b)
			}
		}
	}
}

// unmarshal reads a learner's stored state of a network of g.
func unmarshal(g game.Game, state []byte, depth, openings int, lr float32, rng *rand.Rand) (*expert.Expert, error) {
	return expert.Unmarshal(state, func(b []byte) (expert.Net, error) { return decodeNet(g, b) }, depth, openings, lr, rng)
}
