package expert

import (
	"fmt"
	"math/rand/v2"

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

// New returns the learner of net as a league's settings s say.
func New(net Net, s learn.Settings, rng *rand.Rand) *Expert {
	return NewExpert(net, s.Int(TeacherDepth.Name), s.Int(learn.RandomPlies.Name), s.Int(Buffer.Name), float32(s.LR), rng)
}

// Resume reads back a learner that MarshalBinary stored, its network
// by decode, as a league's settings s say.
func Resume(state []byte, decode func([]byte) (Net, error), s learn.Settings, rng *rand.Rand) (*Expert, error) {
	return Unmarshal(state, decode, s.Int(TeacherDepth.Name), s.Int(learn.RandomPlies.Name), float32(s.LR), rng)
}
