package matrix_test

import (
	"bytes"
	"testing"

	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/matrix"
	"github.com/dsh-conform/conform/internal/report"
)

// BenchmarkPage20 builds the matrix of 20 reports of the full case set
// (the reference and the two wrong harnesses in turn) and writes the page:
// issue 14 wants under 1 s and under 5 MB (bytes/page). BenchmarkRead20
// is the reading of those reports (report.ReadRun) that precedes it.
func BenchmarkPage20(b *testing.B) {
	in := read20(b)
	var size int
	for b.Loop() {
		m, err := matrix.Build(in)
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := matrix.WriteHTML(&buf, m); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "bytes/page")
}

func BenchmarkRead20(b *testing.B) {
	for b.Loop() {
		read20(b)
	}
}

func read20(b *testing.B) []matrix.Input {
	RegisterFailHandler(func(msg string, _ ...int) { b.Fatal(msg) })
	names := []string{"reference", "number-go", "meta-ascii"}
	data := make([][]byte, 20)
	for i := range data {
		data[i] = sampleReports()[names[i%len(names)]]
	}
	in := make([]matrix.Input, len(data))
	for i, d := range data {
		r, err := report.ReadRun("r.json", d)
		if err != nil {
			b.Fatal(err)
		}
		in[i] = matrix.Input{File: "r.json", Report: r}
	}
	return in
}
