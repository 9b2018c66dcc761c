package verify

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

// Classify returns the class of a player whose sides checked as x and o.
func Classify(x, o Report) Class {
	switch {
	case !x.Unbeatable() || !o.Unbeatable():
		return Beatable
	case x.Perfect() && o.Perfect():
		return Perfect
	}
	return Unbeatable
}

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
