package report_test

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

var _ = Describe("notes (one report model)", func() {
	It("a run's notes and a log's notes are in every format", func() {
		cases := []runner.CaseResult{{ID: "retain.items/a", Op: "retain.items", Requirements: []string{}, Verdict: verdict.Pass}}
		run := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, Complete: true, Selected: 1,
			Cases: cases, Totals: runner.Totals(cases),
			Notes: []runner.Note{{Kind: "leftover", Message: "the adapter left process 4242 (sleeper) running"}}}
		sum := logcheck.NewSummary(logcheck.Violation, 0, nil)
		f := sum.AddFile("live.jsonl")
		f.Notes = []string{"was truncated to 3 bytes after 10 were read; following it stopped there"}
		sum.Finish()
		for _, m := range []*report.Model{{Run: run}, {CheckLog: sum}} {
			notes := m.Notes()
			Expect(notes).To(HaveLen(1))
			for _, format := range report.Formats {
				var b bytes.Buffer
				Expect(report.Write(&b, format, m)).To(Succeed())
				Expect(b.String()).To(ContainSubstring(notes[0].Message), "%s %s", m.Command(), format)
			}
		}
	})
})
