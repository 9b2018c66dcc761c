package lines

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"ttt/agents/expert"
	"ttt/agents/expert/experttest"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
)

// kind is the lines network as the tests of every taught network see
// it, with a network small enough for tests to train.
var kind = experttest.Kind{
	New: func(t testing.TB, g game.Game, seed uint64) *expert.Expert {
		rng := rand.New(rand.NewPCG(seed, 1))
		n, err := New(g, Shape{Features: 8, Hidden: 8}, rng)
		if err != nil {
			t.Fatal(err)
		}
		return expert.NewExpert(n, 2, 4, 2000, 0.003, rng)
	},
	ReadFile: ReadFile,
	Decode:   func(g game.Game, b []byte) (expert.Net, error) { return decodeNet(g, b) },
}

func TestFileReadsBack(t *testing.T)         { experttest.FileReadsBack(t, kind) }
func TestResumeLearnsOnTheSame(t *testing.T) { experttest.ResumeLearnsOnTheSame(t, kind) }
func TestLearnsTheTeachersValues(t *testing.T) {
	experttest.LearnsTheTeachersValues(t, kind, 3000, 0.9)
}

// TestFileAsDocumented: a reader of docs/files.md alone, adding up in
// float64, values positions as ttt does and plays the same moves.
func TestFileAsDocumented(t *testing.T) {
	experttest.PlaysAsDocumented(t, kind, func(t *testing.T, g game.Game, file []byte) func(game.Position, game.Side) float64 {
		return readDocumented(t, g, file).value
	}, func(n learn.Model, pos game.Position, mover game.Side) float64 {
		var p Pass
		return float64(n.(*Net).Value(pos, mover, &p))
	})
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
		pos, movers := experttest.Positions(g, 6, rng)
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
