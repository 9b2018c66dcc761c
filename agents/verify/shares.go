package verify

import "fmt"

// Score counts the positions of a set where a player moved, and those
// where its move kept the position's game-theoretic value.
type Score struct {
	Optimal, Positions int
}

// Share is Optimal / Positions; 0 for no positions.
func (s Score) Share() float64 { return float64(s.Optimal) / float64(max(s.Positions, 1)) }

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
	// Shares is Connect Four's position-set check.
	Shares *Shares
}
