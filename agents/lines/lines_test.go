package lines

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
var small = Shape{Features: 8, Hidden: 8}

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

// randomPositions returns k positions in play of random games of g,
// each with the side that has just moved (X before the first move).
func randomPositions(g game.Game, k int, rng *rand.Rand) ([]game.Position, []game.Side) {
	var pos []game.Position
	var movers []game.Side
	for len(pos) < k {
		p := g.Start()
		for n := rng.IntN(g.MaxPlies() - 1); n > 0 && g.Result(p) == game.Ongoing; n-- {
			p = g.Play(p, game.RandomMove(g, p, rng))
		}
		if g.Result(p) == game.Ongoing {
			pos, movers = append(pos, p), append(movers, g.ToMove(p).Other())
		}
	}
	return pos, movers
}

// TestGradient checks Gradient against the loss's finite differences,
// weight by weight (those the batch reads), each position seen through
// a symmetry.
func TestGradient(t *testing.T) {
	for _, g := range []game.Game{tictactoe.Game, connect4.Game} {
		rng := rand.New(rand.NewPCG(1, 2))
		n, err := New(g, Shape{Features: 5, Hidden: 4}, rng)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n.out { // a new net's output weighs nothing: no gradient reaches below it
			n.out[i] = float32(rng.NormFloat64())
		}
		pos, movers := randomPositions(g, 6, rng)
		b := &expert.Batch{Positions: pos, Movers: movers}
		for range pos {
			b.Syms, b.Labels = append(b.Syms, uint8(rng.IntN(len(g.Board().Symmetries)))), append(b.Labels, rng.Float32())
		}
		grad := n.Zero().(*Net)
		n.Gradient(b, grad)
		loss := func() float64 { return n.Gradient(b, n.Zero()) }
		checked := 0
		for i := range n.W {
			if grad.W[i] == 0 && i%101 != 0 || i%3 != 0 {
				continue // a third of the weights the batch reads, and a sample of the rest
			}
			w := n.W[i]
			const h = 1e-3
			n.W[i] = w + h
			up := loss()
			n.W[i] = w - h
			down := loss()
			n.W[i] = w
			want := (up - down) / (2 * h)
			if got := float64(grad.W[i]); math.Abs(got-want) > 1e-3+0.05*math.Abs(want) {
				t.Errorf("%s: weight %d: gradient %.5f, finite differences %.5f", g.Name(), i, got, want)
			}
			checked++
		}
		t.Logf("%s: %d weights of %d checked", g.Name(), checked, len(n.W))
	}
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
		pos, _ := randomPositions(g, 200, rand.New(rand.NewPCG(1, 1)))
		for _, p := range pos {
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
// goes on exactly as one that never stopped.
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
	resume := func(state []byte) (*expert.Expert, error) {
		return expert.Unmarshal(state, func(b []byte) (expert.Net, error) { return decodeNet(g, b) }, 2, 4, 0.003, b.Rand)
	}
	if b, err = resume(state); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		a.Play(game.Side(i%2), nil, 0.1)
		b.Play(game.Side(i%2), nil, 0.1)
	}
	if !bytes.Equal(a.Net.File(), b.Net.File()) {
		t.Error("the resumed learner's network differs from the one that never stopped")
	}
	for cut := 0; cut < len(state); cut += 4999 {
		if _, err := resume(state[:cut]); err == nil {
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
// comes to keep the value of nearly every tic-tac-toe position, where a
// new one keeps far fewer.
func TestLearnsTheTeachersValues(t *testing.T) {
	g := tictactoe.Game
	l := newLearner(t, g, 9)
	l.Depth = 1
	l.Teach(solvedTeacher{l.Net.(*Net)})
	solved := tictactoe.Solve()
	pos, _ := randomPositions(g, 2000, rand.New(rand.NewPCG(2, 2)))
	share := func() float64 {
		player, kept := l.Model().Player(), 0
		for _, p := range pos {
			b := tictactoe.FromPosition(p)
			if solved.MoveValue(b, player.Move(p)) == solved.Value(b) {
				kept++
			}
		}
		return float64(kept) / float64(len(pos))
	}
	before := share()
	for i := range 3000 {
		l.Play(game.Side(i%2), nil, 0.3)
	}
	after := share()
	t.Logf("keeps the value in %.1f%% of positions, %.1f%% before", 100*after, 100*before)
	if after < 0.9 || after < before+0.1 {
		t.Errorf("taught by a perfect search, the network keeps the value in %.1f%% of positions (%.1f%% before)", 100*after, 100*before)
	}
}

// TestDefaultFileSize holds docs/files.md's figures: a default Connect
// Four network's weights and file.
func TestDefaultFileSize(t *testing.T) {
	n, err := New(connect4.Game, DefaultShape, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(n.W), 566_433; got != want {
		t.Errorf("%d weights, docs/files.md says %d", got, want)
	}
	if got, want := len(n.File()), 2_265_754; got != want {
		t.Errorf("a file of %d bytes, docs/files.md says %d", got, want)
	}
}

// documented is a network read from its file as docs/files.md describes
// it, by plain loops in float64: an outside reader's.
type documented struct {
	g                             game.Game
	features, hidden              int
	table, side, bias, dense, out []float64
}

// readDocumented reads file as docs/files.md says.
func readDocumented(t *testing.T, g game.Game, file []byte) *documented {
	t.Helper()
	rest := file[8+1+len(g.Name())+1:]
	d := &documented{g: g, features: int(binary.LittleEndian.Uint16(rest)), hidden: int(binary.LittleEndian.Uint16(rest[2:]))}
	rest = rest[4:]
	take := func(k int) []float64 {
		w := make([]float64, k)
		for i := range w {
			w[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(rest[4*i:])))
		}
		rest = rest[4*k:]
		return w
	}
	b := g.Board()
	rows := 1
	for range b.Lines[0] {
		rows *= b.States
	}
	f, h := d.features, d.hidden
	d.table, d.side, d.bias = take(len(b.Lines)*rows*f), take(2*f), take(f)
	d.dense, d.out = take(f*h+h), take(h+1)
	if len(rest) != 0 {
		t.Fatalf("%d bytes after the weights", len(rest))
	}
	return d
}

// value is the worth of pos to mover, who has just moved there.
func (d *documented) value(pos game.Position, mover game.Side) float64 {
	b := d.g.Board()
	states := make([]uint8, b.Cells)
	d.g.CellStates(pos, states)
	f, h := d.features, d.hidden
	sum := make([]float64, f)
	side := 0
	if mover == game.O {
		side = 1
	}
	for i := range sum {
		sum[i] = d.bias[i] + d.side[side*f+i]
	}
	rows := len(d.table) / len(b.Lines) / f
	for l, line := range b.Lines {
		row := 0
		for _, c := range line {
			s := int(states[c])
			if mover == game.O && (s == 1 || s == 2) {
				s = 3 - s
			}
			row = row*b.States + s
		}
		for i := range sum {
			sum[i] += d.table[((l*rows)+row)*f+i]
		}
	}
	z := d.out[h]
	for j := range h {
		u := d.dense[f*h+j]
		for i, v := range sum {
			u += max(v, 0) * d.dense[i*h+j]
		}
		z += max(u, 0) * d.out[j]
	}
	return 1 / (1 + math.Exp(-z))
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
		var p Pass
		pos, movers := randomPositions(g, 300, rand.New(rand.NewPCG(4, 4)))
		for i, q := range pos {
			if g.Plies(q) > 0 {
				if a, b := float64(n.Value(q, movers[i], &p)), d.value(q, movers[i]); math.Abs(a-b) > 1e-5 {
					t.Fatalf("%s: ttt values\n%s\nat %v, the documented reader at %v", g.Name(), g.Format(q), a, b)
				}
			}
			if a, b := player.Move(q), d.move(q); a != b {
				t.Fatalf("%s: in\n%s\nttt plays %d, the documented reader %d", g.Name(), g.Format(q), a, b)
			}
		}
	}
}

// move is the documented move in pos: a win by the rules first, else the
// lowest of the moves worth within 1e-5 of the most.
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
