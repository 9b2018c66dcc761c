// Package ntuple is the n-tuple network of Thill, Koch and Konen's
// Connect Four agents, the form GBG's TD agents take for many games: many
// small lookup tables, each indexed by the states of a handful of cells
// (a tuple). A position's value is the sigmoid of the sum of the entries
// it selects in every table, once for each symmetry of the board, so
// that a position and its mirror image are worth the same. It moves to
// the position it values most after its move (the afterstate) and learns
// by TD(λ) (learn.go), as the value net of package nn does; where the
// value net must build "three in a row with the fourth cell playable"
// out of raw cells, a tuple that covers those cells holds it in one
// entry.
//
// There are two table sets, one for each side that has just moved: in
// Connect Four the same stones mean different things to the side that
// moves first and the side that moves second (who can wait, who must
// fill the odd rows), and one set for both learned less (BENCHMARKS.md,
// "Choosing the tuples").
package ntuple

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"ttt/agents/game"
)

// Net is an n-tuple network for one game. Its tables are read-only
// while it plays, so a frozen net is shared by concurrent games; each
// goroutine brings its own Pass.
type Net struct {
	Game   game.Game
	Tuples [][]int   // the cells of each tuple, in the game's numbering
	W      []float32 // the tables: for each side that has just moved (X, then O), each tuple's States^len entries

	board   game.Board
	perSide int      // entries of one side's tables
	offset  []int32  // of each tuple's table within a side's
	inst    []inst   // every tuple under every symmetry
	byCell  [][]use  // the instances that read each cell
	powers  []uint32 // States^i
}

// inst is a tuple seen through one symmetry of the board: the cells it
// reads and its table.
type inst struct {
	cells  []uint8
	offset int32
}

// use says that an instance reads a cell, at the given place value.
type use struct {
	inst  int32
	place int32
}

// MaxLen is the longest tuple: 4^8 entries a table already.
const MaxLen = 8

// New returns a network of g over tuples, every table zero (a value of
// 1/2 everywhere: nothing known). It refuses tuples that are empty, too
// long, repeat a cell or leave the board.
func New(g game.Game, tuples [][]int) (*Net, error) {
	b := g.Board()
	perSide, err := entries(b, tuples)
	if err != nil {
		return nil, err
	}
	n := &Net{Game: g, Tuples: tuples, board: b, byCell: make([][]use, b.Cells), perSide: perSide}
	for i := range MaxLen {
		n.powers = append(n.powers, uint32(pow(b.States, i)))
	}
	off := 0
	for _, t := range tuples {
		n.offset = append(n.offset, int32(off))
		off += pow(b.States, len(t))
	}
	for _, sym := range b.Symmetries {
		for i, t := range tuples {
			in := inst{offset: n.offset[i]}
			for k, c := range t {
				cell := sym[c]
				in.cells = append(in.cells, uint8(cell))
				n.byCell[cell] = append(n.byCell[cell], use{int32(len(n.inst)), int32(n.powers[k])})
			}
			n.inst = append(n.inst, in)
		}
	}
	n.W = make([]float32, 2*n.perSide)
	return n, nil
}

// entries checks tuples on board b and returns the entries of one side's
// tables.
func entries(b game.Board, tuples [][]int) (int, error) {
	if len(tuples) == 0 || len(tuples) > maxTuples {
		return 0, fmt.Errorf("%d tuples (1 to %d)", len(tuples), maxTuples)
	}
	total := 0
	for i, t := range tuples {
		if len(t) == 0 || len(t) > MaxLen {
			return 0, fmt.Errorf("tuple %d has %d cells (1 to %d)", i, len(t), MaxLen)
		}
		seen := map[int]bool{}
		for _, c := range t {
			if c < 0 || c >= b.Cells || seen[c] {
				return 0, fmt.Errorf("tuple %d: cell %d is off the board or repeated", i, c)
			}
			seen[c] = true
		}
		total += pow(b.States, len(t))
	}
	return total, nil
}

// pow returns b^e.
func pow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

// Clone returns a deep copy of n: a frozen snapshot of a learning net.
func (n *Net) Clone() *Net {
	c := *n
	c.W = append([]float32(nil), n.W...)
	return &c
}

// Pass is the scratch space of a net's evaluation. Reusing one keeps play
// and training free of allocation.
type Pass struct {
	cells   []uint8
	changes []game.Change // that a move makes
	index   []uint32      // of each instance in the position
	moved   []uint32      // of each instance a move changes, after it
	stamp   []uint32      // marks the instances a move changes
	mark    uint32
	change  []int32 // the instances a move changes
	entries []int32
	values  []float32 // of each move, where Afterstates is given none
}

// size makes p fit n.
func (p *Pass) size(n *Net) {
	if len(p.index) != len(n.inst) || len(p.cells) != n.board.Cells {
		p.cells = make([]uint8, n.board.Cells)
		p.index = make([]uint32, len(n.inst))
		p.moved = make([]uint32, len(n.inst))
		p.stamp = make([]uint32, len(n.inst))
		p.change = make([]int32, 0, len(n.inst))
		p.values = make([]float32, n.Game.Moves())
	}
}

// indices reads the cells of pos into p and computes every instance's
// index.
func (n *Net) indices(pos game.Position, p *Pass) {
	p.size(n)
	n.Game.CellStates(pos, p.cells)
	for i, in := range n.inst {
		var x uint32
		for k, c := range in.cells {
			x += uint32(p.cells[c]) * n.powers[k]
		}
		p.index[i] = x
	}
}

// table returns the tables of the side that has just moved.
func (n *Net) table(mover game.Side) []float32 {
	return n.W[int(mover)*n.perSide : (int(mover)+1)*n.perSide]
}

// Sum returns the sum of the entries that pos selects for the side that
// has just moved there: the value before the sigmoid.
func (n *Net) Sum(pos game.Position, p *Pass) float32 {
	n.indices(pos, p)
	return n.sum(n.table(n.Game.ToMove(pos).Other()), p)
}

// sum adds up the entries of p's indices in w.
func (n *Net) sum(w []float32, p *Pass) float32 {
	var s float32
	for i, in := range n.inst {
		s += w[in.offset+int32(p.index[i])]
	}
	return s
}

// Value returns what pos is worth to the side that has just moved there,
// as the expected score (1 a win, 1/2 a tie, 0 a loss).
func (n *Net) Value(pos game.Position, p *Pass) float32 { return sigmoid(n.Sum(pos, p)) }

// Scores for the side that has just moved, as a value net's.
const (
	ScoreWin  = 1
	ScoreTie  = 0.5
	ScoreLoss = 0
)

// Afterstates writes into values what each legal move of pos is worth to
// the side to move (values may be nil): the exact score where the move
// ends the game, the net's value of the position it leaves otherwise. It
// returns the best move and its worth: the lowest move that wins by the
// rules, else the lowest of the moves worth within TieWidth of the most.
//
// Only the tables of the cells a move changes are read again: the sum of
// pos's entries is taken once, and each move adds what its changed
// instances select less what they selected before.
func (n *Net) Afterstates(pos game.Position, p *Pass, values []float32) (best int, worth float32) {
	g := n.Game
	side := g.ToMove(pos)
	n.indices(pos, p)
	if values == nil {
		values = p.values[:g.Moves()]
	}
	w := n.table(side)
	base := n.sum(w, p)
	most, won := float32(-1), -1
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		after := g.Play(pos, m)
		var v float32
		switch r := g.Result(after); r {
		case game.Ongoing:
			p.changes = g.Changes(pos, m, p.changes[:0])
			v = sigmoid(base + n.delta(p.changes, w, p))
		default:
			if v = score(r, side); v == ScoreWin && won < 0 {
				won = m
			}
		}
		values[m] = v
		most = max(most, v)
	}
	return chosen(g, pos, values, most, won)
}

// score is what a result the rules settle is worth to side.
func score(r game.Result, side game.Side) float32 {
	switch r {
	case game.Tie:
		return ScoreTie
	case game.Win(side):
		return ScoreWin
	}
	return ScoreLoss
}

// chosen returns the move a net plays in pos, whose legal moves are worth
// values, the most of them most, and its worth: the lowest move that wins
// by the rules (won; -1 for none), else the lowest of the moves worth
// within TieWidth of the most. A win the rules settle comes before any
// estimate, however close to 1 (a float32 sigmoid reaches 1 itself): no
// window ties them.
func chosen(g game.Game, pos game.Position, values []float32, most float32, won int) (int, float32) {
	if won >= 0 {
		return won, ScoreWin
	}
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		if m := bits.TrailingZeros64(legal); values[m] >= most-TieWidth {
			return m, values[m]
		}
	}
	return -1, -1
}

// TieWidth is how close to the best value a move's must be to tie with
// it. Two moves whose positions are images of each other under the
// board's symmetries have the same entries, but their sums, moved from
// the position's by different changes, can differ in the last bits of a
// float32; a strict comparison would break such a tie by rounding, which
// a reader of the file could not reproduce. Values that matter differ by
// far more.
const TieWidth = 1e-5

// delta returns what the sum in w changes by from the position whose
// indices p holds to the one that changes make of it. Only the instances
// that read a changed cell are looked at, and their new index is the old
// one plus each change times its place value.
func (n *Net) delta(changes []game.Change, w []float32, p *Pass) float32 {
	p.mark++
	if p.mark == 0 { // the stamps wrapped: start again
		clear(p.stamp)
		p.mark = 1
	}
	p.change = p.change[:0]
	for _, c := range changes {
		step := int32(c.To) - int32(c.From)
		for _, u := range n.byCell[c.Cell] {
			if p.stamp[u.inst] != p.mark {
				p.stamp[u.inst] = p.mark
				p.change = append(p.change, u.inst)
				p.moved[u.inst] = p.index[u.inst]
			}
			p.moved[u.inst] = uint32(int32(p.moved[u.inst]) + step*u.place)
		}
	}
	var d float32
	for _, i := range p.change {
		off := n.inst[i].offset
		d += w[off+int32(p.moved[i])] - w[off+int32(p.index[i])]
	}
	return d
}

// Learn takes one step of the value of pos, for the side that has just
// moved there, toward target: gradient descent on the cross-entropy
// between the sigmoid and target, whose error before the sigmoid is
// target - value, shared out evenly among the entries pos selects. It
// returns the error.
func (n *Net) Learn(pos game.Position, target, lr float32, p *Pass) float32 {
	n.indices(pos, p)
	return n.learn(n.entries(n.Game.ToMove(pos).Other(), p.index, p.entries[:0]), target, lr)
}

// entries appends to dst the entries of W that indices select in the
// tables of mover, the side that has just moved.
func (n *Net) entries(mover game.Side, indices []uint32, dst []int32) []int32 {
	base := int32(int(mover) * n.perSide)
	for i, in := range n.inst {
		dst = append(dst, base+in.offset+int32(indices[i]))
	}
	return dst
}

// afterEntries appends to dst the entries that the position move leaves
// in pos, the position whose indices p holds (as Afterstates left it),
// selects for mover: the indices of p, with those of the cells the move
// changed moved.
func (n *Net) afterEntries(pos game.Position, move int, mover game.Side, p *Pass, dst []int32) []int32 {
	start := len(dst)
	dst = n.entries(mover, p.index, dst)
	p.changes = n.Game.Changes(pos, move, p.changes[:0])
	for _, c := range p.changes {
		step := int32(c.To) - int32(c.From)
		for _, u := range n.byCell[c.Cell] {
			dst[start+int(u.inst)] += step * u.place
		}
	}
	return dst
}

// learn is Learn on the entries e of a position.
func (n *Net) learn(e []int32, target, lr float32) float32 {
	var sum float32
	for _, k := range e {
		sum += n.W[k]
	}
	delta := target - sigmoid(sum)
	step := lr * delta / float32(len(e))
	for _, k := range e {
		n.W[k] += step
	}
	return delta
}

// Validate reports an entry that is not a finite number (a net that
// diverged), or entries so large that a sum could overflow: it bounds
// each side's sum by the largest entry, in magnitude, of the table of
// every tuple that the sum reads (every tuple under every symmetry), in
// float64. A net whose bound passes MaxSum could compute an infinite sum,
// and from it NaN, in some position; one that passes can compute none.
func (n *Net) Validate() error {
	for _, side := range []game.Side{game.X, game.O} {
		w := n.table(side)
		largest := make([]float64, len(n.Tuples)) // the largest magnitude in each tuple's table
		for i, off := range n.offset {
			end := len(w)
			if i+1 < len(n.offset) {
				end = int(n.offset[i+1])
			}
			// On the bits of the magnitudes, which IEEE 754 orders as the
			// magnitudes: a grown network has ten million entries, and
			// every command that reads one from a league checks it.
			var most uint32
			for k, v := range w[off:end] {
				b := math.Float32bits(v) &^ (1 << 31)
				if b >= 0x7f800000 { // every bit of the exponent: infinite, or NaN
					return fmt.Errorf("entry %d is %v", int(side)*n.perSide+int(off)+k, v)
				}
				most = max(most, b)
			}
			largest[i] = float64(math.Float32frombits(most))
		}
		bound := 0.0
		for i := range n.inst {
			bound += largest[i%len(n.Tuples)] // the instances are every tuple in order, under each symmetry
		}
		if bound > MaxSum {
			return fmt.Errorf("the entries are too large: the sum of a position %s has just moved to could reach %.3g, beyond the limit of %g (float32 overflows at 3.4e38)", side, bound, MaxSum)
		}
	}
	return nil
}

// MaxSum bounds the sum of a position's entries, as nn.MaxActivation
// bounds a network's: eight orders of magnitude below float32's largest,
// where a trained network's sums are in the tens.
const MaxSum = 1e30

func sigmoid(x float32) float32 { return 1 / (1 + float32(math.Exp(float64(-x)))) }

// Player plays a frozen net greedily: the afterstate it values most. It
// is not safe for concurrent use; a Player per goroutine shares the net.
type Player struct {
	Net  *Net
	pass Pass
}

// Move implements game.Player.
func (pl *Player) Move(pos game.Position) int {
	m, _ := pl.Net.Afterstates(pos, &pl.pass, nil)
	return m
}

// Replies is Afterstates two plies deep: it writes into values what each
// legal move of pos is worth to the side to move once the other side has
// answered it with the reply the net values most for that side (the
// exact score where the move or the reply ends the game), and returns the
// best move and its worth, chosen as Afterstates chooses (a win by the
// rules first). q is scratch space of its own, beside p.
//
// Each reply's position is reached from pos's indices by the changes of
// two moves: the indices of pos are computed once, those of each move's
// position moved from them, and each reply reads only the instances its
// changes move, so a look two plies deep costs a few times one look, not
// a full evaluation of every reply's position.
func (n *Net) Replies(pos game.Position, p, q *Pass, values []float32) (best int, worth float32) {
	g := n.Game
	side := g.ToMove(pos)
	n.indices(pos, p)
	q.size(n)
	w := n.table(side.Other()) // the replies' mover's tables
	base := n.sum(w, p)
	most, won := float32(-1), -1
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		after := g.Play(pos, m)
		var v float32
		switch r := g.Result(after); r {
		case game.Ongoing:
			p.changes = g.Changes(pos, m, p.changes[:0])
			moved := base + n.delta(p.changes, w, p)
			copy(q.index, p.index)
			for _, i := range p.change {
				q.index[i] = p.moved[i]
			}
			v = 1 - n.bestReply(after, moved, w, q)
		default:
			if v = score(r, side); v == ScoreWin && won < 0 {
				won = m
			}
		}
		values[m] = v
		most = max(most, v)
	}
	return chosen(g, pos, values, most, won)
}

// bestReply returns the worth of the best move in pos to the side to
// move, whose tables w are, where q holds pos's indices and base is their
// sum in w.
func (n *Net) bestReply(pos game.Position, base float32, w []float32, q *Pass) float32 {
	g := n.Game
	side := g.ToMove(pos)
	most := float32(-1)
	for legal := g.Legal(pos); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		after := g.Play(pos, m)
		var v float32
		switch r := g.Result(after); r {
		case game.Ongoing:
			q.changes = g.Changes(pos, m, q.changes[:0])
			v = sigmoid(base + n.delta(q.changes, w, q))
		default:
			if v = score(r, side); v == ScoreWin {
				return ScoreWin // nothing is worth more
			}
		}
		most = max(most, v)
	}
	return most
}

// Grow returns a network of n's tuples and more besides, whose tables
// for n's tuples are n's and for the others zero: it values every
// position as n does, and has more to learn with.
func (n *Net) Grow(more [][]int) (*Net, error) {
	grown, err := New(n.Game, append(slices.Clone(n.Tuples), more...))
	if err != nil {
		return nil, err
	}
	for side := range 2 {
		copy(grown.W[side*grown.perSide:], n.W[side*n.perSide:(side+1)*n.perSide])
	}
	return grown, nil
}
