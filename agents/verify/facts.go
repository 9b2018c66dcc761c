package verify

import "ttt/agents/game"

// What the checks find is plain data of package game (game.Facts and the
// values it holds), so that the store, which keeps it, need not import
// the checks, which play the player. The names here are the same types,
// under the names the checks' callers have always used.
type (
	Facts  = game.Facts
	Class  = game.Class
	Report = game.Report
	Expect = game.Expect
	Score  = game.Score
	Shares = game.Shares
)

// The classes, worst first (game.Class).
const (
	Beatable   = game.Beatable
	Unbeatable = game.Unbeatable
	Perfect    = game.Perfect
)

// Classify returns the class of a player whose sides checked as x and o.
func Classify(x, o Report) Class {
	switch {
	case !x.Unbeatable() || !o.Unbeatable():
		return Beatable
	case x.Perfect() && o.Perfect():
		return Perfect
	}
	return Unbeatable
}
