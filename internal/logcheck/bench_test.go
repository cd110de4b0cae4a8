package logcheck_test

import (
	"bytes"
	"testing"

	"github.com/dsh-conform/conform/generators/sessionlog"
	"github.com/dsh-conform/conform/internal/logcheck"
)

// BenchmarkCheck checks an in-memory log of about 20 MB made of realistic
// turns (a grep with 40 matches and its meta, a sampled glob page, a
// run_code call with two sub-calls, reasoning chunks), each with fresh call
// ids and contiguous seqs. The log is clean, so the time is the checker's,
// not the findings'.
func BenchmarkCheck(b *testing.B) {
	log := buildLog(20 << 20)
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	opt := logcheck.Defaults()
	for b.Loop() {
		st, err := logcheck.Check(bytes.NewReader(log), "bench.jsonl", opt, func(f logcheck.Finding) {
			b.Fatalf("unexpected finding: %+v", f)
		})
		if err != nil || st.Lines == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckBig checks 64 MB of sessionlog.Big (seed 1), the log the
// issue 10 throughput target is stated on (≥ 150 MB/s per core).
func BenchmarkCheckBig(b *testing.B) {
	var buf bytes.Buffer
	if _, err := sessionlog.Big(&buf, 64<<20, 1); err != nil {
		b.Fatal(err)
	}
	log := buf.Bytes()
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	opt := logcheck.Defaults()
	for b.Loop() {
		if _, err := logcheck.Check(bytes.NewReader(log), "big.jsonl", opt, func(logcheck.Finding) {}); err != nil {
			b.Fatal(err)
		}
	}
}
