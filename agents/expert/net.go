package expert

import (
	"fmt"
	"math"
	"math/bits"

	"ttt/agents/game"
)

// MaxBuffer bounds the replay buffer: 21 bytes a position in the
// learner's stored state.
const MaxBuffer = 4_000_000

// Loss returns the mean cross-entropy of a batch's logits against its
// labels, scores from 0 to 1, and writes its gradient by each logit into
// dOut.
func Loss(logits, labels, dOut []float32) float64 {
	var sum float64
	for i, z := range logits {
		loss, d := CrossEntropy(z, labels[i])
		sum += loss
		dOut[i] = d / float32(len(logits))
	}
	return sum / float64(len(logits))
}

// CrossEntropy is the cross-entropy of the sigmoid of logit z against
// label t, and its gradient by z: simply output − label, as for
// logistic regression, whatever the label (a search's estimate is
// seldom 0 or 1).
func CrossEntropy(z, t float32) (loss float64, d float32) {
	// log(1+e^-|z|) keeps the cross-entropy finite for any logit.
	az := math.Abs(float64(z))
	return math.Max(float64(z), 0) - float64(z)*float64(t) + math.Log1p(math.Exp(-az)), Sigmoid(z) - t
}

// Sigmoid is the output's squashing: a logit to an expected score.
func Sigmoid(x float32) float32 { return 1 / (1 + float32(math.Exp(float64(-x)))) }

// Moves is the scratch space of Afterstates: a position's moves.
type Moves struct {
	Kids   []game.Position // the positions the moves leave, in play
	Movers []game.Side
	moves  []int
	worth  [64]float32
}

// Tie is how close to the best a move's worth must be to tie with it:
// a reader of a network's file who adds up in another order, or in
// float64, differs in the last bits, and must pick the same move.
const Tie = 1e-5

// Afterstates writes into values (nil: not at all) what each legal move
// of pos is worth to the side to move: the exact score where the move
// ends the game, otherwise the network's value of the position it
// leaves, which judge writes into worth for all of them in one batch
// (s.Kids, each after a move by s.Movers). It returns its move and that
// move's worth: the lowest move that wins by the rules, else the lowest
// of the moves worth within Tie of the most.
func Afterstates(g game.Game, pos game.Position, s *Moves, values []float32, judge func(worth []float32)) (best int, worth float32) {
	side := g.ToMove(pos)
	s.Kids, s.Movers, s.moves = s.Kids[:0], s.Movers[:0], s.moves[:0]
	won := -1
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		after := g.Play(pos, m)
		switch r := g.Result(after); r {
		case game.Ongoing:
			s.Kids, s.Movers, s.moves = append(s.Kids, after), append(s.Movers, side), append(s.moves, m)
			continue
		case game.Tie:
			s.worth[m] = 0.5
		case game.Win(side):
			s.worth[m] = 1
			if won < 0 {
				won = m
			}
		default:
			s.worth[m] = 0
		}
	}
	if len(s.Kids) > 0 {
		var kids [64]float32
		judge(kids[:len(s.Kids)])
		for i, m := range s.moves {
			s.worth[m] = kids[i]
		}
	}
	most := float32(-1)
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		most = max(most, s.worth[m])
		if values != nil {
			values[m] = s.worth[m]
		}
	}
	if won >= 0 {
		return won, 1
	}
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		if m := bits.TrailingZeros64(legal); s.worth[m] >= most-Tie {
			return m, s.worth[m]
		}
	}
	return -1, -1
}

// maxWeight bounds a weight that can play: beyond it a forward pass of
// a few hundred terms can overflow float32.
const maxWeight = 1e15

// Validate reports weights that cannot play: a NaN, or one beyond
// maxWeight.
func Validate(w []float32) error {
	for i, v := range w {
		if math.IsNaN(float64(v)) || math.Abs(float64(v)) > maxWeight {
			return fmt.Errorf("weight %d of %d is %v", i, len(w), v)
		}
	}
	return nil
}

// Judge is a network's Afterstates with scratch space of its own (one
// per goroutine): it writes into values (nil: not at all) what each
// legal move of a position is worth to the side to move, and returns
// the network's move.
type Judge func(pos game.Position, values []float32) int

// Move implements game.Player: a network plays greedily, the move to
// the afterstate it values most.
func (j Judge) Move(pos game.Position) int { return j(pos, nil) }

// Explain is learn.Model's Explain for a network that judges by j, in
// a game of moves moves.
func (j Judge) Explain(pos game.Position, moves int, views []float64) int {
	values := make([]float32, moves)
	m := j(pos, values)
	for k, v := range values {
		views[k] = float64(v)
	}
	return m
}
