package tictactoe

import (
	"errors"

	"ttt/agents/game"
)

// A compiled player is a deterministic player as a league keeps it: the
// square it plays in each position where a move is due, one byte each, by
// position number (see positions): 4,520 bytes. A league stores one with
// every network, plays it in the network's place, and a game between two
// of them is a look-up per move.
type compiled []byte

// Compile writes p out as a compiled player.
func Compile(p game.Player) []byte {
	c := make([]byte, positions.due)
	for n := range c {
		c[n] = byte(p.Move(positions.boards[n].Position()))
	}
	return c
}

// Compiled returns the player that the table c describes, if it is one: a
// legal move in every position. A table read back from a database must
// be, or play would go astray.
func Compiled(c []byte) (game.Player, error) {
	if len(c) != positions.due {
		return nil, errors.New("not a move table of tic-tac-toe: its length is wrong")
	}
	for n, sq := range c {
		if sq > 8 || !positions.boards[n].IsEmpty(int(sq)) {
			return nil, errors.New("not a move table of tic-tac-toe: it plays a taken square")
		}
	}
	return compiled(c), nil
}

// Move implements game.Player.
func (c compiled) Move(p game.Position) int {
	return int(c[positions.number[FromPosition(p).Index()]])
}

// positions numbers the positions where a move is due: the 4,520 of
// Solve().Positions() whose game is not over, in that order (a depth-first
// walk from the empty board, squares tried 0..8). The numbering is part of
// the database's format: stored move tables list a network's squares in
// this order.
var positions = func() (g struct {
	due    int                // the positions where a move is due are 0..due-1
	boards []Board            // by number
	number [NumIndices]uint16 // by Board.Index
}) {
	for _, b := range Solve().Positions() {
		if b.Result() == game.Ongoing {
			g.number[b.Index()] = uint16(len(g.boards))
			g.boards = append(g.boards, b)
		}
	}
	g.due = len(g.boards)
	return g
}()
