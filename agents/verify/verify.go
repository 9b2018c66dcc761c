// Package verify measures exactly how exploitable a deterministic
// tic-tac-toe player is. Tic-tac-toe is small enough to try every opponent line: for the
// side the player takes, the opponent's every reply is followed to the end
// of the game, so "unbeatable" is a proof, not an estimate.
package verify

import (
	"context"
	"math/bits"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
)

// Check plays p as side against every possible opponent line.
func Check(p game.Player, side game.Side) game.Report {
	return check(p, side, nil)
}

// Mistakes returns the positions that Check counts and finds not optimal:
// those p can reach as side where its move throws away a win or a draw,
// in the order the check meets them (depth first, the opponent's replies
// lowest square first).
func Mistakes(p game.Player, side game.Side) []tictactoe.Board {
	var list []tictactoe.Board
	check(p, side, &list)
	return list
}

// check is Check, appending to mistakes (if not nil) every position where
// p's move is not optimal.
func check(p game.Player, side game.Side, mistakes *[]tictactoe.Board) game.Report {
	sol := tictactoe.Solve()
	r := game.Report{Side: side}
	seen := make(map[tictactoe.Board]bool)
	// walk returns the player's worst forced result from b and counts the
	// lines and positions below it.
	var walk func(b tictactoe.Board) game.Value
	walk = func(b tictactoe.Board) game.Value {
		switch res := b.Result(); res {
		case game.Tie:
			r.Lines++
			return game.Draw
		case game.Win(side):
			r.Lines++
			return game.Won
		case game.Win(side.Other()):
			r.Lines++
			r.LostLines++
			return game.Loss
		}
		if b.ToMove() == side {
			sq := p.Move(b.Position())
			if !seen[b] {
				seen[b] = true
				r.Positions++
				if sol.Optimal(b, sq) {
					r.Optimal++
				} else if mistakes != nil {
					*mistakes = append(*mistakes, b)
				}
			}
			return walk(b.Play(sq))
		}
		worst := game.Won
		for m := b.Empty(); m != 0; m &= m - 1 {
			worst = min(worst, walk(b.Play(bits.TrailingZeros16(m))))
		}
		return worst
	}
	r.Worst = walk(tictactoe.Board{})
	return r
}

// Exact returns the exact expected results of p as side against a
// uniformly random opponent: every reply of the opponent is followed with
// its probability, 1 over the number of empty squares, so the figures
// carry no sampling error, where VsRandom's do.
//
// Positions recur along different move orders, so each is computed once:
// the walk visits at most the 5,478 reachable positions and asks p for a
// move in each of its own at most once.
func Exact(p game.Player, side game.Side) game.Expect {
	// slot[i] numbers position i in memo once it is known; 0 is unknown.
	// A table of numbers is a twentieth the size of one of results, and
	// zeroing it is most of the cost of a call.
	var slot [tictactoe.NumIndices]uint16
	memo := make([]game.Expect, 1, 1024)
	var walk func(b tictactoe.Board) game.Expect
	walk = func(b tictactoe.Board) game.Expect {
		switch b.Result() {
		case game.Tie:
			return game.Expect{Draw: 1}
		case game.Win(side):
			return game.Expect{Win: 1}
		case game.Win(side.Other()):
			return game.Expect{Loss: 1}
		}
		i := b.Index()
		if slot[i] != 0 {
			return memo[slot[i]]
		}
		var e game.Expect
		if b.ToMove() == side {
			e = walk(b.Play(p.Move(b.Position())))
		} else {
			empty := b.Empty()
			w := 1 / float64(bits.OnesCount16(empty))
			for ; empty != 0; empty &= empty - 1 {
				r := walk(b.Play(bits.TrailingZeros16(empty)))
				e.Win += w * r.Win
				e.Draw += w * r.Draw
				e.Loss += w * r.Loss
			}
		}
		slot[i] = uint16(len(memo))
		memo = append(memo, e)
		return e
	}
	return walk(tictactoe.Board{})
}

// VsRandom plays games games of p as side against a uniformly random
// opponent seeded with seed. Any number of games may be asked for, so it
// stops, with ctx's error, when ctx is cancelled.
func VsRandom(ctx context.Context, p game.Player, side game.Side, games int, seed uint64) (game.Record, error) {
	var opp game.Player = game.Random{Game: tictactoe.Game, Rand: rand.New(rand.NewPCG(seed, uint64(side)))}
	x, o := p, opp
	if side == game.O {
		x, o = opp, p
	}
	var rec game.Record
	for i := range games {
		// A game takes under a microsecond: looking every 4096 games
		// costs nothing and answers within milliseconds.
		if i%4096 == 0 && ctx.Err() != nil {
			return rec, ctx.Err()
		}
		rec.Add(game.Play(tictactoe.Game, tictactoe.Game.Start(), x, o), side)
	}
	return rec, nil
}

// Classify returns the class of a player whose sides checked as x and o.
func Classify(x, o game.Report) game.Class {
	switch {
	case !x.Unbeatable() || !o.Unbeatable():
		return game.Beatable
	case x.Perfect() && o.Perfect():
		return game.Perfect
	}
	return game.Unbeatable
}
