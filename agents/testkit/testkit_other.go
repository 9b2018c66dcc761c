//go:build !linux

package testkit

import "os/exec"

// dieWithParent does nothing where the kernel has no parent-death
// signal: there a test binary killed by its timeout may leave its
// processes behind.
func dieWithParent(*exec.Cmd) {}
