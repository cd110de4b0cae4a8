package adapter_test

import (
	"context"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
)

// The benchmarks push a mix of real cases, the first three fixtures of each
// op, through one session; each iteration is one case. They report ns/op
// (per case) and cases/s:
//
//	go test -run '^$' -bench . -benchtime 5s ./internal/adapter/
//
// BenchmarkInProcess is the floor: the reference alone, no protocol.
// BenchmarkPersistent adds the protocol through one `conform adapter`
// process; BenchmarkExec starts one process per case.

func benchCases(b *testing.B) []fixtureCase {
	b.Helper()
	cases, err := loadFixtures(3)
	if err != nil {
		b.Fatal(err)
	}
	return cases
}

func benchSession(b *testing.B, s adapter.Session) {
	cases := benchCases(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		c := cases[i%len(cases)]
		r, err := s.Run(ctx, c.ID, c.Op, c.Input)
		if err != nil {
			b.Fatalf("%s: %v", c.ID, err)
		}
		if r.Output == nil && r.Error == nil {
			b.Fatalf("%s: no answer", c.ID)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cases/s")
}

func startBench(b *testing.B, exec bool) adapter.Session {
	b.Helper()
	dir, err := buildBinaries()
	if err == nil {
		err = conformErr
	}
	if err != nil {
		b.Fatal(err)
	}
	s, err := adapter.Start(context.Background(), adapter.Config{Argv: []string{dir + "/conform", "adapter"}, Exec: exec})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

func BenchmarkInProcess(b *testing.B) {
	benchSession(b, adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation()))
}

func BenchmarkPersistent(b *testing.B) {
	benchSession(b, startBench(b, false))
}

func BenchmarkExec(b *testing.B) {
	benchSession(b, startBench(b, true))
}
