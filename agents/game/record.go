package game

import "fmt"

// Record counts finished games from one player's side: the games it won,
// drew and lost. It is the one shape of a score in ttt: a match between
// two agents, a trainer's window of games, a run against random.
type Record struct {
	Wins, Draws, Losses int
}

// Add counts one game that ended in r, played as side.
func (rec *Record) Add(r Result, side Side) {
	switch r {
	case Tie:
		rec.Draws++
	case Win(side):
		rec.Wins++
	default:
		rec.Losses++
	}
}

// Games is the number of games counted.
func (rec Record) Games() int { return rec.Wins + rec.Draws + rec.Losses }

// Points are the points won, a draw being half a point.
func (rec Record) Points() float64 { return float64(rec.Wins) + float64(rec.Draws)/2 }

// Score is the share of the points won; 0 for no games.
func (rec Record) Score() float64 { return rec.Points() / float64(max(rec.Games(), 1)) }

// Reversed is the same games from the opponent's side.
func (rec Record) Reversed() Record { return Record{rec.Losses, rec.Draws, rec.Wins} }

// Plus is rec and other counted together.
func (rec Record) Plus(other Record) Record {
	return Record{rec.Wins + other.Wins, rec.Draws + other.Draws, rec.Losses + other.Losses}
}

// Minus is rec without the games of other, which it counts.
func (rec Record) Minus(other Record) Record {
	return Record{rec.Wins - other.Wins, rec.Draws - other.Draws, rec.Losses - other.Losses}
}

// String formats the record as W/D/L.
func (rec Record) String() string {
	return fmt.Sprintf("W/D/L %d/%d/%d", rec.Wins, rec.Draws, rec.Losses)
}
