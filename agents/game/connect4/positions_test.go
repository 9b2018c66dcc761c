package connect4_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
)

var update = flag.Bool("update", false, "make positions.txt anew (about an hour on two cores)")

// The position set's rules (see positions.txt): 1,000 positions of 8 to
// 30 stones, none won at once by the side to move, each with a move of
// another value than the best; and its labels are the solver's, checked
// again here on the positions late enough to solve in microseconds. With
// -update it makes the set anew.
func TestPositionSet(t *testing.T) {
	set := connect4.PositionSet()
	if *update {
		var err error
		if set, err = connect4.ParsePositions(makePositionSet(t)); err != nil {
			t.Fatal(err)
		}
	}
	if len(set) != setSize {
		t.Fatalf("%d positions, want %d", len(set), setSize)
	}
	s := connect4.NewSolver(20)
	seen := map[game.Position]bool{}
	for i, p := range set {
		b := connect4.FromPosition(p.Position)
		switch {
		case seen[p.Position]:
			t.Fatalf("position %d is listed twice", i)
		case p.Plies < minStones || p.Plies > maxStones:
			t.Fatalf("position %d has %d stones", i, p.Plies)
		case b.WinningMoves() != 0:
			t.Fatalf("position %d is won at once", i)
		}
		seen[p.Position] = true
		differs := false
		for _, v := range p.Values {
			differs = differs || v != p.Best()
		}
		if !differs {
			t.Fatalf("position %d: every move has the same value", i)
		}
		if p.Plies >= 24 {
			scores, err := s.Analyze(context.Background(), b, true)
			if err != nil {
				t.Fatal(err)
			}
			for col, v := range p.Values {
				if game.Value(scores[col]) != v {
					t.Fatalf("position %d, column %d: labelled %v, the solver says %v", i, col+1, v, game.Value(scores[col]))
				}
			}
		}
	}
}

// The set's size and range of stones.
const (
	setSize   = 1000
	minStones = 8
	maxStones = 30
)

// makePositionSet writes positions.txt: positions reached in games
// between two of the tactician, MCTS with 100 and MCTS with 1,000
// playouts (drawn at random for each game, seeded), as many of each
// number of stones from minStones to maxStones, each labelled by the
// solver's weak analysis.
func makePositionSet(t *testing.T) string {
	start := time.Now()
	rng := rand.New(rand.NewPCG(2026, 11))
	kit := agents.ConnectFour
	var ladder []agents.Builtin
	for _, name := range []string{"tactician", "mcts-100", "mcts-1000"} {
		b, ok := kit.Builtin(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		ladder = append(ladder, b)
	}
	counts := maxStones - minStones + 1
	want := make([]int, counts) // positions still wanted, by stones - minStones
	for i := range want {
		want[i] = setSize / counts
		if i < setSize%counts {
			want[i]++
		}
	}
	s := connect4.NewSolver(24)
	seen := map[connect4.Board]bool{} // positions reached by other move orders too
	var lines []string
	for len(lines) < setSize {
		var open []int
		for i, n := range want {
			if n > 0 {
				open = append(open, i)
			}
		}
		target := minStones + open[rng.IntN(len(open))]
		x, o := ladder[rng.IntN(len(ladder))].New(rng), ladder[rng.IntN(len(ladder))].New(rng)
		var b connect4.Board
		moves := ""
		for b.Plies() < target && !b.LastMoverWon() && !b.Full() {
			mover := x
			if b.Plies()%2 == 1 {
				mover = o
			}
			col := mover.Move(b.Position())
			b, moves = b.Play(col), moves+fmt.Sprint(col+1)
		}
		if b.Plies() != target || b.LastMoverWon() || b.WinningMoves() != 0 || seen[b] {
			continue
		}
		scores, err := s.Analyze(context.Background(), b, true)
		if err != nil {
			t.Fatal(err)
		}
		p := game.Solved{Position: b.Position(), Plies: b.Plies(), Values: map[int]game.Value{}}
		for col, sc := range scores {
			p.Values[col] = game.Value(sc)
		}
		differs := false
		for _, v := range p.Values {
			differs = differs || v != p.Best()
		}
		if !differs {
			continue
		}
		seen[b] = true
		want[target-minStones]--
		lines = append(lines, formatSolved(moves, p))
		if len(lines)%50 == 0 {
			t.Logf("%d positions in %v", len(lines), time.Since(start).Round(time.Second))
		}
	}
	header := fmt.Sprintf(`# Connect Four: %d solved positions of %d to %d stones, reached in games
# between the tactician and MCTS with 100 and 1,000 playouts, none won at
# once by the side to move, each with a move of another value. A line:
# the moves from the empty board (columns 1-7), then for columns 1 to 7
# the value of playing there for the side to move: W win, D draw, L loss,
# - full. Made by
#   go test ./agents/game/connect4 -run TestPositionSet -update
`, setSize, minStones, maxStones)
	text := header + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile("positions.txt", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions in %v", len(lines), time.Since(start).Round(time.Second))
	return text
}

// formatSolved writes a position reached by moves (columns 1-7), with
// its values, as a line of positions.txt.
func formatSolved(moves string, s game.Solved) string {
	var v [connect4.Width]byte
	for col := range connect4.Width {
		v[col] = '-'
		if val, ok := s.Values[col]; ok {
			v[col] = "LDW"[val+1]
		}
	}
	return moves + " " + string(v[:])
}
