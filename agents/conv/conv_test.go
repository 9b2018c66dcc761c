package conv

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"ttt/agents/expert"
	"ttt/agents/expert/experttest"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/learn"
)

// small is a network quick enough for tests to train.
var small = Shape{Layers: 2, Channels: 8, HeadChannels: 2, Hidden: 16}

// kind is the convolutional network as the tests of every taught
// network see it, with the small network.
var kind = experttest.Kind{
	New: func(t testing.TB, g game.Game, seed uint64) *expert.Expert {
		rng := rand.New(rand.NewPCG(seed, 1))
		n, err := New(g, small, rng)
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
	experttest.LearnsTheTeachersValues(t, kind, 3000, 0.8)
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
