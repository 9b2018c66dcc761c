//go:build !unix

package league

import "time"

// ProcessCPU returns 0: the processor time of a process is read on Unix
// systems only.
func ProcessCPU() time.Duration { return 0 }
