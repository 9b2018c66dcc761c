package nn_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
)

func TestWeightFileRoundTrip(t *testing.T) {
	for _, hidden := range []int{1, 25, 100} {
		n := newNet(hidden, uint64(hidden))
		data := n.Bytes()
		if got, want := len(data), 4*(19*hidden+10*hidden+9); got != want {
			t.Fatalf("hidden %d: %d bytes, want %d", hidden, got, want)
		}
		back, err := nn.Parse(tictactoe.Game, data, nn.Shape{Inputs: 0})
		if err != nil {
			t.Fatalf("hidden %d: %v", hidden, err)
		}
		if back.Hidden != hidden || !bytes.Equal(back.Bytes(), data) {
			t.Errorf("hidden %d: round trip changed the weights", hidden)
		}
	}
}

// The layout is ttt-rl's: WIH row by row, then WHO, BH, BO.
func TestWeightFileLayout(t *testing.T) {
	n := newNet(3, 7)
	data := n.Bytes()
	at := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:])) }
	H := 3
	if at(2*H+1) != n.WIH[2*H+1] || at(19*H+2*9+4) != n.WHO[2*9+4] ||
		at(19*H+9*H+1) != n.BH[1] || at(19*H+10*H+8) != n.BO[8] {
		t.Error("values are not where the layout puts them")
	}
}

func TestFoldedFile(t *testing.T) {
	n := newNet(100, 11)
	for _, side := range []game.Side{game.X, game.O} {
		data := n.FoldedBytes(side)
		if got, want := len(data), 11236; got != want {
			t.Fatalf("%s: folded file has %d bytes, want %d (ttt-rl's size)", side, got, want)
		}
		folded, err := nn.Parse(tictactoe.Game, data, nn.Shape{Inputs: 0})
		if err != nil {
			t.Fatal(err)
		}
		// Every position where side is to move: the same move, and the
		// same probabilities to the bit.
		var p, q nn.Pass
		checked := 0
		for _, b := range tictactoe.Solve().Positions() {
			if b.Result() != game.Ongoing || b.ToMove() != side {
				continue
			}
			n.Forward(b.Position(), &p)
			folded.Forward(b.Position(), &q)
			if !slices.Equal(p.Probs, q.Probs) || n.Greedy(b.Position(), &p) != folded.Greedy(b.Position(), &q) {
				t.Fatalf("%s: folded net differs on\n%s", side, b)
			}
			checked++
		}
		if want := map[game.Side]int{game.X: 2423, game.O: 2097}[side]; checked != want {
			t.Errorf("%s: checked %d positions, want %d", side, checked, want)
		}
	}
}

func TestParseRefusesBadFiles(t *testing.T) {
	good := newNet(100, 1).Bytes()
	nan := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(nan[40:], math.Float32bits(float32(math.NaN())))
	inf := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(inf[len(inf)-4:], math.Float32bits(float32(math.Inf(-1))))
	// 4*(18H+10H+9) == 4*(19H'+10H'+9) when 28H == 29H': H=29, H'=28.
	ambiguous := make([]byte, 4*(28*29+9))

	for _, tt := range []struct {
		name   string
		data   []byte
		inputs int
	}{
		{"empty", nil, 0},
		{"truncated", good[:len(good)-4], 0},
		{"not whole floats", good[:len(good)-1], 0},
		{"one extra float", append(append([]byte(nil), good...), 0, 0, 0, 0), 0},
		{"NaN", nan, 0},
		{"Inf", inf, 0},
		{"ambiguous size", ambiguous, 0},
		{"19-input file said to be 18", good, 18},
		{"inputs 20", good, 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := nn.Parse(tictactoe.Game, tt.data, nn.Shape{Inputs: tt.inputs}); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := nn.Parse(tictactoe.Game, ambiguous, nn.Shape{Inputs: 0}); !errors.Is(err, nn.ErrAmbiguous) {
		t.Errorf("ambiguous size: %v, want ErrAmbiguous", err)
	}
	// The same size fits a value net of 18 inputs and 41 hidden units:
	// without a word, it is the policy net.
	for _, in := range []int{18, 19} {
		if n, err := nn.Parse(tictactoe.Game, ambiguous, nn.Shape{Inputs: in}); err != nil || n.IsValue() {
			t.Errorf("ambiguous size with inputs %d: %v", in, err)
		}
	}
	if n, err := nn.Parse(tictactoe.Game, ambiguous, nn.Shape{Inputs: 18, Outputs: 1}); err != nil || !n.IsValue() || n.Hidden != 41 {
		t.Errorf("read as a value net: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(newNet(2, 1).Bytes(), 0)
	f.Add(newNet(3, 1).FoldedBytes(game.O), 18)
	f.Add([]byte{1, 2, 3}, 19)
	f.Fuzz(func(t *testing.T, data []byte, inputs int) {
		n, err := nn.Parse(tictactoe.Game, data, nn.Shape{Inputs: inputs})
		if err != nil {
			return
		}
		// Whatever parses must play legal moves and write back to a file
		// that parses to the same net.
		b := tictactoe.Board{}.Play(4)
		var p nn.Pass
		n.Forward(b.Position(), &p)
		if sq := n.Greedy(b.Position(), &p); !b.IsEmpty(sq) {
			t.Fatalf("illegal move %d", sq)
		}
		for _, v := range p.Probs {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("probabilities %v", p.Probs)
			}
		}
		again, err := nn.Parse(tictactoe.Game, n.Bytes(), nn.Shape{Inputs: 19})
		if err != nil || !bytes.Equal(again.Bytes(), n.Bytes()) {
			t.Fatalf("re-parse: %v", err)
		}
	})
}

// filled returns a net of the given size with every weight and bias v.
func filled(hidden int, v float32) *nn.Net {
	n := newNet(hidden, 1)
	for _, p := range [][]float32{n.WIH, n.WHO, n.BH, n.BO} {
		for i := range p {
			p[i] = v
		}
	}
	return n
}

// finiteEverywhere reports the first reachable position where n computes
// a logit or a probability that is not a finite number.
func finiteEverywhere(n *nn.Net) (tictactoe.Board, bool) {
	var p nn.Pass
	for _, b := range tictactoe.Solve().Positions() {
		if b.Result() != game.Ongoing {
			continue
		}
		n.Forward(b.Position(), &p)
		for k := range p.Probs {
			for _, v := range []float32{p.Logits[k], p.Probs[k]} {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return b, false
				}
			}
		}
	}
	return tictactoe.Board{}, true
}

// Weights of 3e38 are finite, but the first sum of a forward pass
// overflows and every move shows NaN%: Parse must refuse them.
func TestParseRefusesOverflowingWeights(t *testing.T) {
	huge := filled(100, 3e38)
	if _, ok := finiteEverywhere(huge); ok {
		t.Fatal("the test net does not overflow")
	}
	_, err := nn.Parse(tictactoe.Game, huge.Bytes(), nn.Shape{})
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("all weights 3e38: %v, want a refusal", err)
	}
	// Large output weights alone: each hidden unit is small, the logits
	// are not.
	n := newNet(100, 2)
	for i := range n.WHO {
		n.WHO[i] = 1e36
	}
	if _, err := nn.Parse(tictactoe.Game, n.Bytes(), nn.Shape{}); err == nil {
		t.Error("output weights 1e36: accepted")
	}
}

// Whatever Validate lets through plays finite probabilities in every
// reachable position, even at the edge of the limit; just past the edge
// it is refused.
func TestValidateBoundsTheForwardPass(t *testing.T) {
	for _, hidden := range []int{1, 7, 100} {
		// With every value v, a hidden unit sums at most 20v (bias and 19
		// inputs) and a logit v + hidden*20v*v: at the limit L,
		// v = (sqrt(1 + 80*hidden*L) - 1) / (40*hidden).
		h := float64(hidden)
		v := float32((math.Sqrt(1+80*h*nn.MaxActivation) - 1) / (40 * h))
		for _, tt := range []struct {
			scale float32
			ok    bool
		}{{0.999, true}, {1.001, false}} {
			n := filled(hidden, v*tt.scale)
			err := n.Validate()
			if (err == nil) != tt.ok {
				t.Errorf("hidden %d, weights %g: Validate says %v", hidden, v*tt.scale, err)
			}
			if err == nil {
				if b, ok := finiteEverywhere(n); !ok {
					t.Errorf("hidden %d, weights %g: valid but not finite on\n%s", hidden, v*tt.scale, b)
				}
			}
		}
		// Negative weights as large: the bound is on magnitudes.
		if err := filled(hidden, -v*1.001).Validate(); err == nil {
			t.Errorf("hidden %d, weights %g: accepted", hidden, -v*1.001)
		}
	}
	if err := newNet(100, 3).Validate(); err != nil {
		t.Errorf("a fresh net: %v", err)
	}
}
