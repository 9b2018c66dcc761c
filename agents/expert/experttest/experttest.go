// Package experttest holds the tests every network that expert
// iteration teaches must pass, each given the network's own
// constructors: its file reads back, a resumed learner learns on as one
// that never stopped, a perfect teacher makes it play well, and a
// reader of its documented layout plays its moves.
package experttest

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"

	"ttt/agents/expert"
	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
)

// Kind is a network's constructors, as its package gives them.
type Kind struct {
	// New returns a learner of g with a network small enough for tests.
	New func(t testing.TB, g game.Game, seed uint64) *expert.Expert
	// ReadFile reads a network's plain file for g.
	ReadFile func(g game.Game, data []byte) ([]learn.Reading, error)
	// Decode reads what a network's Bytes stored.
	Decode func(g game.Game, stored []byte) (expert.Net, error)
}

// Games are the games every network is tested on.
var Games = []game.Game{tictactoe.Game, connect4.Game}

// Positions returns k positions in play of random games of g, each with
// the side that has just moved (X before the first move).
func Positions(g game.Game, k int, rng *rand.Rand) ([]game.Position, []game.Side) {
	var pos []game.Position
	var movers []game.Side
	for len(pos) < k {
		p := g.Start()
		for n := rng.IntN(g.MaxPlies() - 1); n > 0 && g.Result(p) == game.Ongoing; n-- {
			p = g.Play(p, game.RandomMove(g, p, rng))
		}
		if g.Result(p) == game.Ongoing {
			pos, movers = append(pos, p), append(movers, g.ToMove(p).Other())
		}
	}
	return pos, movers
}

// Trained returns k's small network of g after n games of its learner.
func Trained(t testing.TB, k Kind, g game.Game, seed uint64, n int) learn.Model {
	l := k.New(t, g, seed)
	for i := range n {
		l.Play(game.Side(i%2), nil, 0.2)
	}
	return l.Model()
}

// FileReadsBack: a file read back is the same network, byte for byte
// and move for move, and a damaged one, or another game's, is refused.
func FileReadsBack(t *testing.T, k Kind) {
	for _, g := range Games {
		n := Trained(t, k, g, 3, 20)
		file := n.File()
		readings, err := k.ReadFile(g, file)
		if err != nil || len(readings) != 1 {
			t.Fatalf("%s: %v, %d readings", g.Name(), err, len(readings))
		}
		back := readings[0].Model
		if !bytes.Equal(back.File(), file) {
			t.Errorf("%s: the file read back writes other bytes", g.Name())
		}
		pos, _ := Positions(g, 200, rand.New(rand.NewPCG(1, 1)))
		for _, p := range pos {
			if a, b := n.Player().Move(p), back.Player().Move(p); a != b {
				t.Fatalf("%s: in\n%s\nthe network plays %d, read back %d", g.Name(), g.Format(p), a, b)
			}
		}
		for _, cut := range []int{len(file) - 1, len(file) - 4, 20} {
			if _, err := k.ReadFile(g, file[:cut]); err == nil {
				t.Errorf("%s: a file cut to %d bytes of %d reads", g.Name(), cut, len(file))
			}
		}
		other := connect4.Game
		if g == connect4.Game {
			other = tictactoe.Game
		}
		if _, err := k.ReadFile(other, file); err == nil {
			t.Errorf("a %s file reads as %s's", g.Name(), other.Name())
		}
	}
}

// ResumeLearnsOnTheSame: a learner stored and resumed between games goes
// on exactly as one that never stopped: the same network after the same
// games; a stored state cut short is refused.
func ResumeLearnsOnTheSame(t *testing.T, k Kind) {
	g := connect4.Game
	a, b := k.New(t, g, 5), k.New(t, g, 5)
	for i := range 30 {
		a.Play(game.Side(i%2), nil, 0.1)
		b.Play(game.Side(i%2), nil, 0.1)
	}
	state, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	resume := func(state []byte) (*expert.Expert, error) {
		return expert.Unmarshal(state, func(s []byte) (expert.Net, error) { return k.Decode(g, s) }, b.Depth, b.Openings, b.Opt.LR, b.Rand)
	}
	if b, err = resume(state); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		a.Play(game.Side(i%2), nil, 0.1)
		b.Play(game.Side(i%2), nil, 0.1)
	}
	if !bytes.Equal(a.Net.File(), b.Net.File()) {
		t.Error("the resumed learner's network differs from the one that never stopped")
	}
	for cut := 0; cut < len(state); cut += 997 {
		if _, err := resume(state[:cut]); err == nil {
			t.Fatalf("a state cut to %d bytes of %d reads", cut, len(state))
		}
	}
}

// solvedTeacher is a tic-tac-toe model that judges every move exactly,
// from the solved game: a teacher whose one-ply search is perfect.
type solvedTeacher struct{ learn.Model }

func (solvedTeacher) Judge() func(p game.Position, values []float32) {
	solved := tictactoe.Solve()
	return func(p game.Position, values []float32) {
		b := tictactoe.FromPosition(p)
		for m := b.Empty(); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			values[sq] = float32(solved.MoveValue(b, sq)+1) / 2
		}
	}
}

// LearnsTheTeachersValues: taught by a perfect teacher for games games,
// the network comes to keep the value of at least a share want of
// tic-tac-toe's positions, and of 10 points more than a new one.
func LearnsTheTeachersValues(t *testing.T, k Kind, games int, want float64) {
	g := tictactoe.Game
	l := k.New(t, g, 9)
	l.Depth = 1
	l.Teach(solvedTeacher{l.Net})
	solved := tictactoe.Solve()
	pos, _ := Positions(g, 2000, rand.New(rand.NewPCG(2, 2)))
	share := func() float64 {
		player, kept := l.Model().Player(), 0
		for _, p := range pos {
			b := tictactoe.FromPosition(p)
			if solved.MoveValue(b, player.Move(p)) == solved.Value(b) {
				kept++
			}
		}
		return float64(kept) / float64(len(pos))
	}
	before := share()
	for i := range games {
		l.Play(game.Side(i%2), nil, 0.3)
	}
	after := share()
	t.Logf("keeps the value in %.1f%% of positions, %.1f%% before", 100*after, 100*before)
	if after < want || after < before+0.1 {
		t.Errorf("taught by a perfect search, the network keeps the value in %.1f%% of positions (%.1f%% before)", 100*after, 100*before)
	}
}

// DocumentedMove is the move a reader of the documents plays in pos,
// valuing a position after a move by value: a win by the rules first,
// else the lowest of the moves worth within 1e-5 of the most.
func DocumentedMove(g game.Game, pos game.Position, value func(game.Position, game.Side) float64) int {
	side := g.ToMove(pos)
	worth := map[int]float64{}
	var moves []int
	for m := range g.Moves() {
		if g.Legal(pos)&(1<<m) == 0 {
			continue
		}
		moves = append(moves, m)
		switch q := g.Play(pos, m); g.Result(q) {
		case game.Win(side):
			return m
		case game.Tie:
			worth[m] = 0.5
		case game.Ongoing:
			worth[m] = value(q, side)
		default:
			worth[m] = 0
		}
	}
	most := -1.0
	for _, m := range moves {
		most = max(most, worth[m])
	}
	for _, m := range moves {
		if worth[m] >= most-1e-5 {
			return m
		}
	}
	return -1
}

// PlaysAsDocumented: a reader of the documents alone, whose value of a
// position is documented (adding up in float64), values positions as the
// network does within 1e-5 and plays the same moves, in both games.
func PlaysAsDocumented(t *testing.T, k Kind, reader func(t *testing.T, g game.Game, file []byte) func(game.Position, game.Side) float64,
	value func(n learn.Model, pos game.Position, mover game.Side) float64) {
	for _, g := range Games {
		n := Trained(t, k, g, 11, 30)
		documented := reader(t, g, n.File())
		player := n.Player()
		pos, movers := Positions(g, 300, rand.New(rand.NewPCG(4, 4)))
		for i, q := range pos {
			if g.Plies(q) > 0 {
				if a, b := value(n, q, movers[i]), documented(q, movers[i]); a-b > 1e-5 || b-a > 1e-5 {
					t.Fatalf("%s: ttt values\n%s\nat %v, the documented reader at %v", g.Name(), g.Format(q), a, b)
				}
			}
			if a, b := player.Move(q), DocumentedMove(g, q, documented); a != b {
				t.Fatalf("%s: in\n%s\nttt plays %d, the documented reader %d", g.Name(), g.Format(q), a, b)
			}
		}
	}
}
