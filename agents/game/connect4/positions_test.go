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

var update = flag.Bool("update", false, "make positions.txt or random.txt anew (about an hour each on two cores)")

// The rules of the position sets (see positions.txt and random.txt):
// 1,000 positions of 8 to 30 stones, none won at once by the side to
// move, each with a move of another value than the best; and their labels
// are the solver's, checked again here on the positions late enough to
// solve in microseconds. With -update it makes a set anew.
func TestPositionSet(t *testing.T) {
	checkSet(t, connect4.PositionSet(), func() string { return makePositionSet(t, tacticalGames(), "positions.txt", tacticalHeader) })
}

func TestRandomSet(t *testing.T) {
	checkSet(t, connect4.RandomSet(), func() string { return makePositionSet(t, randomGames, "random.txt", randomHeader) })
	// Random moves reach other positions than the tactical set's games.
	tactical := map[game.Position]bool{}
	for _, p := range connect4.PositionSet() {
		tactical[p.Position] = true
	}
	shared := 0
	for _, p := range connect4.RandomSet() {
		if tactical[p.Position] {
			shared++
		}
	}
	if shared > setSize/20 {
		t.Errorf("%d positions of the random set are in the tactical set", shared)
	}
}

// checkSet checks the rules of set, made anew by make with -update.
func checkSet(t *testing.T, set []game.Solved, make func() string) {
	if *update {
		var err error
		if set, err = connect4.ParsePositions(make()); err != nil {
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

// games returns the players of a game that reaches a position of a set:
// X's and O's, drawn on rng.
type games func(rng *rand.Rand) (x, o game.Player)

// tacticalGames are games between two of the tactician, MCTS with 100
// and MCTS with 1,000 playouts, drawn at random for each game.
func tacticalGames() games {
	kit := agents.ConnectFour
	var ladder []agents.Builtin
	for _, name := range []string{"tactician", "mcts-100", "mcts-1000"} {
		b, _ := kit.Builtin(name)
		ladder = append(ladder, b)
	}
	return func(rng *rand.Rand) (game.Player, game.Player) {
		return ladder[rng.IntN(len(ladder))].New(rng), ladder[rng.IntN(len(ladder))].New(rng)
	}
}

// randomGames are games of uniformly random moves.
func randomGames(rng *rand.Rand) (game.Player, game.Player) {
	r := game.Random{Game: connect4.Game, Rand: rng}
	return r, r
}

// The headers of the sets.
const (
	tacticalHeader = `# Connect Four: %d solved positions of %d to %d stones, reached in games
# between the tactician and MCTS with 100 and 1,000 playouts, none won at
# once by the side to move, each with a move of another value. A line:
# the moves from the empty board (columns 1-7), then for columns 1 to 7
# the value of playing there for the side to move: W win, D draw, L loss,
# - full. Made by
#   go test ./agents/game/connect4 -run TestPositionSet -update
`
	randomHeader = `# Connect Four: %d solved positions of %d to %d stones, reached by
# uniformly random moves, none won at once by the side to move, each with
# a move of another value. A line: the moves from the empty board
# (columns 1-7), then for columns 1 to 7 the value of playing there for
# the side to move: W win, D draw, L loss, - full. Made by
#   go test ./agents/game/connect4 -run TestRandomSet -update
`
)

// makePositionSet writes file: positions reached in games that play
// draws (seeded), as many of each number of stones from minStones to
// maxStones, each labelled by the solver's weak analysis, under header.
func makePositionSet(t *testing.T, play games, file, header string) string {
	start := time.Now()
	rng := rand.New(rand.NewPCG(2026, 11))
	if file != "positions.txt" {
		rng = rand.New(rand.NewPCG(2026, 12))
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
		x, o := play(rng)
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
	text := fmt.Sprintf(header, setSize, minStones, maxStones) + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
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
