package game

import "fmt"

// The facts of a player: what the checks of package verify find of how
// it plays, computed once, when it joins a league, and kept with it in
// the league database. They are plain data, held here rather than beside
// the checks so that what keeps them (the store) needs the game's types
// and not the checks, which play the player.

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

// Class sums up the exhaustive check of both sides of a player, the
// order in which ttt prefers its checkpoints: a perfect one before an
// unbeatable one before the rest, whatever their ratings. The ratings
// come from matches over fixed openings, so a hole that no opponent's
// line reaches costs a network nothing there; the check sees every line.
type Class int8

// The classes, worst first.
const (
	Beatable   Class = iota // some opponent line beats it, on one side at least
	Unbeatable              // no line beats it, on either side
	Perfect                 // and every move it makes keeps the game's value
)

// String names c as the round line and the leaderboard print it.
func (c Class) String() string {
	switch c {
	case Perfect:
		return "perfect"
	case Unbeatable:
		return "unbeatable"
	}
	return "beatable"
}

// Report is what the exhaustive check finds for one side.
type Report struct {
	Side Side
	// Worst is the worst result the opponent can force: Won, Draw or Loss
	// from the player's point of view.
	Worst Value
	// Lines counts every complete game the opponent can steer the player
	// into; LostLines those the player loses.
	Lines, LostLines int
	// Positions counts the distinct positions where the player is to move
	// on some line; Optimal those where its move keeps the position's
	// game-theoretic value (it never throws away a win or a draw).
	Positions, Optimal int
}

// Unbeatable reports whether no opponent line beats the player.
func (r Report) Unbeatable() bool { return r.Worst != Loss }

// Perfect reports whether the player keeps the game-theoretic value in
// every position it can reach: it never throws away a win or a draw, so
// it wins every game the opponent's mistakes let it win.
func (r Report) Perfect() bool { return r.Positions > 0 && r.Optimal == r.Positions }

// OptimalShare is Optimal / Positions.
func (r Report) OptimalShare() float64 { return float64(r.Optimal) / float64(max(r.Positions, 1)) }

// OptimalPercent is OptimalShare in percent, in one division (see
// Score.Percent).
func (r Report) OptimalPercent() float64 {
	return Score{Optimal: r.Optimal, Positions: r.Positions}.Percent()
}

// String summarises r on one line.
func (r Report) String() string {
	verdict := "beatable"
	switch {
	case r.Perfect():
		verdict = "perfect"
	case r.Unbeatable():
		verdict = "unbeatable"
	}
	return fmt.Sprintf("%s: %s, worst forced result %s, lost lines %d/%d, optimal moves %.1f%% (%d/%d positions)",
		r.Side, verdict, r.Worst, r.LostLines, r.Lines, 100*r.OptimalShare(), r.Optimal, r.Positions)
}

// Expect is the exact distribution of the results of a player's games
// against a uniformly random opponent, from the player's point of view.
type Expect struct {
	Win, Draw, Loss float64
}

// Score is the expected share of the points, a draw being half a point,
// as the league counts a match.
func (e Expect) Score() float64 { return e.Win + e.Draw/2 }

// String formats e as percentages.
func (e Expect) String() string {
	return fmt.Sprintf("W/D/L %.2f%%/%.2f%%/%.2f%%", 100*e.Win, 100*e.Draw, 100*e.Loss)
}

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
// the game (verify.EarlyPlies and verify.MiddlePlies bound the phases).
type Shares struct {
	All                 Score
	Early, Middle, Late Score
}

// String summarises s on one line.
func (s Shares) String() string {
	return fmt.Sprintf("optimal moves %s (%d/%d positions; early %s, middle %s, late %s)",
		s.All.text(), s.All.Optimal, s.All.Positions, s.Early.text(), s.Middle.text(), s.Late.text())
}

// text is the share in percent, or none for a phase without positions,
// whose share would read as a player that kept no value.
func (s Score) text() string {
	if s.Positions == 0 {
		return "none"
	}
	return fmt.Sprintf("%.1f%%", 100*s.Share())
}
