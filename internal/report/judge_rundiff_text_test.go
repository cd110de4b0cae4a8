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

// conform diff's text and JSON (issue 22: who judges the judge): a section
// left out hides a regression from the person reading it.
var _ = Describe("conform diff's report", func() {
	c := func(id string, v verdict.Verdict, msg string) runner.CaseResult {
		return runner.CaseResult{ID: id, Op: "grep.result", Verdict: v, Message: msg}
	}
	run := func(cases ...runner.CaseResult) *runner.Report {
		return &runner.Report{Complete: true, Cases: cases}
	}

	It("writes one section per non-empty list, its rows aligned, then the counts", func() {
		old := run(c("a", verdict.Pass, ""), c("a2-long", verdict.Pass, ""), c("b", verdict.Fail, "x"), c("c", verdict.Fail, "x"), c("r", verdict.Pass, ""))
		cur := run(c("a", verdict.Error, "boom <1>"), c("a2-long", verdict.Timeout, "slow"), c("b", verdict.Pass, ""), c("c", verdict.Crash, "died"), c("n", verdict.Pass, ""))
		var b bytes.Buffer
		Expect(report.DiffRuns("old.json", old, "new.json", cur).WriteText(&b)).To(Succeed())
		Expect(b.String()).To(Equal(strings.Join([]string{
			"conform diff: old.json → new.json",
			"",
			"newly failing (2):",
			"  a        pass → error    boom <1>",
			"  a2-long  pass → timeout  slow",
			"",
			"fixed (1):",
			"  b  fail → pass",
			"",
			"other verdict changes (1):",
			"  c  fail → crash",
			"",
			"new cases (1):",
			"  n  pass",
			"",
			"removed cases (1):",
			"  r  pass",
			"",
			"2 newly failing, 1 fixed, 1 other changes, 1 new, 1 removed",
			"",
		}, "\n")))

		b.Reset()
		Expect(report.DiffRuns("old.json", old, "new.json", old).WriteText(&b)).To(Succeed())
		Expect(b.String()).To(Equal("conform diff: old.json → new.json\n\n0 newly failing, 0 fixed, 0 other changes, 0 new, 0 removed\n"))
	})

	It("keeps the cases of one id in report order", func() {
		old := run(c("r", verdict.Pass, ""), c("r", verdict.Fail, "x"))
		cur := run(c("d", verdict.Crash, "first"), c("d", verdict.Error, "second"))
		d := report.DiffRuns("old.json", old, "new.json", cur)
		Expect(d.NewlyFailing).To(HaveLen(2))
		Expect([]verdict.Verdict{d.NewlyFailing[0].New, d.NewlyFailing[1].New}).To(Equal([]verdict.Verdict{verdict.Crash, verdict.Error}))
		Expect(d.Added).To(HaveLen(2))
		Expect([]verdict.Verdict{d.Added[0].Verdict, d.Added[1].Verdict}).To(Equal([]verdict.Verdict{verdict.Crash, verdict.Error}))
		Expect(d.Removed).To(HaveLen(2))
		Expect([]verdict.Verdict{d.Removed[0].Verdict, d.Removed[1].Verdict}).To(Equal([]verdict.Verdict{verdict.Pass, verdict.Fail}))
	})

	It("writes JSON of version 1 with outside text unescaped for HTML", func() {
		d := report.DiffRuns("old.json", run(c("a", verdict.Pass, "")), "new.json", run(c("a", verdict.Error, "<b>&")))
		var b bytes.Buffer
		Expect(d.WriteJSON(&b)).To(Succeed())
		Expect(b.String()).To(ContainSubstring(`"version": 1,`))
		Expect(b.String()).To(ContainSubstring(`"why": "<b>&"`))
	})

	It("names the root as / where the report-run schema rejects a report", func() {
		data := strings.Replace(string(jsonOf(sampleRun())), `{`, `{"bogus": 1,`, 1)
		_, err := report.ReadRun("r.json", []byte(data))
		Expect(err).To(MatchError(ContainSubstring("the report-run schema rejects it at '/'")))
	})
})
