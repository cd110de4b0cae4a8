package report_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

var _ = Describe("values of any depth (issue 21: never lost)", func() {
	It("every format writes a 200,000-deep answer and input, compact, and the JSON reads back exactly", func() {
		const depth = 200_000
		deep := []byte(strings.Repeat("[", depth) + `"\ud800"` + strings.Repeat("]", depth))
		input := []byte(`{"nested":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`)
		c := runner.CaseResult{ID: "grep.result/deep", Op: "grep.result", Requirements: []string{"SEARCH-GREP-2"}, Verdict: verdict.Fail,
			Broken: []string{"SEARCH-GREP-2"}, Input: input,
			Diffs: []runner.Diff{{Field: "meta", Comparator: "json", Path: "$.meta", Requirements: []string{"SEARCH-GREP-2"},
				WantJSON: []byte(`{}`), GotJSON: deep, Message: "differs"}}}
		r := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, Protocol: 1, Complete: true, Selected: 1,
			Cases: []runner.CaseResult{c}, Totals: runner.Totals([]runner.CaseResult{c})}
		out := allFormats(r)
		js := out["json"]
		Expect(len(js)).To(BeNumerically("<", 2*(len(deep)+len(input))+4000), "raw values are written compact: no indentation grows with depth")
		back, err := report.ReadRun("r.json", []byte(js))
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(back.Cases[0].Input, input)).To(BeTrue())
		Expect(bytes.Equal(back.Cases[0].Diffs[0].GotJSON, deep)).To(BeTrue(), "the lone surrogate comes back through gotText")
		for _, f := range []string{"text", "junit", "markdown"} {
			Expect(len(out[f])).To(BeNumerically("<", 64<<10), f+": a deep value is cut, its length stated")
		}
		Expect(out["text"]).To(ContainSubstring("(400008 bytes in all; the JSON report holds it whole)"))
	})
})
