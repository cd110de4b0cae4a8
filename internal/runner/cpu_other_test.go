//go:build !unix

package runner_test

import "time"

// cpuTime is unknown here: the benchmark's CPU ratio reads 0/0.
func cpuTime() time.Duration { return 0 }
