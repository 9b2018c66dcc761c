package search_test

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/nn"
	"ttt/agents/ntuple"
	"ttt/agents/search"
	"ttt/agents/verify"
)

// models are untrained models of g of every kind a search wraps, with
// weights drawn at random so that their judgement is wrong in its own
// way: what a search finds, it finds by searching.
func models(t *testing.T, g game.Game, seed uint64) map[string]learn.Model {
	rng := rand.New(rand.NewPCG(seed, 1))
	nt, err := ntuple.New(g, ntuple.Lines(g.Board(), min(4, g.Board().Width), rng))
	if err != nil {
		t.Fatal(err)
	}
	for i := range nt.W {
		nt.W[i] = float32(rng.NormFloat64())
	}
	return map[string]learn.Model{
		"ntuple": nt,
		"value":  nn.NewValue(g, 8, rng),
		"policy": nn.New(g, 8, rng), // judged by playing its own game out
	}
}

func play(g game.Game, moves ...int) game.Position {
	p := g.Start()
	for _, m := range moves {
		p = g.Play(p, m)
	}
	return p
}

// TestForcedWin: X, to move, wins by force in three plies: every search
// of that reach plays a move that forces it, whatever the model thinks.
func TestForcedWin(t *testing.T) {
	cases := []struct {
		g     game.Game
		p     game.Position
		wins  uint64 // the moves that force the win
		specs []string
	}{
		// X on 2 and 3 of the bottom row, O's stones stacked on 0:
		// 4 makes an open three, two threats O cannot both block.
		{connect4.Game, play(connect4.Game, 2, 0, 3, 0), 1 << 4, []string{"ab3", "ab4", "mcts800"}},
		// X on 0 and 4, O on 8 and 1: X on 6 threatens 3 and 2, X on 3
		// threatens 6 and 5.
		{tictactoe.Game, play(tictactoe.Game, 0, 8, 4, 1), 1<<3 | 1<<6, []string{"ab3", "ab9", "mcts800"}},
	}
	for _, c := range cases {
		for name, m := range models(t, c.g, 7) {
			for _, spec := range c.specs {
				s, err := search.Parse(spec)
				if err != nil {
					t.Fatal(err)
				}
				if got := search.Wrap(m, s).Player().Move(c.p); c.wins&(1<<got) == 0 {
					t.Errorf("%s, %s@%s: played %d, not a forced win (%b)", c.g.Name(), name, spec, got, c.wins)
				}
			}
		}
	}
}

// threats returns the moves that win at once for the side to move in p,
// as a mask.
func threats(g game.Game, p game.Position) uint64 {
	var out uint64
	for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
		m := bits.TrailingZeros64(legal)
		if g.Result(g.Play(p, m)) == game.Win(g.ToMove(p)) {
			out |= 1 << m
		}
	}
	return out
}

// opponentThreats returns, as a mask, the mover's moves that block a win
// of the opponent in one.
func opponentThreats(g game.Game, p game.Position) uint64 {
	var out uint64
	for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
		if m := bits.TrailingZeros64(legal); blocks(g, p, m) {
			out |= 1 << m
		}
	}
	return out
}

// blocks reports whether the mover's move m takes the cell where the
// opponent would win: played anywhere else, the opponent then wins at m's
// cell in one.
func blocks(g game.Game, p game.Position, m int) bool {
	for legal := g.Legal(p) &^ (1 << m); legal != 0; legal &= legal - 1 {
		other := bits.TrailingZeros64(legal)
		q := g.Play(p, other)
		if g.Result(q) != game.Ongoing || g.Legal(q)&(1<<m) == 0 {
			continue
		}
		if g.Result(g.Play(q, m)) == game.Win(g.ToMove(q)) {
			return true
		}
	}
	return false
}

// TestBlocks: ab2 never misses a one-move block. In positions reached by
// random moves where the side to move cannot win at once and one move
// stops the opponent's win in one, every model with ab2 (and the deeper
// searches) plays it.
func TestBlocks(t *testing.T) {
	for _, g := range []game.Game{tictactoe.Game, connect4.Game} {
		rng := rand.New(rand.NewPCG(11, 12))
		players := map[string]game.Player{}
		for name, m := range models(t, g, 3) {
			for _, spec := range []string{"ab2", "ab3", "mcts100"} {
				s, _ := search.Parse(spec)
				players[name+"@"+spec] = search.Wrap(m, s).Player()
			}
		}
		found := 0
		for found < 300 {
			p := g.Start()
			for n := rng.IntN(g.MaxPlies() - 1); n > 0 && g.Result(p) == game.Ongoing; n-- {
				p = g.Play(p, game.RandomMove(g, p, rng))
			}
			if g.Result(p) != game.Ongoing || threats(g, p) != 0 {
				continue
			}
			// A block that leaves a win in one (a Connect Four threat
			// stacked on another) saves nothing: every move loses.
			must := opponentThreats(g, p)
			if bits.OnesCount64(must) != 1 || threats(g, g.Play(p, bits.TrailingZeros64(must))) != 0 {
				continue
			}
			found++
			for name, pl := range players {
				if m := pl.Move(p); must&(1<<m) == 0 {
					t.Fatalf("%s, %s: played %d where only %d stops the opponent's win", g.Name(), name, m, bits.TrailingZeros64(must))
				}
			}
		}
	}
}

// TestTicTacToeDeepEnoughIsPerfect: nine plies see every game to its end,
// so any model, however poor, plays perfectly with ab9: the exhaustive
// check finds no position where it throws the value away.
func TestTicTacToeDeepEnoughIsPerfect(t *testing.T) {
	ab9, err := search.Parse("ab9")
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range models(t, tictactoe.Game, 5) {
		p := search.Wrap(m, ab9).Player()
		for _, side := range []game.Side{game.X, game.O} {
			if r := verify.Check(p, side); !r.Perfect() {
				t.Errorf("%s@ab9 as %s: %+v", name, side, r)
			}
		}
		// Without the search, it is not.
		if r := verify.Check(m.Player(), game.X); r.Perfect() {
			t.Errorf("%s alone is perfect: the test shows nothing", name)
		}
	}
}

// TestSameMoves: a search's moves depend on the position alone, and
// Explain plays the move Move does.
func TestSameMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := models(t, connect4.Game, 9)["ntuple"]
	for _, spec := range []string{"ab1", "ab4", "mcts200"} {
		s, _ := search.Parse(spec)
		a, b := search.Wrap(m, s).Searcher(), search.Wrap(m, s).Searcher()
		views := make([]float64, 7)
		for range 200 {
			p := play(connect4.Game)
			for n := rng.IntN(30); n > 0 && connect4.Game.Result(p) == game.Ongoing; n-- {
				p = connect4.Game.Play(p, game.RandomMove(connect4.Game, p, rng))
			}
			if connect4.Game.Result(p) != game.Ongoing {
				continue
			}
			if x, y, z := a.Move(p), b.Move(p), b.Explain(p, views); x != y || y != z {
				t.Fatalf("%s: moves %d, %d and %d (Explain) in one position", spec, x, y, z)
			}
		}
	}
}

// TestLimit: a search stopped by its limit plays the best move of the
// deepest search it finished, a legal one.
func TestLimit(t *testing.T) {
	m := models(t, connect4.Game, 4)["ntuple"]
	for _, spec := range []string{"ab42", "mcts1000000"} {
		s, _ := search.Parse(spec)
		w := search.Wrap(m, s)
		w.Limit = 1 // a nanosecond: the first look at the clock stops it
		pl := w.Searcher()
		p := connect4.Game.Start()
		if mv := pl.Move(p); connect4.Game.Legal(p)&(1<<mv) == 0 {
			t.Fatalf("%s: illegal move %d", spec, mv)
		}
		if d := pl.Last().Depth; d >= s.N {
			t.Errorf("%s: finished %d with a nanosecond", spec, d)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]string{"ab4": "ab4", "mcts800": "mcts800", "ab42": "ab42"} {
		s, err := search.Parse(in)
		if err != nil || s.String() != want {
			t.Errorf("Parse(%q) = %v, %v", in, s, err)
		}
	}
	for _, in := range []string{"", "ab", "ab0", "ab43", "ab04", "ab-1", "mcts", "mcts0", "mcts1000001", "uct8", "AB4", "ab 4"} {
		if _, err := search.Parse(in); !errors.Is(err, search.ErrSpec) {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
	for in, want := range map[string]string{"best@ab4": "best ab4", "checkpoint-3@mcts800": "checkpoint-3 mcts800", "12": "12 <nil>", "a@b@ab2": "a@b ab2"} {
		name, s, err := search.Split(in)
		got := name + " <nil>"
		if s != nil {
			got = name + " " + s.String()
		}
		if err != nil || got != want {
			t.Errorf("Split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"@ab4", "best@", "best@x"} {
		if _, _, err := search.Split(in); err == nil {
			t.Errorf("Split(%q): no error", in)
		}
	}
}

// TestContext: a search whose context is done stops at its next look at
// the clock, with a legal move and the context's error, however deep
// its spec; one cancelled while it runs returns too (a search that did
// not stop would keep the test waiting for minutes).
func TestContext(t *testing.T) {
	m := models(t, connect4.Game, 4)["policy"] // the costliest judge: games played out
	p := connect4.Game.Start()
	for _, spec := range []string{"ab42", "mcts1000000"} {
		s, _ := search.Parse(spec)
		done, cancel := context.WithCancel(context.Background())
		cancel()
		pl := search.Wrap(m, s).Searcher()
		mv, err := pl.Think(done, p, nil)
		if !errors.Is(err, context.Canceled) || connect4.Game.Legal(p)&(1<<mv) == 0 || pl.Last().Depth >= s.N {
			t.Errorf("%s with its context done: move %d, error %v, %d finished", spec, mv, err, pl.Last().Depth)
		}

		ctx, cancel := context.WithCancel(context.Background())
		w := search.Wrap(m, s)
		w.Ctx = ctx
		moved := make(chan int)
		go func() { moved <- w.Player().Move(p) }()
		cancel()
		if mv := <-moved; connect4.Game.Legal(p)&(1<<mv) == 0 {
			t.Errorf("%s cancelled: illegal move %d", spec, mv)
		}
	}
}

// doneAfter is a context that is done from its n-th look on: a stop that
// comes at a moment of the search's own, whatever the clock says.
type doneAfter struct {
	context.Context
	n int
}

func (c *doneAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestStopWithoutJudging: a search that judges no new position still
// looks at its context. MCTS over tic-tac-toe soon runs its simulations
// through settled positions alone, a million in a fraction of a second
// judging a few thousand positions: stopped at its 2,000th look, it must
// stop there, far short of its million.
func TestStopWithoutJudging(t *testing.T) {
	s, _ := search.Parse("mcts1000000")
	for name, m := range models(t, tictactoe.Game, 4) {
		w := search.Wrap(m, s)
		w.Ctx = &doneAfter{context.Background(), 2000}
		pl := w.Searcher()
		p := tictactoe.Game.Start()
		if mv := pl.Move(p); tictactoe.Game.Legal(p)&(1<<mv) == 0 {
			t.Errorf("%s: illegal move %d", name, mv)
		}
		if st := pl.Last(); st.Depth >= s.N/10 {
			t.Errorf("%s: %d simulations (%d positions judged) after its context was done", name, st.Depth, st.Nodes)
		}
	}
}

// TestMaxNodes: MCTS's tree stops growing at MaxNodes positions, and so
// does the memory it holds: a million simulations of Connect Four would
// need seven times as many.
func TestMaxNodes(t *testing.T) {
	m := models(t, connect4.Game, 4)["ntuple"]
	s, _ := search.Parse("mcts1000000")
	pl := search.Wrap(m, s).Searcher()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	mv := pl.Move(connect4.Game.Start())
	if connect4.Game.Legal(connect4.Game.Start())&(1<<mv) == 0 {
		t.Fatalf("illegal move %d", mv)
	}
	sims := pl.Last().Depth
	if sims >= s.N || sims < search.MaxNodes/connect4.Game.Moves()/2 {
		t.Errorf("%d simulations in a tree of at most %d positions", sims, search.MaxNodes)
	}
	// The searcher keeps its tree for its next move: what it holds
	// after its garbage is collected is the tree, 64 bytes a position.
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(pl)
	if held := int64(after.HeapAlloc) - int64(before.HeapAlloc); held > 64*search.MaxNodes+4<<20 {
		t.Errorf("the search holds %d MB", held>>20)
	}
}
