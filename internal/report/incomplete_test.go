package report_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// passingRun is two passing cases of one op, finished unless stopped is
// given; its requirements are accounted as Finish does, the ones no case
// cites not selected when partial.
func passingRun(stopped string, partial bool) *runner.Report {
	cases := []runner.CaseResult{
		{ID: "retain.items/a", Op: "retain.items", Requirements: []string{"RET-ITEMS-1"}, Verdict: verdict.Pass},
		{ID: "retain.items/b", Op: "retain.items", Requirements: []string{"RET-ITEMS-1"}, Verdict: verdict.Pass},
	}
	r := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, Protocol: 1,
		Cases: cases, Totals: runner.Totals(cases), Complete: stopped == "", Stopped: stopped, Selected: 5}
	if stopped == "" {
		r.Selected = 2
	}
	r.Requirements = runner.Summarize(r)
	if partial {
		r.Requirements = append(r.Requirements, runner.RequirementRow{ID: "SEARCH-GREP-2", Status: runner.StatusNotSelected})
	}
	r.Nonconformant = runner.Reasons(r)
	return r
}

// allFormats renders a report in every run format.
func allFormats(r *runner.Report) map[string]string {
	out := map[string]string{}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return report.WriteRunText(b, r, report.RunText{}) },
		"json":     func(b *bytes.Buffer) error { return report.WriteRunJSON(b, r) },
		"junit":    func(b *bytes.Buffer) error { return report.WriteRunJUnit(b, r) },
		"markdown": func(b *bytes.Buffer) error { return report.WriteRunMarkdown(b, r) },
	} {
		var b bytes.Buffer
		Expect(write(&b)).To(Succeed(), name)
		out[name] = b.String()
	}
	return out
}

var _ = Describe("no artifact of an unfinished or partial run is green (issue 21)", func() {
	It("an interrupted run of passing cases says so in every format", func() {
		out := allFormats(passingRun("interrupted: 2 of 5 selected cases ran", false))
		Expect(out["json"]).To(ContainSubstring(`"complete": false`))
		Expect(out["json"]).To(ContainSubstring(`"kind": "incomplete"`))
		Expect(strings.TrimRight(out["text"], "\n")).To(HaveSuffix("\n2 passed, 0 failed\nINCOMPLETE RUN: interrupted: 2 of 5 selected cases ran; this report is no pass"))
		Expect(out["text"]).To(HavePrefix("conform run: (unnamed implementation), protocol 1\nadapter: the embedded reference\nran 2 cases in 0s\n\nINCOMPLETE RUN: "))
		Expect(out["markdown"]).To(ContainSubstring("⚠️ **INCOMPLETE** ❌ **NONCONFORMANT**"))
		Expect(out["markdown"]).To(ContainSubstring("> [!WARNING]\n> INCOMPLETE RUN: `interrupted: 2 of 5 selected cases ran`"))
		Expect(out["markdown"]).NotTo(ContainSubstring("✅ **CONFORMANT**"))
		ju, err := report.ReadJUnit(strings.NewReader(out["junit"]))
		Expect(err).NotTo(HaveOccurred())
		Expect(ju.Errors).To(Equal(1))
		last := ju.Suites[len(ju.Suites)-1]
		Expect(last.Cases[0].Name).To(Equal("incomplete"))
		Expect(last.Cases[0].Error.Message).To(ContainSubstring("the run did not complete: interrupted"))
	})

	It("a report that does not say it completed is incomplete", func() {
		r := passingRun("", false)
		r.Complete, r.Nonconformant = false, nil
		Expect(r.Conformant()).To(BeFalse())
		Expect(runner.Reasons(r)[0].Message).To(Equal("the run did not complete: the report does not say it completed"))
	})

	It("a partial selection says so and reads as no whole pass", func() {
		out := allFormats(passingRun("", true))
		Expect(out["json"]).To(ContainSubstring(`"complete": true`))
		Expect(strings.TrimRight(out["text"], "\n")).To(HaveSuffix("\n2 passed, 0 failed\nPARTIAL: the selection checked 1 requirement; 1 more that other cases of the case set check were not selected"))
		Expect(out["markdown"]).To(ContainSubstring("➖ **PARTIAL**"))
		Expect(out["markdown"]).NotTo(ContainSubstring("✅ **CONFORMANT**"))
		ju, err := report.ReadJUnit(strings.NewReader(out["junit"]))
		Expect(err).NotTo(HaveOccurred())
		Expect(ju.Skipped).To(Equal(1))
		Expect(ju.Failures + ju.Errors).To(Equal(0))
	})

	It("a whole finished run has neither banner", func() {
		out := allFormats(passingRun("", false))
		Expect(out["text"]).NotTo(ContainSubstring("INCOMPLETE"))
		Expect(out["text"]).NotTo(ContainSubstring("PARTIAL"))
		Expect(out["markdown"]).To(ContainSubstring("✅ **CONFORMANT**"))
	})
})

var _ = Describe("an interrupted fuzz campaign is no pass (issue 21)", func() {
	It("says so in Markdown and JUnit as in text", func() {
		r := &fuzz.Report{Format: fuzz.ReportFormat, Version: fuzz.ReportVersion, Cases: 12, Interrupted: true,
			PerOp: []fuzz.OpStats{{Op: "grep.result", Cases: 12, Totals: map[verdict.Verdict]int{verdict.Pass: 12}}}}
		var md, ju, text bytes.Buffer
		Expect(r.WriteMarkdown(&md)).To(Succeed())
		Expect(md.String()).To(HavePrefix("## conform fuzz: ⚠️ INCOMPLETE (interrupted after 12 cases), no mismatch\n"))
		Expect(md.String()).NotTo(ContainSubstring("✅"))
		Expect(r.WriteJUnit(&ju)).To(Succeed())
		suites, err := report.ReadJUnit(&ju)
		Expect(err).NotTo(HaveOccurred())
		Expect(suites.Errors).To(Equal(1))
		Expect(r.WriteText(&text)).To(Succeed())
		Expect(text.String()).To(HaveSuffix("INTERRUPTED after 12 cases\n"))
	})
})
