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
	moves []int8 // Table on the positions where a move is due (compiled)
}

// compiled returns m with its moves filled in from its table. A league
// compiles each member once; playMatch compiles the ones that come
// without.
func (m Member) compiled() Member {
	if m.Table != nil && m.moves == nil {
		m.moves = make([]int8, positions.due)
		for p := range m.moves {
			m.moves[p] = int8(m.Table.Move(positions.boards[p]))
		}
	}
	return m
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
	a, b = a.compiled(), b.compiled()
	var pcg rand.PCG
	rng := rand.New(&pcg)
	for i, start := range positions.openings[plies] {
		for colour := range 2 {
			x, o := a, b
			if colour == 1 {
				x, o = b, a
			}
			// The generator rand.NewPCG(seed, game) would be, without
			// allocating one per game; only games with random draw from it.
			pcg.Seed(seed, uint64(2*i+colour))
			var moves []int
			if record != nil {
				moves = append(make([]int, 0, 9), openings[plies][i]...)
			}
			res, moves := playGame(start, x.moves, o.moves, rng, moves)
			switch res {
			case game.Tie:
				draws++
			case game.Win(game.Side(colour)):
				wins++
			default:
				losses++
			}
			if record != nil {
				record(Game{X: x.ID, O: o.ID, Moves: moves, Opening: plies, Result: res})
			}
		}
	}
	return wins, draws, losses
}

// playGame plays on from position p, where a move is due, x moving for X
// and o for O (nil: the random player, drawing from rng), and returns how
// the game ended. When moves is not nil, it returns moves with the squares
// played added.
//
// It is the inner loop of a league's evaluation, some ten million moves a
// second, so a move between compiled members is two look-ups: the
// mover's square in p, and the position that square leads to.
func playGame(p int, x, o []int8, rng *rand.Rand, moves []int) (game.Result, []int) {
	players := [2][]int8{x, o}
	due, next := positions.due, positions.next
	for side := positions.boards[p].ToMove(); p < due; side = 1 - side {
		var sq int
		if t := players[side]; t != nil {
			sq = int(t[p])
		} else {
			sq = agents.RandomMove(positions.boards[p], rng)
		}
		if moves != nil {
			moves = append(moves, sq)
		}
		p = int(next[p][sq])
	}
	return positions.results[p-due], moves
}

// positions numbers every position a game can reach, so that a game is a
// walk from number to number: first the 4,520 where a move is due, the
// only ones a move table needs (a compiled table is 4.5 KB, not the 19.7
// KB of a Table, and the tables of a large pool stay in cache), then the
// finished ones.
var positions = func() (g struct {
	due      int                 // the positions where a move is due are 0..due-1
	boards   []game.Board        // by number
	next     [][9]uint16         // by number below due: where each empty square leads
	results  []game.Result       // by number from due on: how the game ended
	openings [MaxPlies + 1][]int // the position after each of Openings(plies)
}) {
	var number [game.NumIndices]int // by Board.Index
	all := game.Solve().Positions()
	for _, finished := range []bool{false, true} {
		for _, b := range all {
			if (b.Result() != game.Ongoing) == finished {
				number[b.Index()] = len(g.boards)
				g.boards = append(g.boards, b)
			}
		}
		if !finished {
			g.due = len(g.boards)
		}
	}
	for _, b := range g.boards[g.due:] {
		g.results = append(g.results, b.Result())
	}
	g.next = make([][9]uint16, g.due)
	for p, b := range g.boards[:g.due] {
		for sq := range 9 {
			if b.IsEmpty(sq) {
				g.next[p][sq] = uint16(number[b.Play(sq).Index()])
			}
		}
	}
	for plies, list := range openings {
		for _, opening := range list {
			var b game.Board
			for _, sq := range opening {
				b = b.Play(sq)
			}
			g.openings[plies] = append(g.openings[plies], number[b.Index()])
		}
	}
	return g
}()
