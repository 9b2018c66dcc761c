package verify

import "ttt/agents/game"

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
func CheckSet(p game.Player, set []game.Solved) game.Shares {
	var s game.Shares
	for _, l := range set {
		in := [...]*game.Score{&s.Early, &s.Middle, &s.Late}[phase(l.Plies)]
		kept := 0
		if v, ok := l.Values[p.Move(l.Position)]; ok && v == l.Best() {
			kept = 1
		}
		for _, sc := range []*game.Score{&s.All, in} {
			sc.Positions++
			sc.Optimal += kept
		}
	}
	return s
}
