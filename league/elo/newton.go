package elo

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

const (
	// tolElo stops the Newton iterations once no rating would move by more
	// than this many Elo: 100 times finer than any table prints, and Newton
	// converges quadratically, so the error left is smaller still.
	tolElo = 1e-4

	// fullStepElo is the largest Newton step taken whole without checking
	// it against the slope. A game's curvature n·p·(1-p) changes by at most
	// a factor e^(2δ) when the ratings move by δ logits (|σ''| ≤ σ'), about
	// 1.2% for 1 Elo, so below this Newton's quadratic model is accurate
	// and checking would only cost steps.
	fullStepElo = 1.0

	// maxNewton bounds the Newton iterations. Leagues need 3 to 10.
	maxNewton = 200

	// cgTol is the residual, relative to the gradient, at which conjugate
	// gradients stop solving for a Newton step. An inexact step only slows
	// Newton down, by about this factor per step; it never changes where it
	// converges, since that is where the gradient is 0.
	cgTol = 1e-6

	// parts is how many pieces the passes over the games are cut into, to
	// run at once. It is fixed, not the number of CPUs, because the pieces'
	// sums are added in a fixed order: that keeps the result the same, to
	// the bit, on every machine.
	parts = 4
)

// inParts runs f on the agents of each part at once, each with its own
// zeroed buffer of size floats to add into, and returns the buffers: the
// caller adds them up in part order.
func (gr *graph) inParts(size int, f func(from, to int, buf []float64)) [parts][]float64 {
	var bufs [parts][]float64
	var wg sync.WaitGroup
	for p := range parts {
		bufs[p] = make([]float64, size)
		wg.Go(func() { f(gr.cut[p], gr.cut[p+1], bufs[p]) })
	}
	wg.Wait()
	return bufs
}

// eval is the log-posterior's slope and curvature at some ratings x (in
// logits): what Newton needs to step from there.
type eval struct {
	g    []float64 // gradient of the log-posterior; 0 at the anchors
	w    []float64 // curvature n·p·(1-p) of each edge
	diag []float64 // curvature per agent: its edges' w, plus the prior's
}

// evaluate computes eval at x; prec is the prior's precision per logit².
// It uses the Bradley-Terry form p = E_a/(E_a+E_b) with E = e^(x - max x):
// one exp per agent instead of one per edge, and E never overflows. It
// skips the log-posterior itself, whose log per edge would triple the cost:
// the line search in maximise needs only the slope.
func (gr *graph) evaluate(x []float64, prec float64, ev *eval) {
	top := slices.Max(x)
	E := make([]float64, len(x))
	for k := range x {
		E[k] = math.Exp(x[k] - top)
	}
	// Each part keeps the gradient in the first half of its buffer and
	// the curvature in the second.
	n := len(x)
	bufs := gr.inParts(2*n, func(from, to int, buf []float64) {
		g, diag := buf[:n], buf[n:]
		for a := from; a < to; a++ {
			ga, da := 0.0, 0.0 // a's own sums stay in registers
			for e := gr.first[a]; e < gr.first[a+1]; e++ {
				b, games := gr.j[e], gr.n[e]
				pa := E[a] / (E[a] + E[b])
				r := gr.s[e] - games*pa // a's score minus its expected score
				w := games * pa * (1 - pa)
				ev.w[e] = w
				ga, da = ga+r, da+w
				g[b] -= r
				diag[b] += w
			}
			g[a] += ga
			diag[a] += da
		}
	})
	for k := range x {
		ev.g[k], ev.diag[k] = 0, 0
		if !gr.fixed[k] {
			ev.g[k], ev.diag[k] = -prec*x[k], prec
		}
		for _, buf := range bufs {
			ev.g[k] += buf[k]
			ev.diag[k] += buf[n+k]
		}
		if gr.fixed[k] {
			ev.g[k] = 0
		}
	}
}

// maximise runs damped Newton iterations on the log-posterior from a
// rough start, and returns the ratings (in logits) with the eval there.
//
// Each Newton step solves H·d = g, where H, the negative Hessian with the
// anchors' rows and columns removed, is the league's weighted graph Laplacian
// (edge weights n·p·(1-p)) plus the prior's precision on the diagonal. H is
// dense for a full round-robin, so instead of factorising it (O(n³)) the
// step comes from conjugate gradients, each iteration of which costs one
// pass over the edges.
//
// The log-posterior is concave, so along d it rises while its slope g·d is
// positive. A step t·d whose slope is still ≥ 0 at the far end has not
// passed the maximum along d; halving t until that holds lands in the
// second half of the way to it, so every step gains at least half of what
// a perfect line search would, which is enough for Newton to converge from
// any start.
func (gr *graph) maximise(prec float64) ([]float64, *eval, error) {
	n := len(gr.ids)
	newEval := func() *eval {
		return &eval{g: make([]float64, n), w: make([]float64, len(gr.j)), diag: make([]float64, n)}
	}
	x, trial := gr.start(), make([]float64, n)
	cur, next := newEval(), newEval()
	gr.evaluate(x, prec, cur)
	for range maxNewton {
		// STEP 1: the Newton step d, and its size in Elo.
		d := gr.solve(cur, prec)
		step := 0.0
		for _, v := range d {
			step = max(step, math.Abs(v)*eloPerLogit)
		}
		if step < tolElo {
			return x, cur, nil
		}
		if !(step <= math.MaxFloat64) {
			// Only ratings some 100,000 Elo apart, where e^x underflows,
			// could make a NaN; a clear error beats halving it forever.
			return nil, nil, errors.New("elo: the ratings left float64's range")
		}
		// STEP 2: take as much of it as keeps the slope along d positive.
		for t := 1.0; ; t /= 2 {
			for k := range x {
				trial[k] = x[k] + t*d[k]
			}
			gr.evaluate(trial, prec, next)
			if step*t <= fullStepElo || dot(next.g, d) >= 0 {
				break
			}
		}
		x, trial = trial, x
		cur, next = next, cur
	}
	return nil, nil, fmt.Errorf("elo: no convergence in %d Newton steps", maxNewton)
}

// start returns the first guess at the ratings: each agent's overall score
// as log-odds, x = ln((s+½)/(n-s+½)), shifted to put the anchors' mean
// there, and the anchors at their values. In a round-robin this is the
// right order and about the right spread, and saves Newton the early steps
// it would need from all zeros.
func (gr *graph) start() []float64 {
	score, games := make([]float64, len(gr.ids)), make([]float64, len(gr.ids))
	for a := range gr.ids {
		for e := gr.first[a]; e < gr.first[a+1]; e++ {
			b := gr.j[e]
			score[a] += gr.s[e]
			score[b] += gr.n[e] - gr.s[e]
			games[a] += gr.n[e]
			games[b] += gr.n[e]
		}
	}
	x := make([]float64, len(gr.ids))
	base, anchors := 0.0, 0
	for k := range x {
		x[k] = math.Log((score[k] + 0.5) / (games[k] - score[k] + 0.5))
		if gr.fixed[k] {
			base += gr.value[k]/eloPerLogit - x[k]
			anchors++
		}
	}
	base /= float64(anchors)
	for k := range x {
		x[k] += base
		if gr.fixed[k] {
			x[k] = gr.value[k] / eloPerLogit
		}
	}
	return x
}

// solve returns d with H·d ≈ ev.g by preconditioned conjugate gradients.
// The anchors' entries stay 0. A partial solution is still a direction of
// ascent, so the iteration cap only costs speed.
//
// The preconditioner has two levels. H's diagonal (Jacobi) handles each
// agent against its opponents, which in a round-robin is nearly all of H.
// What it misses is everyone moving together against the anchors, held
// only by the anchors' games and the prior: the curvature along that
// direction 1 (all but the anchors) is 1ᵀH1, the anchors' curvature (no
// edge joins two anchors) plus the prior's, and adding its inverse along 1
// cut the iterations by a third on BenchmarkFit1000.
func (gr *graph) solve(ev *eval, prec float64) []float64 {
	n := len(ev.g)
	d, r, z, p, hp := make([]float64, n), slices.Clone(ev.g), make([]float64, n), make([]float64, n), make([]float64, n)
	together, free := 0.0, 0 // 1ᵀH1, and the agents along 1
	for k := range ev.diag {
		if gr.fixed[k] {
			together += ev.diag[k]
		} else {
			free++
		}
	}
	together += prec * float64(free)
	precond := func() {
		sum := 0.0
		for k := range r {
			if !gr.fixed[k] {
				sum += r[k]
			}
		}
		for k := range r {
			if !gr.fixed[k] {
				z[k] = r[k]/ev.diag[k] + sum/together
			}
		}
	}
	precond()
	copy(p, z)
	rz := dot(r, z)
	stop := cgTol * cgTol * dot(ev.g, ev.g)
	for it := 0; it < n+10 && dot(r, r) > stop; it++ {
		gr.mulH(ev, p, hp)
		alpha := rz / dot(p, hp)
		for k := range d {
			d[k] += alpha * p[k]
			r[k] -= alpha * hp[k]
		}
		precond()
		rzNext := dot(r, z)
		for k := range p {
			p[k] = z[k] + rzNext/rz*p[k]
		}
		rz = rzNext
	}
	return d
}

// mulH sets out = H·v: the off-diagonal entries edge by edge, in parts,
// then the diagonal.
func (gr *graph) mulH(ev *eval, v, out []float64) {
	bufs := gr.inParts(len(v), func(from, to int, buf []float64) {
		for a := from; a < to; a++ {
			va, acc := v[a], 0.0
			for e := gr.first[a]; e < gr.first[a+1]; e++ {
				b, w := gr.j[e], ev.w[e]
				acc += w * v[b]
				buf[b] -= w * va
			}
			buf[a] -= acc
		}
	})
	for k := range out {
		out[k] = ev.diag[k] * v[k]
		for _, buf := range bufs {
			out[k] += buf[k]
		}
		if gr.fixed[k] {
			out[k] = 0
		}
	}
}

// dot is the inner product of a and b, summed in order.
func dot(a, b []float64) float64 {
	s := 0.0
	for k := range a {
		s += a[k] * b[k]
	}
	return s
}
