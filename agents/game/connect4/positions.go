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

// random.txt is the second set, of positions reached by uniformly random
// moves under the same rules: positions that no good player's games
// shape, where a player must still win when it can and block what it
// must. It is the harder of the two for a learner, and measures how far
// what it learned reaches. It was made by
//
//	go test ./agents/game/connect4 -run TestRandomSet -update
//
//go:embed random.txt
var randomFile string

// PositionSet returns the tactical set, read once; RandomSet the random
// set.
var (
	PositionSet = sync.OnceValue(func() []game.Solved { return mustParse("positions.txt", positionsFile) })
	RandomSet   = sync.OnceValue(func() []game.Solved { return mustParse("random.txt", randomFile) })
)

// mustParse parses a built-in set.
func mustParse(name, text string) []game.Solved {
	set, err := ParsePositions(text)
	if err != nil {
		panic("connect4: " + name + ": " + err.Error()) // the file is built in
	}
	return set
}

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
		s := game.Solved{Position: b.Position(), Plies: b.Plies()}
		if s.Values, err = game.ParseValues(Game, s.Position, values); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		set = append(set, s)
	}
	return set, sc.Err()
}
