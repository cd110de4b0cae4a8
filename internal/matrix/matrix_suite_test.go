package matrix_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	conform "github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/coverage"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/matrix"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
)

func TestMatrix(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "matrix")
}

var (
	runsOnce sync.Once
	runs     map[string][]byte // harness name → its JSON run report
)

// runReport runs the embedded case set through a harness in process and
// returns the JSON report `conform run --format json` would write.
func runReport(h adapter.Harness, impl adapter.Implementation) []byte {
	cases, err := runner.LoadCases(conform.Files)
	Expect(err).NotTo(HaveOccurred())
	rep, err := runner.Run(context.Background(), cases, runner.Options{Jobs: 2,
		NewSession: func(context.Context) (adapter.Session, error) { return adapter.InProcess(h, impl), nil }})
	Expect(err).NotTo(HaveOccurred())
	proof, err := coverage.LogProof()
	Expect(err).NotTo(HaveOccurred())
	hash, err := runner.CaseSetHash(conform.Files)
	Expect(err).NotTo(HaveOccurred())
	rep.Finish(runner.Finishing{Conform: "test", CaseSet: hash, Cases: cases, All: cases, LogChecks: proof})
	var buf bytes.Buffer
	Expect(report.WriteRunJSON(&buf, rep)).To(Succeed())
	return buf.Bytes()
}

// sampleReports are the reference and two wrong harnesses, run once.
func sampleReports() map[string][]byte {
	runsOnce.Do(func() {
		runs = map[string][]byte{
			"reference": runReport(adapter.Reference(), adapter.ReferenceImplementation()),
		}
		for _, n := range []string{"number-go", "meta-ascii"} {
			runs[n] = runReport(wrong.ByName(n), wrong.Implementation(n))
		}
	})
	return runs
}

// build reads reports (through report.ReadRun, as the CLI does) into a matrix.
func build(names ...string) *matrix.Matrix {
	GinkgoHelper()
	var in []matrix.Input
	for _, n := range names {
		r, err := report.ReadRun(n+".json", sampleReports()[n])
		Expect(err).NotTo(HaveOccurred())
		in = append(in, matrix.Input{File: n + ".json", Report: r})
	}
	m, err := matrix.Build(in)
	Expect(err).NotTo(HaveOccurred())
	return m
}
