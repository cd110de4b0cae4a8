package runner

import (
	"testing"
	"time"
)

// ms is a duration in milliseconds, to the microsecond (the report's
// DurationMS fields): 1.5 ms is 1.5, 2 s is 2000 (engine.go:262).
func TestJudgeMillisecondsOfADuration(t *testing.T) {
	for d, want := range map[time.Duration]float64{
		0:                         0,
		1500 * time.Microsecond:   1.5,
		2 * time.Second:           2000,
		time.Microsecond:          0.001,
		1234567 * time.Nanosecond: 1.234, // below a microsecond is dropped
	} {
		if got := ms(d); got != want {
			t.Errorf("ms(%v) = %v, want %v", d, got, want)
		}
	}
}
