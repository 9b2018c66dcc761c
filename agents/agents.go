// Package agents holds the players of tic-tac-toe: the uniformly random
// baseline, the perfect player, and move tables, the form every
// deterministic player (a frozen network included) takes for fast play.
//
// The rules and the solved game live in the sub-package game; networks
// and their learning rule in nn; the exhaustive check in verify.
package agents

import (
	"math/bits"
	"math/rand/v2"
	"sync"

	"ttt/agents/game"
)

// Player chooses a move for the side to move on a board whose game is not
// over. The move must be an empty square.
type Player interface {
	Move(b game.Board) int
}

// Random plays a uniformly random legal move. It is the league's rating
// anchor (Elo 0). It is not safe for concurrent use: give each game its
// own, seeded per game, so that results do not depend on scheduling.
type Random struct {
	Rand *rand.Rand
}

// Move implements Player.
func (r Random) Move(b game.Board) int { return RandomMove(b, r.Rand) }

// RandomMove returns a uniformly random empty square of b.
func RandomMove(b game.Board, rng *rand.Rand) int {
	empty := uint32(b.Empty())
	for k := rng.IntN(bits.OnesCount32(empty)); k > 0; k-- {
		empty &= empty - 1 // drop the lowest empty square
	}
	return bits.TrailingZeros32(empty)
}

// Table is a deterministic player written out as its move in every
// position, indexed by game.Board.Index. A game between two tables costs
// a look-up per move, and a table is safe for concurrent use.
type Table [game.NumIndices]int8

// Move implements Player.
func (t *Table) Move(b game.Board) int { return int(t[b.Index()]) }

// NewTable records move's choice in every reachable position where a move
// is due (4,520 of them). Unreachable entries stay -1.
func NewTable(move func(game.Board) int) *Table {
	t := new(Table)
	for i := range t {
		t[i] = -1
	}
	for _, b := range game.Solve().Positions() {
		if b.Result() == game.Ongoing {
			t[b.Index()] = int8(move(b))
		}
	}
	return t
}

// Perfect returns the perfect player: in every position it plays a move
// of the best game-theoretic value, preferring the quickest win and the
// slowest loss (so a human facing it sees it finish a won game), and the
// lowest square among equals. It is built once and shared.
var Perfect = sync.OnceValue(func() *Table {
	s := game.Solve()
	return NewTable(func(b game.Board) int {
		best, bestScore := -1, -100
		for m := b.Empty(); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			if sc := s.Score(b.Play(sq)); -sc > bestScore {
				best, bestScore = sq, -sc
			}
		}
		return best
	})
})

// Play plays the game on from b, x moving for X and o for O, and returns
// how it ended.
func Play(b game.Board, x, o Player) game.Result {
	players := [2]Player{x, o}
	for b.Result() == game.Ongoing {
		b = b.Play(players[b.ToMove()].Move(b))
	}
	return b.Result()
}
