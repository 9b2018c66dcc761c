package league

import (
	"math/rand/v2"

	"ttt/agents"
	"ttt/agents/game"
)

// Openings returns every opening of the given number of plies, as the
// squares played, in order (squares tried 0..8 at each ply): one empty
// opening for 0 plies, 9 for 1, 72 for 2. Greedy agents are
// deterministic, so without openings two of them would play one game over
// and over; a fixed set of openings in both colours makes their match
// say something, the same way for every pair.
func Openings(plies int) [][]int { return openings[plies] }

// MaxPlies bounds the opening sets: three plies would already be 504
// openings, and a lost position for one side among many of them.
const MaxPlies = 2

var openings = func() (sets [MaxPlies + 1][][]int) {
	for plies := range sets {
		sets[plies] = makeOpenings(plies)
	}
	return sets
}()

func makeOpenings(plies int) [][]int {
	list := [][]int{nil}
	for range plies {
		var next [][]int
		for _, o := range list {
			for sq := range 9 {
				if !containsSquare(o, sq) {
					next = append(next, append(append([]int(nil), o...), sq))
				}
			}
		}
		list = next
	}
	return list
}

func containsSquare(moves []int, sq int) bool {
	for _, m := range moves {
		if m == sq {
			return true
		}
	}
	return false
}

// Member is a pool member as evaluation sees it: a deterministic player
// (a move table), or the random player when Table is nil.
type Member struct {
	ID    int64
	Table *agents.Table
}

// Game is one game of a match, as played: the X and O agents, the
// squares in order (the opening included), the number of opening plies,
// and the result.
type Game struct {
	X, O    int64
	Moves   []int
	Opening int
	Result  game.Result
}

// playMatch plays a against b over every opening of plies moves, each once
// with a as X and once as O, in that order. Games with the random player
// draw from a generator seeded with (seed, game number), so every game can
// be replayed on its own. It returns a's record, and hands each game to
// record when record is not nil.
func playMatch(a, b Member, plies int, seed uint64, record func(Game)) (wins, draws, losses int) {
	for i, opening := range Openings(plies) {
		for colour := range 2 {
			x, o := a, b
			if colour == 1 {
				x, o = b, a
			}
			var rng *rand.Rand
			if a.Table == nil || b.Table == nil {
				rng = rand.New(rand.NewPCG(seed, uint64(2*i+colour)))
			}
			var board game.Board
			var buf [9]int
			moves := buf[:0]
			for _, sq := range opening {
				board = board.Play(sq)
				moves = append(moves, sq)
			}
			for board.Result() == game.Ongoing {
				p := x
				if board.ToMove() == game.O {
					p = o
				}
				var sq int
				if p.Table == nil {
					sq = agents.RandomMove(board, rng)
				} else {
					sq = p.Table.Move(board)
				}
				board = board.Play(sq)
				moves = append(moves, sq)
			}
			res := board.Result()
			aSide := game.Side(colour)
			switch res {
			case game.Tie:
				draws++
			case game.Win(aSide):
				wins++
			default:
				losses++
			}
			if record != nil {
				record(Game{X: x.ID, O: o.ID, Moves: moves, Opening: len(opening), Result: res})
			}
		}
	}
	return wins, draws, losses
}
