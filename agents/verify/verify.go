// Package verify measures exactly how exploitable a deterministic player
// is. Tic-tac-toe is small enough to try every opponent line: for the
// side the player takes, the opponent's every reply is followed to the end
// of the game, so "unbeatable" is a proof, not an estimate.
package verify

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"ttt/agents"
	"ttt/agents/game"
)

// Report is what the exhaustive check finds for one side.
type Report struct {
	Side game.Side
	// Worst is the worst result the opponent can force: Won, Draw or Loss
	// from the player's point of view.
	Worst game.Value
	// Lines counts every complete game the opponent can steer the player
	// into; LostLines those the player loses.
	Lines, LostLines int
	// Positions counts the distinct positions where the player is to move
	// on some line; Optimal those where its move keeps the position's
	// game-theoretic value (it never throws away a win or a draw).
	Positions, Optimal int
}

// Unbeatable reports whether no opponent line beats the player.
func (r Report) Unbeatable() bool { return r.Worst != game.Loss }

// OptimalShare is Optimal / Positions.
func (r Report) OptimalShare() float64 { return float64(r.Optimal) / float64(max(r.Positions, 1)) }

// String summarises r on one line.
func (r Report) String() string {
	verdict := "beatable"
	if r.Unbeatable() {
		verdict = "unbeatable"
	}
	return fmt.Sprintf("%s: %s, worst forced result %s, lost lines %d/%d, optimal moves %.1f%% (%d/%d positions)",
		r.Side, verdict, r.Worst, r.LostLines, r.Lines, 100*r.OptimalShare(), r.Optimal, r.Positions)
}

// Check plays p as side against every possible opponent line.
func Check(p agents.Player, side game.Side) Report {
	sol := game.Solve()
	r := Report{Side: side}
	seen := make(map[game.Board]bool)
	// walk returns the player's worst forced result from b and counts the
	// lines and positions below it.
	var walk func(b game.Board) game.Value
	walk = func(b game.Board) game.Value {
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
			sq := p.Move(b)
			if !seen[b] {
				seen[b] = true
				r.Positions++
				if sol.Optimal(b, sq) {
					r.Optimal++
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
	r.Worst = walk(game.Board{})
	return r
}

// Tally is a record of games against the random opponent.
type Tally struct {
	Wins, Draws, Losses int
}

// String formats t as W/D/L.
func (t Tally) String() string { return fmt.Sprintf("W/D/L %d/%d/%d", t.Wins, t.Draws, t.Losses) }

// VsRandom plays games games of p as side against a uniformly random
// opponent seeded with seed.
func VsRandom(p agents.Player, side game.Side, games int, seed uint64) Tally {
	var opp agents.Player = agents.Random{Rand: rand.New(rand.NewPCG(seed, uint64(side)))}
	x, o := p, opp
	if side == game.O {
		x, o = opp, p
	}
	var t Tally
	for range games {
		switch agents.Play(game.Board{}, x, o) {
		case game.Win(side):
			t.Wins++
		case game.Tie:
			t.Draws++
		default:
			t.Losses++
		}
	}
	return t
}
