package nn

import (
	"math"
	"testing"
)

func TestExp32(t *testing.T) {
	worst := 0.0
	for x := float32(-87); x <= 0; x += 0.00137 {
		got := float64(exp32(x))
		want := math.Exp(float64(x))
		if rel := math.Abs(got-want) / want; rel > worst {
			worst = rel
		}
	}
	// Two units in the last place of float32.
	if worst > 2.4e-7 {
		t.Errorf("exp32 relative error up to %g", worst)
	}
	if exp32(0) != 1 || exp32(-200) != 0 {
		t.Errorf("exp32(0) = %v, exp32(-200) = %v", exp32(0), exp32(-200))
	}
}
