package table

import (
	"fmt"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
)

// A Table is a learn.Model, a frozen table learner's.
var _ learn.Model = (*Table)(nil)

// Plays implements learn.Model: tables hold tic-tac-toe only.
func (t *Table) Plays() game.Game { return tictactoe.Game }

// Player implements learn.Model: a frozen table is read-only, and plays
// any number of games at once.
func (t *Table) Player() game.Player { return t }

// Views implements learn.Model: its values, in the units of its
// learner's rewards.
func (t *Table) Views() learn.Views { return learn.Values }

// Explain implements learn.Model: the value the side to move puts on the
// position after each legal move.
func (t *Table) Explain(p game.Position, views []float64) int {
	b := tictactoe.FromPosition(p)
	for sq := range 9 {
		if b.IsEmpty(sq) {
			views[sq] = t.Value(b.ToMove(), b.Play(sq))
		}
	}
	return t.Move(p)
}

// File implements learn.Model: the table file, as stored.
func (t *Table) File() []byte { return t.Bytes() }

// Describe implements learn.Model.
func (t *Table) Describe() string { return fmt.Sprintf("table of values (%d of them)", t.n) }

// Size implements learn.Model: the values it holds.
func (t *Table) Size() int { return t.n }

// Validate implements learn.Model: Parse refuses what cannot play.
func (t *Table) Validate() error { return nil }

// Layout implements learn.Model: the values it holds.
func (t *Table) Layout() learn.Layout { return learn.Layout{Sided: true, Entries: t.n} }

// Judge implements learn.Model: none, since its values are in its
// learner's units of reward, not expected scores.
func (t *Table) Judge() func(p game.Position, values []float32) { return nil }

// FileFor implements learn.Model: the values side puts on positions,
// which are all it reads when it plays side, as a table file (the same
// format: it holds one side's values only, and plays the other side as
// a table that has met none of its positions).
func (t *Table) FileFor(side game.Side) []byte {
	c := New(t.Win, t.Draw, t.Loss, t.Unseen)
	for s, seen := range t.seen {
		if seen && game.Side(s/tictactoe.NumIndices) == side {
			c.values[s], c.seen[s] = t.values[s], true
			c.n++
		}
	}
	return c.Bytes()
}
