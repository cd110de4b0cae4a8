package sessionlog_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/dsh-conform/conform/generators/sessionlog"
	"github.com/dsh-conform/conform/reference/jsonjs"
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

// BenchmarkParseBig parses every line of a 64 MB Big log into a tree with
// jsonjs.Parse (the issue 10 target is ≥ 100 MB/s per core).
func BenchmarkParseBig(b *testing.B) {
	var buf bytes.Buffer
	if _, err := sessionlog.Big(&buf, 64<<20, 1); err != nil {
		b.Fatal(err)
	}
	log := buf.Bytes()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		for rest := log; len(rest) > 0; {
			i := bytes.IndexByte(rest, '\n')
			if _, err := jsonjs.Parse(rest[:i]); err != nil {
				b.Fatal(err)
			}
			rest = rest[i+1:]
		}
	}
}

// BenchmarkLazyScanBig validates every line of a 64 MB Big log with
// jsonjs.Lazy.Scan, the first step check-log takes on each line.
func BenchmarkLazyScanBig(b *testing.B) {
	var buf bytes.Buffer
	if _, err := sessionlog.Big(&buf, 64<<20, 1); err != nil {
		b.Fatal(err)
	}
	log := buf.Bytes()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	var lz jsonjs.Lazy
	for b.Loop() {
		for rest := log; len(rest) > 0; {
			i := bytes.IndexByte(rest, '\n')
			if !lz.Scan(rest[:i]) || !lz.UTF8() {
				b.Fatal("Scan refused a line of Big")
			}
			rest = rest[i+1:]
		}
	}
}
