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

// bigLog is a 64 MB Big log (seed 1), generated outside the timing.
func bigLog(b *testing.B) []byte {
	var buf bytes.Buffer
	if _, err := sessionlog.Big(&buf, 64<<20, 1); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	return buf.Bytes()
}

// eachLine calls fn with every line of log, without its LF.
func eachLine(log []byte, fn func(line []byte)) {
	for rest := log; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		fn(rest[:i])
		rest = rest[i+1:]
	}
}

// BenchmarkParseBig parses every line of a 64 MB Big log into a tree with
// jsonjs.Parse (the issue 10 target is ≥ 100 MB/s per core).
func BenchmarkParseBig(b *testing.B) {
	log := bigLog(b)
	for b.Loop() {
		eachLine(log, func(line []byte) {
			if _, err := jsonjs.Parse(line); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkLazyScanBig validates every line of a 64 MB Big log with
// jsonjs.Lazy.Scan, the first step check-log takes on each line.
func BenchmarkLazyScanBig(b *testing.B) {
	log := bigLog(b)
	var lz jsonjs.Lazy
	for b.Loop() {
		eachLine(log, func(line []byte) {
			if !lz.Scan(line) || !lz.UTF8() {
				b.Fatal("Scan refused a line of Big")
			}
		})
	}
}

// BenchmarkLazyWalkBig is BenchmarkLazyScanBig and then a walk of every
// container of each line with Members and Items: the navigation check-log
// does, at most.
func BenchmarkLazyWalkBig(b *testing.B) {
	log := bigLog(b)
	var lz jsonjs.Lazy
	var ms []jsonjs.RawMember
	var rs []jsonjs.Raw
	var walk func(r jsonjs.Raw)
	walk = func(r jsonjs.Raw) {
		switch r.Kind() {
		case jsonjs.Object:
			start := len(ms)
			ms = lz.Members(ms, r)
			for i, end := start, len(ms); i < end; i++ {
				walk(ms[i].Value)
			}
		case jsonjs.Array:
			start := len(rs)
			rs = lz.Items(rs, r)
			for i, end := start, len(rs); i < end; i++ {
				walk(rs[i])
			}
		}
	}
	for b.Loop() {
		eachLine(log, func(line []byte) {
			if !lz.Scan(line) {
				b.Fatal("Scan refused a line of Big")
			}
			ms, rs = ms[:0], rs[:0]
			walk(lz.Root())
		})
	}
}
