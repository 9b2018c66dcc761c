//go:build !unix

package league

import "time"

// processCPU returns 0: the processor time of a process is read on Unix
// systems only.
func processCPU() time.Duration { return 0 }
