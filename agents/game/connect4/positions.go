package connect4

import (
	"bufio"
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"ttt/agents/game"
)

// positions.txt is the fixed set of solved positions that measures how
// well a Connect Four player plays (ttt verify, and every checkpoint of a
// league): a thousand positions of 8 to 30 stones, reached in games
// between the tactician and MCTS players, in none of which the side to
// move wins at once, each with a move that changes its value. A line is
// the moves from the empty board (columns 1-7) and, for columns 1 to 7,
// the value of playing there for the side to move: W, D, L, or - where
// the column is full. It was made, as its first lines say, by
//
//	go test ./agents/game/connect4 -run TestPositionSet -update
//
//go:embed positions.txt
var positionsFile string

// PositionSet returns the set, read once.
var PositionSet = sync.OnceValue(func() []game.Solved {
	set, err := ParsePositions(positionsFile)
	if err != nil {
		panic("connect4: positions.txt: " + err.Error()) // the file is built in
	}
	return set
})

// ParsePositions reads a position set in the format of positions.txt.
func ParsePositions(text string) ([]game.Solved, error) {
	var set []game.Solved
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		moves, values, ok := strings.Cut(line, " ")
		if !ok || len(values) != Width {
			return nil, fmt.Errorf("line %d: want MOVES and %d values", n, Width)
		}
		b, err := Parse(moves)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		s := game.Solved{Position: b.Position(), Plies: b.Plies(), Values: map[int]game.Value{}}
		for col, v := range values {
			legal := b.CanPlay(col)
			switch {
			case v == '-' && !legal:
			case v == 'W' && legal:
				s.Values[col] = game.Won
			case v == 'D' && legal:
				s.Values[col] = game.Draw
			case v == 'L' && legal:
				s.Values[col] = game.Loss
			default:
				return nil, fmt.Errorf("line %d: column %d is %q", n, col+1, v)
			}
		}
		set = append(set, s)
	}
	return set, sc.Err()
}
