package verify

import (
	"fmt"
	"ttt/agents/game"
)

// Score counts the positions of a set where a player moved, and those
// where its move kept the position's game-theoretic value.
type Score struct {
	Optimal, Positions int
}

// Share is Optimal / Positions; 0 for no positions.
func (s Score) Share() float64 { return float64(s.Optimal) / float64(max(s.Positions, 1)) }

// Percent is the share in percent, computed in one division so that it
// is the double nearest the exact percentage (52.3, not 100*0.523 =
// 52.300000000000004).
func (s Score) Percent() float64 { return float64(100*s.Optimal) / float64(max(s.Positions, 1)) }

// Shares is what a fixed set of solved positions says of a player, where
// the game is too large to try every line (Connect Four): the share of
// the positions where its move keeps the value, overall and by phase of
// the game.
type Shares struct {
	All                 Score
	Early, Middle, Late Score
}

// String summarises s on one line.
func (s Shares) String() string {
	return fmt.Sprintf("optimal moves %.1f%% (%d/%d positions; early %.1f%%, middle %.1f%%, late %.1f%%)",
		100*s.All.Share(), s.All.Optimal, s.All.Positions, 100*s.Early.Share(), 100*s.Middle.Share(), 100*s.Late.Share())
}

// Facts is what ttt keeps of a player's checks, computed once, when the
// player joins a league: frozen players never change. Which of them a
// player has depends on its game.
type Facts struct {
	// Verify is tic-tac-toe's exhaustive check as X and as O.
	Verify []Report
	// Class sums Verify up: perfect, unbeatable or beatable. Every
	// checked Connect Four network is beatable.
	Class Class
	// VsRandom is tic-tac-toe's exact chance of each result against a
	// uniformly random opponent, as X and as O.
	VsRandom []Expect
	// Shares is Connect Four's check on its tactical position set, and
	// Random the share on its set of random positions.
	Shares *Shares
	Random *Score
}

// Phase bounds: a position of up to EarlyPlies moves is early, of up to
// MiddlePlies middle, and later ones late.
const (
	EarlyPlies  = 14
	MiddlePlies = 22
)

// RandomShare is the expected share of a uniformly random player's moves
// that keep the value on set, overall and in the early, middle and late
// phases: the floor of CheckSet's figures, exactly.
func RandomShare(set []game.Solved) (all float64, phases [3]float64) {
	var n [3]int
	for _, p := range set {
		kept := 0
		for _, v := range p.Values {
			if v == p.Best() {
				kept++
			}
		}
		share := float64(kept) / float64(len(p.Values))
		ph := phase(p.Plies)
		all += share
		phases[ph] += share
		n[ph]++
	}
	all /= float64(max(len(set), 1))
	for i := range phases {
		phases[i] /= float64(max(n[i], 1))
	}
	return all, phases
}

// phase numbers the phase of a position of plies moves: 0 early, 1
// middle, 2 late.
func phase(plies int) int {
	switch {
	case plies <= EarlyPlies:
		return 0
	case plies <= MiddlePlies:
		return 1
	}
	return 2
}

// CheckSet plays p in every position of set and counts where its move
// keeps the position's value, overall and by phase.
func CheckSet(p game.Player, set []game.Solved) Shares {
	var s Shares
	for _, l := range set {
		in := [...]*Score{&s.Early, &s.Middle, &s.Late}[phase(l.Plies)]
		kept := 0
		if v, ok := l.Values[p.Move(l.Position)]; ok && v == l.Best() {
			kept = 1
		}
		for _, sc := range []*Score{&s.All, in} {
			sc.Positions++
			sc.Optimal += kept
		}
	}
	return s
}

// Verdict is what the listings print of f in a word: the class of a
// tic-tac-toe player, the optimal share of a Connect Four one, "" for a
// player that was not checked.
func (f Facts) Verdict() string {
	switch {
	case f.Shares != nil && f.Random != nil:
		return fmt.Sprintf("%.1f%% rand, %.1f%% tact", 100*f.Random.Share(), 100*f.Shares.All.Share())
	case f.Shares != nil:
		return fmt.Sprintf("%.1f%% opt", 100*f.Shares.All.Share())
	case f.Verify != nil:
		return f.Class.String()
	}
	return ""
}
