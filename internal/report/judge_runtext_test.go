package report_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// The text report of a run (issue 22: who judges the judge): what it
// lists, counts and leaves out is what a person reading a red run sees.
var _ = Describe("the text report's lines", func() {
	kase := func(id, op string, v verdict.Verdict, msg string) runner.CaseResult {
		return runner.CaseResult{ID: id, Op: op, Verdict: v, Message: msg}
	}
	// run is a complete run of cases with no requirement accounting and
	// no reasons unless a test sets them.
	run := func(cases ...runner.CaseResult) *runner.Report {
		return &runner.Report{Protocol: 1, Complete: true, Cases: cases, Selected: len(cases),
			Requirements: []runner.RequirementRow{}, Nonconformant: []runner.Reason{}}
	}
	text := func(r *runner.Report, opt report.RunText) string {
		var b bytes.Buffer
		ExpectWithOffset(1, report.WriteRunText(&b, r, opt)).To(Succeed())
		return b.String()
	}
	has := func(out, pattern string) bool { return regexp.MustCompile(`(?m)` + pattern).MatchString(out) }

	It("writes the header's optional lines only when the run has them", func() {
		r := run(kase("a", "grep.result", verdict.Pass, ""), kase("b", "grep.result", verdict.Pass, ""))
		r.DurationMS = 1234
		out := text(r, report.RunText{TotalCases: 2})
		Expect(out).NotTo(ContainSubstring("\nconform "))
		Expect(out).To(ContainSubstring("adapter: the embedded reference\n"))
		Expect(out).To(ContainSubstring("ran 2 cases in 1.2s\n"))

		r.Conform, r.Adapter, r.DurationMS = "1.4.0", []string{"./adapter"}, 850
		out = text(r, report.RunText{TotalCases: 3})
		Expect(out).To(ContainSubstring("\nconform 1.4.0, case set \n"))
		Expect(out).To(ContainSubstring("adapter: ./adapter\n"))
		Expect(out).To(ContainSubstring("ran 2 of 3 cases in 850ms\n"))
		r.DurationMS = 125_400
		Expect(text(r, report.RunText{})).To(ContainSubstring("ran 2 cases in 2m5s\n"))
	})

	It("leaves out every empty part: no blank runs, notes, reasons or table of a clean run", func() {
		r := run(kase("a", "grep.result", verdict.Pass, ""), kase("b", "glob.result", verdict.Pass, ""))
		r.Requirements = []runner.RequirementRow{{ID: "R-PASS", Level: "MUST", Status: runner.StatusPassed}}
		out := text(r, report.RunText{})
		Expect(out).NotTo(ContainSubstring("\n\n\n"))
		for _, s := range []string{"NONCONFORMANT", "unsupported:", "skipped:", "xfail:", "more failing cases", "  requirement", "more (-v lists"} {
			Expect(out).NotTo(ContainSubstring(s))
		}
		Expect(has(out, `^op +cases +pass +fail$`)).To(BeTrue(), out)
		Expect(has(out, `^all +2 +2 +0$`)).To(BeTrue(), out)
		Expect(out).To(ContainSubstring("requirements: 1: 1 passed\n"))

		one := text(run(kase("a", "grep.result", verdict.Pass, "")), report.RunText{})
		Expect(has(one, `^all `)).To(BeFalse(), one)
	})

	It("writes a single note, reason and failing requirement", func() {
		r := run(kase("a", "grep.result", verdict.Pass, ""), kase("u", "retain.text", verdict.Unsupported, ""))
		r.Nonconformant = []runner.Reason{{Message: "the one reason"}}
		r.Requirements = []runner.RequirementRow{{ID: "R-FAIL", Level: "MUST", Status: runner.StatusFailed}}
		out := text(r, report.RunText{})
		Expect(out).To(ContainSubstring("\nunsupported: the adapter does not list retain.text (1 case)\n"))
		Expect(out).To(ContainSubstring("\nNONCONFORMANT:\n  - the one reason\n"))
		Expect(out).To(ContainSubstring("requirements: 1: 1 failed\n"))
		Expect(has(out, `^  requirement +level +status +cases +pass +fail +title$`)).To(BeTrue(), out)
		Expect(has(out, `^  R-FAIL `)).To(BeTrue(), out)
	})

	It("lists MaxFailures failing cases and counts the rest", func() {
		r := run(kase("f1", "grep.result", verdict.Error, "e1"), kase("f2", "grep.result", verdict.Error, "e2"))
		out := text(r, report.RunText{MaxFailures: 1})
		Expect(out).To(ContainSubstring("ERROR f1\n"))
		Expect(out).NotTo(ContainSubstring("ERROR f2\n"))
		Expect(out).To(ContainSubstring("\n... and 1 more failing cases (all of them: --max-failures 0, or --format json)\n"))
		out = text(r, report.RunText{MaxFailures: 2})
		Expect(out).To(ContainSubstring("ERROR f2\n"))
		Expect(out).NotTo(ContainSubstring("more failing cases"))
	})

	It("shows the last StderrLines of a fault's stderr, all of a shorter one", func() {
		c := kase("c", "grep.result", verdict.Crash, "adapter exited")
		c.Stderr = "one\ntwo\nthree\n"
		out := text(run(c), report.RunText{StderrLines: 1})
		Expect(out).To(ContainSubstring("adapter stderr (last 1 line):"))
		Expect(out).To(ContainSubstring("three"))
		Expect(out).NotTo(ContainSubstring("two"))
		out = text(run(c), report.RunText{StderrLines: 3})
		Expect(out).To(ContainSubstring("adapter stderr (last 3 lines):"))
		Expect(out).To(ContainSubstring("one"))
	})

	It("names at most five skip reasons and counts the others", func() {
		var cases []runner.CaseResult
		for i := range 7 {
			cases = append(cases, kase(fmt.Sprint("s", i), "grep.result", verdict.Skipped, fmt.Sprint("reason ", i)))
		}
		out := text(run(cases...), report.RunText{})
		Expect(out).To(ContainSubstring("skipped: 1 case: reason 4\n"))
		Expect(out).NotTo(ContainSubstring("reason 5"))
		Expect(out).To(ContainSubstring("skipped: 2 more reasons (--format json lists them)\n"))
	})

	It("counts requirements by status in rank order, unknown statuses last as met", func() {
		r := run(kase("a", "grep.result", verdict.Pass, ""))
		r.Requirements = []runner.RequirementRow{
			{ID: "R-Z", Status: "zeta"}, {ID: "R-P1", Status: runner.StatusPassed}, {ID: "R-A", Status: "alpha"},
			{ID: "R-P2", Status: runner.StatusPassed}, {ID: "R-N", Status: runner.StatusNotSelected}, {ID: "R-F", Level: "SHOULD", Status: runner.StatusFailed},
		}
		Expect(text(r, report.RunText{})).To(ContainSubstring("requirements: 6: 1 failed, 2 passed, 1 not-selected, 1 zeta, 1 alpha\n"))
	})

	It("tables the failing and never-passing MUSTs, words left-aligned", func() {
		r := run(kase("a", "grep.result", verdict.Pass, ""))
		r.Requirements = []runner.RequirementRow{
			{ID: "R-FAIL", Level: "MUST", Status: runner.StatusFailed, Title: "t1"},
			{ID: "R-FAIL-SHOULD", Level: "SHOULD", Status: runner.StatusFailed, Title: "t2"},
			{ID: "R-NE-MUST", Level: "MUST", Status: runner.StatusNotExercised},
			{ID: "R-NE-SHOULD", Level: "SHOULD", Status: runner.StatusNotExercised},
			{ID: "R-PASS", Level: "MUST", Status: runner.StatusPassed},
		}
		out := text(r, report.RunText{})
		for id, shown := range map[string]bool{"R-FAIL": true, "R-FAIL-SHOULD": true, "R-NE-MUST": true, "R-NE-SHOULD": false, "R-PASS": false} {
			Expect(has(out, `^  `+id+` `)).To(Equal(shown), id)
		}
		Expect(has(out, `^  R-FAIL +MUST    failed +0 +0 +0  t1$`)).To(BeTrue(), out)
		Expect(has(out, `^  R-FAIL-SHOULD +SHOULD  failed +0 +0 +0  t2$`)).To(BeTrue(), out)
		Expect(has(out, `^  R-PASS `)).To(BeFalse())
		Expect(has(text(r, report.RunText{Verbose: true}), `^  R-PASS `)).To(BeTrue())
	})

	It("tables 30 requirements unless verbose and counts the rest", func() {
		r := run(kase("a", "grep.result", verdict.Pass, ""))
		rows := func(n int) []runner.RequirementRow {
			var out []runner.RequirementRow
			for i := range n {
				out = append(out, runner.RequirementRow{ID: fmt.Sprintf("R-%02d", i), Level: "MUST", Status: runner.StatusFailed})
			}
			return out
		}
		r.Requirements = rows(30)
		out := text(r, report.RunText{})
		Expect(has(out, `^  R-29 `)).To(BeTrue())
		Expect(out).NotTo(ContainSubstring("more (-v lists"))
		r.Requirements = rows(32)
		out = text(r, report.RunText{})
		Expect(has(out, `^  R-30 `)).To(BeFalse())
		Expect(out).To(ContainSubstring("  ... and 2 more (-v lists every requirement)\n"))
		r.Requirements = rows(31)
		Expect(text(r, report.RunText{})).To(ContainSubstring("  ... and 1 more (-v lists every requirement)\n"))
	})

	It("quotes a shell word unless every character is safe", func() {
		for _, w := range []string{"a", "z", "A", "Z", "0", "9", "az09AZ", "@%+=:,./-_"} {
			Expect(report.ShellQuote(w)).To(Equal(w))
		}
		for _, w := range []string{"`", "{", "[", "^", "?", ";", " ", "a b", "é", "\x00", "~", "*"} {
			Expect(report.ShellQuote(w)).To(Equal("'"+w+"'"), "%q", w)
		}
		Expect(report.ShellQuote("")).To(Equal("''"))
		Expect(report.ShellQuote("it's")).To(Equal(`'it'\''s'`))
	})

	It("cuts a newly failing case's why at 200 bytes, on a character boundary", func() {
		why := func(msg string) string {
			old := &runner.Report{Complete: true, Cases: []runner.CaseResult{kase("a", "grep.result", verdict.Pass, "")}}
			cur := &runner.Report{Complete: true, Cases: []runner.CaseResult{kase("a", "grep.result", verdict.Error, msg)}}
			d := report.DiffRuns("old", old, "new", cur)
			ExpectWithOffset(1, d.NewlyFailing).To(HaveLen(1))
			return d.NewlyFailing[0].Why
		}
		Expect(why(strings.Repeat("x", 200))).To(Equal(strings.Repeat("x", 200)))
		Expect(why(strings.Repeat("x", 201))).To(Equal(strings.Repeat("x", 200) + "…"))
		Expect(why("a" + strings.Repeat("é", 150))).To(Equal("a" + strings.Repeat("é", 99) + "…"))
		Expect(why(strings.Repeat("\x80", 300))).To(Equal("…")) // no character starts before byte 200
	})
})
