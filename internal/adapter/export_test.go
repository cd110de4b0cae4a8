package adapter

import "time"

// HoldReaping makes every adapter's reaping end d late, as on a machine
// too loaded to reap within eofGrace; the returned func undoes it.
func HoldReaping(d time.Duration) func() {
	reapDelay = d
	return func() { reapDelay = 0 }
}
