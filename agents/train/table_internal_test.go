package train

import (
	"math/rand/v2"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// The article's step size is 1/N: a state's value is the plain mean of
// the targets it was updated toward.
func TestValuedStepIsTheMean(t *testing.T) {
	t.Parallel()
	l := NewValued(rand.New(rand.NewPCG(1, 1)))
	s := tictactoe.Board{}.Play(0).Play(3).Play(1).Play(4) // X to move, X wins at 2
	won, lost := s.Play(2), s.Play(8).Play(5)              // O wins at 5 after X's 8
	l.learn(game.X, s, won, false)
	l.learn(game.X, s, won, false)
	l.learn(game.X, s, s.Play(8), false) // a step: -1 + 0.9 * 0, the unseen value
	l.learn(game.X, s.Play(8), lost, false)
	if got, want := l.Table.Value(game.X, s), (11+11+ArticleStep)/3.0; got != want {
		t.Errorf("value %v after targets 11, 11, -1; want their mean %v", got, want)
	}
	if got := l.Table.Value(game.X, s.Play(8)); got != ArticleLoss {
		t.Errorf("the position before a loss is worth %v, want %v", got, float64(ArticleLoss))
	}
}

// In the book, an exploring move does not back up: the afterstate before
// it keeps its value, while the others move toward their successors.
func TestBookExploringMovesDoNotBackUp(t *testing.T) {
	t.Parallel()
	l := NewBook(0.5, rand.New(rand.NewPCG(1, 1)))
	a1 := tictactoe.Board{}.Play(0) // X 0
	a2 := a1.Play(4).Play(1)        // O 4, X 1: explored
	a3 := a2.Play(2).Play(5)        // O 2, X 5: greedy, and no block
	end := a3.Play(6)               // O 6: 2-4-6
	if end.Result() != game.OWins {
		t.Fatalf("the game %s ends %s", end.Compact(), end.Result())
	}
	l.Table.Set(game.X, a1, 0.8)
	l.Table.Set(game.X, a2, 0.6)
	l.Table.Set(game.X, a3, 0.4)
	l.moves = []bookMove{
		{side: game.X, after: a1}, {side: game.O, after: a1.Play(4)},
		{side: game.X, after: a2, explored: true}, {side: game.O, after: a2.Play(2)},
		{side: game.X, after: a3}, {side: game.O, after: end},
	}
	l.backUp(game.X, end)
	for _, c := range []struct {
		name string
		b    tictactoe.Board
		want float64
	}{
		{"the last, toward the loss", a3, 0.4 + 0.5*(0-0.4)},
		{"the exploring move's, toward the last as updated", a2, 0.6 + 0.5*(0.2-0.6)},
		{"the one before the exploring move: unchanged", a1, 0.8},
	} {
		if got := l.Table.Value(game.X, c.b); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
