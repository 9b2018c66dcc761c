package league

import (
	"math/rand/v2"
	"slices"

	"ttt/agents"
	"ttt/agents/game"
)

// MaxPlies bounds the opening sets: three plies would already be 504
// openings, and a lost position for one side among many of them.
const MaxPlies = 2

// openings returns every opening of the given number of plies, as the
// squares played, in order (squares tried 0..8 at each ply): one empty
// opening for 0 plies, 9 for 1, 72 for 2. Greedy agents are
// deterministic, so without openings two of them would play one game over
// and over; a fixed set of openings in both colours makes their match
// say something, the same way for every pair.
var openings = func() (sets [MaxPlies + 1][][]int) {
	sets[0] = [][]int{nil}
	for plies := 1; plies <= MaxPlies; plies++ {
		for _, o := range sets[plies-1] {
			for sq := range 9 {
				if !slices.Contains(o, sq) {
					sets[plies] = append(sets[plies], append(append([]int(nil), o...), sq))
				}
			}
		}
	}
	return sets
}()

// player is a deterministic player as evaluation sees it: the square it
// plays in each position where a move is due, by position number (see
// positions), 4,520 bytes. A league keeps the players of its pool in
// this form, and stores it with every network. The random player is nil.
type player []byte

// compile returns the player that t describes.
func compile(t *agents.Table) player {
	p := make(player, positions.due)
	for n := range p {
		p[n] = byte(t.Move(positions.boards[n]))
	}
	return p
}

// valid reports whether p is a player: a legal move in every position.
// A table read back from the database must be, or play would go astray.
func (p player) valid() bool {
	if len(p) != positions.due {
		return false
	}
	for n, sq := range p {
		if sq > 8 || !positions.boards[n].IsEmpty(int(sq)) {
			return false
		}
	}
	return true
}

// Move implements agents.Player: p's square on board b, which must be a
// position where a move is due.
func (p player) Move(b game.Board) int { return int(p[positions.number[b.Index()]]) }

// playMatch plays a against b over every opening of plies moves, each once
// with a as X and once as O, in that order. Games with the random player
// (nil) draw from a generator seeded with (seed, game number), so every
// game can be replayed on its own. It returns a's record, and hands each
// game to record when record is not nil: its squares in order, the
// opening included, whether a played X, and how it ended.
func playMatch(a, b player, plies int, seed uint64, record func(moves []int, aIsX bool, r game.Result)) game.Record {
	var pcg rand.PCG
	rng := rand.New(&pcg)
	var rec game.Record
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
			res, moves := playGame(start, x, o, rng, moves)
			rec.Add(res, game.Side(colour))
			if record != nil {
				record(moves, colour == 0, res)
			}
		}
	}
	return rec
}

// playGame plays on from position p, where a move is due, x moving for X
// and o for O (nil: the random player, drawing from rng), and returns how
// the game ended. When moves is not nil, it returns moves with the
// squares played added.
//
// It is the inner loop of a league's evaluation, some ten million moves a
// second, so a move between compiled players is two look-ups: the
// mover's square in p, and the position that square leads to.
func playGame(p int, x, o player, rng *rand.Rand, moves []int) (game.Result, []int) {
	players := [2]player{x, o}
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
// walk from number to number: first the 4,520 where a move is due, in the
// order of game.Solve().Positions() (a depth-first walk from the empty
// board, squares tried 0..8), the only ones a player needs, then the
// finished ones. The numbering is part of the database's format: stored
// move tables list a network's squares in this order.
var positions = func() (g struct {
	due      int                     // the positions where a move is due are 0..due-1
	boards   []game.Board            // by number
	number   [game.NumIndices]uint16 // by Board.Index
	next     [][9]uint16             // by number below due: where each empty square leads
	results  []game.Result           // by number from due on: how the game ended
	openings [MaxPlies + 1][]int     // the position after each of openings[plies]
}) {
	all := game.Solve().Positions()
	for _, finished := range []bool{false, true} {
		for _, b := range all {
			if (b.Result() != game.Ongoing) == finished {
				g.number[b.Index()] = uint16(len(g.boards))
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
				g.next[p][sq] = g.number[b.Play(sq).Index()]
			}
		}
	}
	for plies, list := range openings {
		for _, opening := range list {
			var b game.Board
			for _, sq := range opening {
				b = b.Play(sq)
			}
			g.openings[plies] = append(g.openings[plies], int(g.number[b.Index()]))
		}
	}
	return g
}()
