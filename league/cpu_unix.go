//go:build unix

package league

import (
	"syscall"
	"time"
)

// ProcessCPU returns the processor time the process has used so far,
// user and system, on every core together; 0 where it cannot tell.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
