package adapter

import "testing"

func BenchmarkSweep(b *testing.B) {
	for b.Loop() {
		sweep("no-such-token", false)
	}
}
