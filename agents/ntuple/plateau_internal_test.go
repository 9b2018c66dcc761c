package ntuple

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/learn"
	"ttt/agents/verify"
)

// BenchmarkPlateau asks what lifts a grown net past the plateau where a
// league's best stays after half an hour. It takes that best (TTT_NET, a
// file `ttt export` wrote; TTT_NET_GAMES, the training games behind it,
// 30 M by default, for the falling rate) and trains it on for b.N games
// of self-play on one core with one change at a time, then reports the
// shares of the two position sets it keeps. None of these is what a
// league does: they are the tries BENCHMARKS.md reports.
//
//   - td: as a league goes on, the rate falling with the games;
//   - lr0.05: a small constant rate, so that what the rate's noise
//     costs shows;
//   - lines4: the net grown by the 36 lines of four alone (256
//     entries a table), which every position with the same stones on a
//     line shares, whatever is around it;
//   - ema: the falling rate, and the share of the tables' average
//     over the last few hundred thousand games (every 20,000 games,
//     5% of the way to the live tables);
//   - search3, search5: the one-step target of each afterstate is what
//     an alpha-beta search of 3 or 5 plies on the live net finds for
//     the side to move there, not the best of the 1-ply values
//     (TD-Leaf's target at the root, as KnightCap had it); the moves
//     stay the net's greedy ones, the rate constant at 0.19.
func BenchmarkPlateau(b *testing.B) {
	path := os.Getenv("TTT_NET")
	if path == "" {
		b.Skip("TTT_NET names the n-tuple network file to train on")
	}
	played := 30e6
	if s := os.Getenv("TTT_NET_GAMES"); s != "" {
		var err error
		if played, err = strconv.ParseFloat(s, 64); err != nil {
			b.Fatalf("TTT_NET_GAMES: %v", err)
		}
	}
	g := connect4.Game
	falling := func(i int) float32 {
		return float32(learn.Settings{LR: 0.5, LRDecay: 5_000_000}.At(int64(played) + int64(i)).LR)
	}
	constant := func(lr float32) func(int) float32 { return func(int) float32 { return lr } }
	for _, c := range []struct {
		name  string
		rate  func(games int) float32
		grow  int     // grow by the lines of this many cells first (0: none)
		ema   float32 // how far the average moves toward the tables every 20,000 games (0: none)
		depth int     // of the search that sets the targets (0: the 1-ply values)
	}{
		{name: "td", rate: falling},
		{name: "lr0.05", rate: constant(0.05)},
		{name: "lines4", rate: falling, grow: 4},
		{name: "ema", rate: falling, ema: 0.05},
		{name: "search3", rate: constant(0.19), depth: 3},
		{name: "search5", rate: constant(0.19), depth: 5},
	} {
		b.Run(c.name, func(b *testing.B) {
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			read, err := ReadFile(g, data)
			if err != nil || len(read) == 0 {
				b.Fatalf("%s: not an n-tuple network file (%v)", path, err)
			}
			n := read[0].Model.(*Net)
			if c.grow > 0 {
				if n, err = n.Grow(Lines(g.Board(), c.grow, rand.New(rand.NewPCG(9, uint64(c.grow))))); err != nil {
					b.Fatal(err)
				}
			}
			rng := rand.New(rand.NewPCG(1, 2))
			l := NewTD(n, c.rate(0), 0.5, 16, 1, rng)
			average := n.Clone()
			var s *targetSearch
			if c.depth > 0 {
				s = newTargetSearch(n, c.depth)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%100_000 == 0 {
					l.LR = c.rate(i)
				}
				if s != nil {
					s.play(l, 0.1)
				} else {
					l.Play(game.Side(i%2), nil, 0.1)
				}
				if c.ema > 0 && (i+1)%20_000 == 0 {
					for k, w := range n.W {
						average.W[k] += c.ema * (w - average.W[k])
					}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			p := &Player{Net: n}
			b.ReportMetric(verify.CheckSet(p, connect4.RandomSet()).All.Percent(), "random-set-%")
			b.ReportMetric(verify.CheckSet(p, connect4.PositionSet()).All.Percent(), "tactical-set-%")
			if c.ema > 0 {
				p := &Player{Net: average}
				b.ReportMetric(verify.CheckSet(p, connect4.RandomSet()).All.Percent(), "average-random-set-%")
				b.ReportMetric(verify.CheckSet(p, connect4.PositionSet()).All.Percent(), "average-tactical-set-%")
			}
		})
	}
}

// targetSearch plays BenchmarkPlateau's games whose targets come from an
// alpha-beta search on the live net.
type targetSearch struct {
	n      *Net
	depth  int
	passes []Pass      // a ply's
	values [][]float32 // a ply's
	steps  []searchedStep
	pass   Pass
}

// searchedStep is a move of a searched game: the entries of its
// afterstate (none where it ended the game), the exact score where it
// did, whether it was random, and what the search found the position
// before it worth to its mover.
type searchedStep struct {
	entries  []int32
	ended    bool
	worth    float32
	explored bool
	best     float32
}

func newTargetSearch(n *Net, depth int) *targetSearch {
	s := &targetSearch{n: n, depth: depth, passes: make([]Pass, depth+1), values: make([][]float32, depth+1)}
	for i := range s.values {
		s.values[i] = make([]float32, n.Game.Moves())
	}
	return s
}

// value is what p, in play, is worth to its side to move, searched depth
// plies deep by alpha-beta within (alpha, beta), the net's values of the
// afterstates at the last ply, a win the rules settle first.
//
// Package search's alpha-beta plays a move; a target needs the value,
// on the net's own scale of 0 to 1, which that search gives only with a
// full window at the root and iterative deepening, several times the
// cost. So the few lines of negamax are here.
func (s *targetSearch) value(p game.Position, depth int, alpha, beta float32) float32 {
	g := s.n.Game
	values := s.values[depth]
	_, best := s.n.Afterstates(p, &s.passes[depth], values)
	if depth == 1 || best == ScoreWin {
		return best
	}
	var order [8]int // the moves, the net's best first
	k := 0
	for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
		order[k] = bits.TrailingZeros64(legal)
		for j := k; j > 0 && values[order[j]] > values[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
		k++
	}
	side := g.ToMove(p)
	most := float32(-1)
	for _, m := range order[:k] {
		q := g.Play(p, m)
		v := float32(0)
		if r := g.Result(q); r != game.Ongoing {
			v = score(r, side)
		} else {
			v = 1 - s.value(q, depth-1, 1-beta, 1-max(alpha, most))
		}
		if v > most {
			if most = v; most >= beta {
				break
			}
		}
	}
	return most
}

// play plays a game of self-play after up to 16 random moves, the net's
// greedy moves otherwise but at rate epsilon, and learns from it by
// TD(λ) with the search's values as the one-step targets.
func (s *targetSearch) play(l *TD, epsilon float64) {
	g, n := s.n.Game, s.n
	rng := l.Rand
	s.steps = s.steps[:0]
	p := g.Start()
	random := rng.IntN(l.Openings + 1)
	values := s.values[0] // the search's plies are 1 to depth
	for g.Result(p) == game.Ongoing {
		mover := g.ToMove(p)
		m, _ := n.Afterstates(p, &s.pass, values)
		var best float32
		if len(s.steps) >= random {
			best = s.value(p, s.depth, -1, 2)
		}
		explored := false
		if len(s.steps) < random || rng.Float64() < epsilon {
			m, explored = game.RandomMove(g, p, rng), true
		}
		q := g.Play(p, m)
		st := searchedStep{explored: explored, best: best}
		if r := g.Result(q); r != game.Ongoing {
			st.ended, st.worth = true, score(r, mover)
		} else {
			n.indices(q, &s.pass)
			st.entries = n.entries(mover, s.pass.index, nil)
		}
		s.steps = append(s.steps, st)
		p = q
	}
	var target float32 // the λ-return of the next afterstate, to its mover
	for j := len(s.steps) - 1; j >= 0; j-- {
		st := s.steps[j]
		if st.ended {
			target = st.worth
			continue
		}
		if j+1 < random {
			break // the random opening: the position after this move was not searched
		}
		next := s.steps[j+1]
		if next.explored {
			target = 1 - next.best
		} else {
			target = 1 - ((1-l.Lambda)*next.best + l.Lambda*target)
		}
		n.learn(st.entries, target, l.LR)
	}
}
