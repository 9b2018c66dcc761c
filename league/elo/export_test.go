package elo

import (
	"errors"
	"fmt"
	"unsafe"
)

// FitPrior is Fit with the prior's standard deviation in Elo as a parameter;
// +Inf gives pure maximum likelihood, so tests can measure the prior.
var FitPrior = fit

// PriorSD is the prior's standard deviation Fit uses, for tests that
// rebuild the log-posterior independently.
const PriorSD = priorSD

// NodeSize is the size of a node in bytes.
const NodeSize = unsafe.Sizeof(node{})

// FromScratch works out every sum of r anew and reports whether any
// differs from what the moves kept: the sums must be the sums from
// scratch, to the bit.
func (r *Ratings) FromScratch() error {
	type agent struct{ g, h, direct int64 }
	before := make([]agent, len(r.nodes))
	for k, nd := range r.nodes {
		before[k] = agent{nd.g, nd.h, r.direct[k]}
	}
	bands := r.bands
	r.recompute()
	for k, nd := range r.nodes {
		if now := (agent{nd.g, nd.h, r.direct[k]}); now != before[k] {
			return fmt.Errorf("agent %d: sums %+v, from scratch %+v", r.nb.ids[k], before[k], now)
		}
	}
	if bands != r.bands {
		return errors.New("the band sums differ from scratch")
	}
	return nil
}
