package sessionlog_test

import (
	"io"
	"testing"

	"github.com/dsh-conform/conform/generators/sessionlog"
)

// BenchmarkBig measures Big's streaming throughput (64 MB per op, pool
// rendering included).
func BenchmarkBig(b *testing.B) {
	const target = 64 << 20
	b.SetBytes(target)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sessionlog.Big(io.Discard, target, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValid measures drawing one well-formed log.
func BenchmarkValid(b *testing.B) {
	b.ReportAllocs()
	seed := 0
	for b.Loop() {
		seed++
		_ = sessionlog.Valid(seed)
	}
}
