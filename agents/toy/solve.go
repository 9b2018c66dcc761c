package toy

import (
	"context"
	"math/rand/v2"
	"sync"

	"ttt/agents/game"
	"ttt/agents/verify"
)

// Connect Three is small enough to solve whole: every position a game
// reaches, with its score for the side to move, found once by negamax.
// A score is 0 for a draw, 21-k for a win in k plies and k-21 for a loss
// in k plies: the best score is the quickest win, or the slowest loss.
var scores = sync.OnceValue(func() map[game.Position]int {
	memo := map[game.Position]int{}
	var solve func(p game.Position) int
	solve = func(p game.Position) int {
		if s, ok := memo[p]; ok {
			return s
		}
		s := -(cells + 1) // lost now: the opponent's last move made a line
		switch Game.Result(p) {
		case game.Tie:
			s = 0
		case game.Ongoing:
			for m := range Cols {
				if Game.Legal(p)&(1<<m) != 0 {
					s = max(s, after(solve(Game.Play(p, m))))
				}
			}
		}
		memo[p] = s
		return s
	}
	solve(Game.Start())
	return memo
})

// after is the score of a move for the side that plays it, from the
// score of the position it leads to, for the other side: a ply further
// from the end.
func after(s int) int {
	switch {
	case s > 0:
		return -(s - 1)
	case s < 0:
		return -(s + 1)
	}
	return 0
}

// outcomes are the outcomes of the moves of p, by move.
func outcomes(p game.Position) map[int]game.Outcome {
	out := map[int]game.Outcome{}
	for m := range Cols {
		if Game.Legal(p)&(1<<m) == 0 {
			continue
		}
		switch s := after(scores()[Game.Play(p, m)]); {
		case s > 0:
			out[m] = game.Outcome{Value: game.Won, Plies: cells + 1 - s}
		case s < 0:
			out[m] = game.Outcome{Value: game.Loss, Plies: cells + 1 + s}
		default:
			out[m] = game.Outcome{Value: game.Draw}
		}
	}
	return out
}

// solved is p with the value of each of its moves.
func solved(p game.Position) game.Solved {
	s := game.Solved{Position: p, Plies: Game.Plies(p), Values: map[int]game.Value{}}
	for m, o := range outcomes(p) {
		s.Values[m] = o.Value
	}
	return s
}

// randomSet returns n positions, not finished, reached by random moves
// from the start, drawn with seed: the positions a check plays.
func randomSet(seed uint64, n int) []game.Solved {
	rng := rand.New(rand.NewPCG(seed, 0))
	var set []game.Solved
	for len(set) < n {
		p, stop := Game.Start(), rng.IntN(Game.MaxPlies()-2)
		for Game.Plies(p) < stop && Game.Result(p) == game.Ongoing {
			p = Game.Play(p, game.RandomMove(Game, p, rng))
		}
		if Game.Result(p) == game.Ongoing {
			set = append(set, solved(p))
		}
	}
	return set
}

// The two position sets, of 500 positions each.
var (
	positions = sync.OnceValue(func() []game.Solved { return randomSet(1, 500) })
	random    = sync.OnceValue(func() []game.Solved { return randomSet(2, 500) })
)

// check measures a player on the position sets.
func check(p game.Player) game.Facts {
	s := verify.CheckSet(p, positions())
	r := verify.CheckSet(p, random()).All
	return game.Facts{Class: game.Beatable, Shares: &s, Random: &r}
}

// analyze is the outcome of each move of p, from the solved game.
func analyze(_ context.Context, p game.Position) (map[int]game.Outcome, error) {
	return outcomes(p), nil
}
