package expert

import "math"

// Adam is the optimiser of a network's weights (Kingma and Ba): each
// weight steps by its gradient's running mean over the root of its
// running mean square, so that weights whose gradients are small or
// rare (a filter that sees a pattern seldom met) learn as fast as the
// rest, which plain gradient descent on a convolutional net does not.
// Decay pulls every weight toward zero by a share of the rate each
// step (Loshchilov and Hutter's decoupled weight decay), which keeps a
// net trained for hours from growing weights that fit its labels' noise.
type Adam struct {
	LR, Decay float32
	Steps     int64
	M, V      []float32 // the running means of each weight's gradient and its square
}

// The moments' rates of forgetting, as Kingma and Ba give them.
const (
	beta1   = 0.9
	beta2   = 0.999
	epsilon = 1e-8
)

// NewAdam returns an optimiser of size weights.
func NewAdam(size int, lr, decay float32) *Adam {
	return &Adam{LR: lr, Decay: decay, M: make([]float32, size), V: make([]float32, size)}
}

// Step moves w by the gradient grad, as one step of Adam.
func (a *Adam) Step(w, grad []float32) {
	a.Steps++
	// The moments start at zero: dividing by 1-β^t unbiases them.
	c1 := float32(1 - math.Pow(beta1, float64(a.Steps)))
	c2 := float32(1 - math.Pow(beta2, float64(a.Steps)))
	lr := a.LR * float32(math.Sqrt(float64(c2))) / c1
	for i, g := range grad {
		m := beta1*a.M[i] + (1-beta1)*g
		v := beta2*a.V[i] + (1-beta2)*g*g
		a.M[i], a.V[i] = m, v
		w[i] -= lr*m/(float32(math.Sqrt(float64(v)))+epsilon) + a.LR*a.Decay*w[i]
	}
}
