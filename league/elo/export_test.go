package elo

import "unsafe"

// FitPrior is Fit with the prior's standard deviation in Elo as a parameter;
// +Inf gives pure maximum likelihood, so tests can measure the prior.
var FitPrior = fit

// PriorSD is the prior's standard deviation Fit uses, for tests that
// rebuild the log-posterior independently.
const PriorSD = priorSD

// NodeSize is the size of a node in bytes.
const NodeSize = unsafe.Sizeof(node{})

// SettleTol and ShiftTol are Settle's tolerances, for tests that check
// the error bound they give.
const SettleTol, ShiftTol = settleTol, shiftTol
