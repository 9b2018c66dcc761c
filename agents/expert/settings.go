package expert

import (
	"fmt"

	"ttt/agents/learn"
)

// The settings every network taught by expert iteration reads: one
// value a league, whichever of its lines read it.
var (
	TeacherDepth = &learn.Setting{Name: "teacher_depth", Usage: "plies of the alpha-beta search whose values the convolutional and lines networks learn", Whole: true,
		In: func(v float64) bool { return v >= 1 && v <= 12 }, Range: "within 1..12"}
	Buffer = &learn.Setting{Name: "buffer", Usage: "labelled positions the convolutional and lines learners keep to learn from, the newest", Whole: true,
		In: func(v float64) bool { return v >= BatchSize && v <= MaxBuffer }, Range: fmt.Sprintf("within %d..%d", BatchSize, MaxBuffer)}
)
