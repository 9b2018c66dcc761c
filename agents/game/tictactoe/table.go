package tictactoe

import (
	"math/bits"
	"sync"

	"ttt/agents/game"
)

// Table is a deterministic player written out as its move in every
// position, indexed by Board.Index. A game between two tables costs a
// look-up per move, and a table is safe for concurrent use.
type Table [NumIndices]int8

// Move implements game.Player.
func (t *Table) Move(p game.Position) int { return int(t[FromPosition(p).Index()]) }

// NewTable records p's choice in every reachable position where a move is
// due (4,520 of them). Unreachable entries stay -1.
func NewTable(p game.Player) *Table {
	t := new(Table)
	for i := range t {
		t[i] = -1
	}
	for _, b := range Solve().Positions() {
		if b.Result() == game.Ongoing {
			t[b.Index()] = int8(p.Move(b.Position()))
		}
	}
	return t
}

// Perfect returns the perfect player: in every position it plays a move
// of the best game-theoretic value, preferring the quickest win and the
// slowest loss (so a human facing it sees it finish a won game), and the
// lowest square among equals. It is built once and shared.
var Perfect = sync.OnceValue(func() *Table {
	s := Solve()
	return NewTable(game.PlayerFunc(func(p game.Position) int {
		b := FromPosition(p)
		best, bestScore := -1, -100
		for m := b.Empty(); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			if sc := s.Score(b.Play(sq)); -sc > bestScore {
				best, bestScore = sq, -sc
			}
		}
		return best
	}))
})
