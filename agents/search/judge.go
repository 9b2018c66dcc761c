package search

import (
	"math/bits"

	"ttt/agents/game"
	"ttt/agents/learn"
)

// judgeOf returns how a search judges the moves of a position with m:
// m's own values where it has them (learn.Model.Judge), else the end of the
// game m plays against itself from each move on. A policy network has
// no values, and its own game is the one judgement of a position that it
// makes; it costs a game's length of moves a leaf, which tic-tac-toe's
// nine squares make cheap.
func judgeOf(m learn.Model) func(p game.Position, values []float32) {
	if f := m.Judge(); f != nil {
		return f
	}
	g, player := m.Plays(), m.Player()
	return func(p game.Position, values []float32) {
		side := g.ToMove(p)
		for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
			move := bits.TrailingZeros64(legal)
			q := g.Play(p, move)
			for g.Result(q) == game.Ongoing {
				q = g.Play(q, player.Move(q))
			}
			values[move] = score(g.Result(q), side)
		}
	}
}

// score is what result is worth to side: 1 a win, 1/2 a tie, 0 a loss.
func score(r game.Result, side game.Side) float32 {
	switch r {
	case game.Win(side):
		return 1
	case game.Tie:
		return 0.5
	}
	return 0
}
