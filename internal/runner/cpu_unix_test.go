//go:build unix

package runner_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time so far: under a load
// that other processes make, it measures this process's work where wall
// time does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
