package train

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/table"
)

// The CodeProject article's rewards and discount (reference document
// td-learning-tictactoe). A win earns 11 and a draw 6, the figures of its
// worked example; every move in play costs 1, so that the learner takes
// the quickest way; the future is discounted by 0.9. The article's worked
// example names no reward for a loss: -30 is the one its program uses, far
// below a draw, because the learner must fear a loss more than it hopes
// for a win to pass the article's infallibility test against a random
// opponent, who rarely finds the reply that punishes a risky move.
const (
	ArticleWin      = 11
	ArticleDraw     = 6
	ArticleLoss     = -30
	ArticleStep     = -1
	ArticleDiscount = 0.9
)

// ArticleEpsilon is the table learner's exploration rate. The article
// gives no figure, only that a short task like tic-tac-toe is best served
// by a high one; 0.3 is high, and still leaves most moves to the learner's
// own judgement, which its values (those of the policy it follows) must
// come to describe.
const ArticleEpsilon = 0.3

// The first example of Sutton and Barto (reference document
// sutton-barto-tictactoe): a value is the chance of winning, 1 for a won
// game, 0 for a lost one, 0.5 for a draw and for every position not met
// yet; the step size is 0.1, and its players train against each other
// exploring at 0.01.
const (
	BookStep    = 0.1
	BookEpsilon = 0.01
)

// Valued is the CodeProject article's learner: one table of state values
// per side it plays, learning by one-step temporal differences from every
// move of the game, its own and the opponent's. After a move from s to
// s', the value of s moves toward what s' promises: the reward if s'
// ends the game, else the step's cost plus the discounted value of s'.
// The step size is 1/N for a state updated N times, so a value is the
// running mean of its targets. Exploring moves back up like any other:
// the values are those of the policy the learner follows, exploration
// included. It is not safe for concurrent use.
type Valued struct {
	Table *table.Table
	Rand  *rand.Rand

	updates [table.States]int32 // N of each state
}

// NewValued returns the article's learner with an empty table, where a
// position not met yet is worth 0: neither a promise nor a threat, below
// any win and above any loss. (The article's listing adds a new state
// with the reward of its game state, and does not show the one of a
// game in play.)
func NewValued(rng *rand.Rand) *Valued {
	return &Valued{Table: table.New(ArticleWin, ArticleDraw, ArticleLoss, 0), Rand: rng}
}

// Play implements Learner.
func (l *Valued) Play(side game.Side, opp game.Player, epsilon float64) game.Result {
	return playTable(l.Table, l.Rand, tictactoe.Board{}, -1, side, opp, epsilon, l.learn)
}

// Greedy implements Learner: the most valued position, ties to the
// lowest square.
func (l *Valued) Greedy(p game.Position) int { return l.Table.Move(p) }

// Drill implements Learner: the first move, other than avoid, is a
// choice like any other.
func (l *Valued) Drill(start game.Position, avoid int, opp game.Player, epsilon float64) game.Result {
	b := tictactoe.FromPosition(start)
	return playTable(l.Table, l.Rand, b, otherMove(tictactoe.Game, start, avoid, l.Rand), b.ToMove(), opp, epsilon, l.learn)
}

// learn is the article's update of s, seen by side, after the move to
// next.
func (l *Valued) learn(side game.Side, s, next tictactoe.Board, _ bool) {
	t := l.Table
	target := t.Value(side, next) // a finished game's is its reward, and it has no future
	if next.Result() == game.Ongoing {
		target = ArticleStep + ArticleDiscount*target
	}
	i := table.State(side, s)
	l.updates[i]++
	v := t.Value(side, s)
	t.Set(side, s, v+(target-v)/float64(l.updates[i]))
}

// Book is Sutton and Barto's learner: a table of the values of the
// positions each side leaves after its own moves (afterstates), learning
// from self-play. After each game, the value of each afterstate of a side
// moves a step toward the value of the side's next afterstate (or of the
// position that ended the game), from the last back to the first, so
// that one game carries a result all the way back. An exploring move is
// not what the side believes best, so what follows it says nothing of
// the position before it: that position does not back up. It is not safe
// for concurrent use.
type Book struct {
	Table *table.Table
	Rand  *rand.Rand
	Step  float64

	moves []bookMove
}

// bookMove is a move of a learning side: the position it left behind,
// and whether it explored.
type bookMove struct {
	side     game.Side
	after    tictactoe.Board
	explored bool
}

// NewBook returns the book's learner with an empty table and step size
// step.
func NewBook(step float64, rng *rand.Rand) *Book {
	return &Book{Table: table.New(1, 0.5, 0, 0.5), Rand: rng, Step: step}
}

// Play implements Learner.
func (l *Book) Play(side game.Side, opp game.Player, epsilon float64) game.Result {
	return l.play(tictactoe.Board{}, -1, side, opp, epsilon)
}

// Greedy implements Learner: the most valued afterstate, ties to the
// lowest square.
func (l *Book) Greedy(p game.Position) int { return l.Table.Move(p) }

// Drill implements Learner: the first move, other than avoid, is a
// choice, not an exploration, so it backs up.
func (l *Book) Drill(start game.Position, avoid int, opp game.Player, epsilon float64) game.Result {
	b := tictactoe.FromPosition(start)
	return l.play(b, otherMove(tictactoe.Game, start, avoid, l.Rand), b.ToMove(), opp, epsilon)
}

// play plays from b and backs up each learning side's afterstates.
func (l *Book) play(b tictactoe.Board, first int, side game.Side, opp game.Player, epsilon float64) game.Result {
	l.moves = l.moves[:0]
	var end tictactoe.Board
	result := playTable(l.Table, l.Rand, b, first, side, opp, epsilon, func(learner game.Side, before, after tictactoe.Board, explored bool) {
		end = after
		if learner == before.ToMove() {
			l.moves = append(l.moves, bookMove{side: learner, after: after, explored: explored})
		}
	})
	l.backUp(side, end)
	if opp == nil {
		l.backUp(side.Other(), end)
	}
	return result
}

// backUp moves the value of each afterstate of side toward the value of
// the next, from the last; end is the position that ended the game.
func (l *Book) backUp(side game.Side, end tictactoe.Board) {
	t := l.Table
	next, explored := end, false // explored: the move to next explored
	for i := len(l.moves) - 1; i >= 0; i-- {
		m := l.moves[i]
		if m.side != side {
			continue
		}
		// After an exploring move, the position before it is valued by
		// what the side would have done there, not by what it did.
		if m.after.Result() == game.Ongoing && !explored {
			v := t.Value(side, m.after)
			t.Set(side, m.after, v+l.Step*(t.Value(side, next)-v))
		}
		next, explored = m.after, m.explored
	}
}

// playTable plays a game from b, side choosing its moves by t, epsilon-
// greedily (first, if not -1, being its first move), against opp, or
// against itself if opp is nil, and calls moved after every move, the
// opponent's too, with the learning side whose view it is (for each
// side in self-play), the positions before and after, and whether the
// move explored: a random move worth less than the best.
func playTable(t *table.Table, rng *rand.Rand, b tictactoe.Board, first int, side game.Side, opp game.Player,
	epsilon float64, moved func(learner game.Side, before, after tictactoe.Board, explored bool)) game.Result {
	for b.Result() == game.Ongoing {
		mover := b.ToMove()
		var m int
		explored := false
		switch {
		case opp != nil && mover != side:
			m = opp.Move(b.Position())
		case first >= 0:
			m, first = first, -1
		default:
			var best float64
			m, best = t.Best(b, rng)
			if epsilon > 0 && rng.Float64() < epsilon {
				m = game.RandomMove(tictactoe.Game, b.Position(), rng)
				explored = t.Value(mover, b.Play(m)) < best
			}
		}
		next := b.Play(m)
		moved(side, b, next, explored)
		if opp == nil {
			moved(side.Other(), b, next, explored)
		}
		b = next
	}
	return b.Result()
}

// unmarshalValued returns the article's learner that MarshalBinary
// encoded in data, drawing from rng: the table file, then a uint32 count
// and that many (state, N) pairs of uint32s.
func unmarshalValued(data []byte, rng *rand.Rand) (*Valued, error) {
	if len(data) < 4 {
		return nil, errors.New("the article's learner: truncated")
	}
	n := int(binary.LittleEndian.Uint32(data[len(data)-4:]))
	size := 8 * n
	if n > table.States || len(data) < 4+size {
		return nil, errors.New("the article's learner: truncated")
	}
	t, err := table.Parse(data[:len(data)-4-size])
	if err != nil {
		return nil, err
	}
	l := &Valued{Table: t, Rand: rng}
	counts := data[len(data)-4-size : len(data)-4]
	for i := range n {
		s := binary.LittleEndian.Uint32(counts[8*i:])
		if s >= table.States {
			return nil, fmt.Errorf("the article's learner: state %d out of range", s)
		}
		l.updates[s] = int32(binary.LittleEndian.Uint32(counts[8*i+4:]))
	}
	return l, nil
}

// MarshalBinary implements learn.Learner: the table file, the N of each
// state updated at least once, and their count.
func (l *Valued) MarshalBinary() ([]byte, error) {
	buf := l.Table.Bytes()
	n := 0
	for s, u := range l.updates {
		if u != 0 {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(s))
			buf = binary.LittleEndian.AppendUint32(buf, uint32(u))
			n++
		}
	}
	return binary.LittleEndian.AppendUint32(buf, uint32(n)), nil
}

// MarshalBinary implements learn.Learner: the table file.
func (l *Book) MarshalBinary() ([]byte, error) { return l.Table.Bytes(), nil }
