package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// sampleRun has one case of every verdict.
func sampleRun() *runner.Report {
	cases := []runner.CaseResult{
		{ID: "grep.result/a-pass", Op: "grep.result", Requirements: []string{"SEARCH-META-2"}, Verdict: verdict.Pass, DurationMS: 1},
		{ID: "grep.result/b-fail", Op: "grep.result", Requirements: []string{"SEARCH-GREP-2"}, Verdict: verdict.Fail,
			Broken: []string{"SEARCH-CAP-4", "SEARCH-GREP-2"},
			Diffs: []runner.Diff{
				{Field: "content", Comparator: "exact", Path: "$.content", Offset: 7, Requirements: []string{"SEARCH-GREP-2"}, Want: "Found·3⏎", Got: "Found·4⏎", Message: "first difference at byte 7 (line 1, column 8)"},
				{Field: "meta", Comparator: "property", Path: "$.meta", Requirements: []string{"SEARCH-CAP-4"}, Message: "meta.total is 4"},
			}, DurationMS: 2},
		{ID: "grep.result/c-error", Op: "grep.result", Requirements: []string{"SEARCH-GREP-2"}, Verdict: verdict.Error, Message: "answer line is not JSON: \x1b[31mred", DurationMS: 1},
		{ID: "retain.text/d-timeout", Op: "retain.text", Requirements: []string{"RET-TEXT-1"}, Verdict: verdict.Timeout, Message: "no answer within 2s; adapter killed", Stderr: "child 42\n", DurationMS: 2000},
		{ID: "retain.text/e-crash", Op: "retain.text", Requirements: []string{"RET-TEXT-1"}, Verdict: verdict.Crash, Message: "adapter exited (exit status 3)",
			Stderr: strings.Repeat("noise\n", 30) + "fatal: last words\n", DurationMS: 1},
		{ID: "retain.text/f-unsupported", Op: "retain.text", Requirements: []string{}, Verdict: verdict.Unsupported, Message: "the adapter does not list op retain.text"},
		{ID: "spill.preview/g-skipped", Op: "spill.preview", Requirements: []string{}, Verdict: verdict.Skipped, Message: "not implemented yet"},
		{ID: "spill.preview/h-xfail", Op: "spill.preview", Requirements: []string{"SEARCH-GREP-2"}, Verdict: verdict.XFail, Broken: []string{"SEARCH-GREP-2"},
			Diffs: []runner.Diff{{Field: "text", Comparator: "exact", Requirements: []string{"SEARCH-GREP-2"}, Message: "first difference at byte 0"}}, Baseline: "known (HARNESS-1)"},
		{ID: "spill.preview/i-xpass", Op: "spill.preview", Requirements: []string{"SEARCH-META-2"}, Verdict: verdict.XPass, Baseline: "fixed since"},
	}
	return &runner.Report{
		Format: runner.ReportFormat, Version: runner.ReportVersion,
		Implementation: adapter.Implementation{Name: "demo", Version: "1.2.3", Language: "js"},
		Protocol:       1,
		Adapter:        []string{"node", "my adapter.mjs"},
		Started:        time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		DurationMS:     2100,
		Totals:         runner.Totals(cases),
		Complete:       true,
		Selected:       len(cases),
		Cases:          cases,
	}
}

func jsonOf(r *runner.Report) []byte {
	var buf bytes.Buffer
	ExpectWithOffset(1, report.WriteRunJSON(&buf, r)).To(Succeed())
	return buf.Bytes()
}

var _ = Describe("run reports", func() {
	It("JSON: validates against report-run and reads back", func() {
		data := jsonOf(sampleRun())
		Expect(spec.ValidateJSON("report-run", data)).To(Succeed())
		back, err := report.ReadRun("r.json", data)
		Expect(err).NotTo(HaveOccurred())
		Expect(back.Cases).To(Equal(sampleRun().Cases))

		empty := jsonOf(&runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion})
		Expect(spec.ValidateJSON("report-run", empty)).To(Succeed(), string(empty))
		Expect(string(empty)).To(ContainSubstring(`"cases": []`))
	})

	It("text: lists the failures with diffs and faults, then the summaries and the final line", func() {
		var buf bytes.Buffer
		Expect(report.WriteRunText(&buf, sampleRun(), report.RunText{})).To(Succeed())
		out := buf.String()
		Expect(out).To(HavePrefix("conform run: demo 1.2.3 (js), protocol 1\nadapter: node 'my adapter.mjs'\nran 9 cases in 2.1s\n"))
		Expect(out).To(ContainSubstring("\nFAIL grep.result/b-fail\n  fails SEARCH-CAP-4 — MUST: The cap MUST NOT change `total`.\n  fails SEARCH-GREP-2 — MUST: Otherwise the header MUST be"))
		Expect(out).To(ContainSubstring("\n  - content [exact] $.content at byte 7 (SEARCH-GREP-2): first difference at byte 7 (line 1, column 8)\n      want: Found·3⏎\n      got:  Found·4⏎\n" +
			"  - meta [property] $.meta (SEARCH-CAP-4): meta.total is 4\n"))
		Expect(out).To(ContainSubstring("ERROR grep.result/c-error\n  cites SEARCH-GREP-2 (the case did not run to an answer)\n  message: \"answer line is not JSON: \\u001b[31mred\"\n"), "messages are quoted, control characters escaped")
		Expect(out).To(ContainSubstring("CRASH retain.text/e-crash\n  cites RET-TEXT-1 (the case did not run to an answer)\n  message: \"adapter exited (exit status 3)\"\n  adapter stderr (last 10 lines):\n  | noise\n"))
		Expect(out).To(ContainSubstring("  | fatal: last words\n"))
		Expect(out).To(ContainSubstring("TIMEOUT retain.text/d-timeout"))
		Expect(out).To(ContainSubstring("XPASS spill.preview/i-xpass\n  stale baseline entry: the case passes (baseline reason: fixed since)\n"))
		Expect(out).NotTo(ContainSubstring("XFAIL"), "expected failures are listed with -v only")
		Expect(out).To(ContainSubstring("unsupported: the adapter does not list retain.text (1 case)\n"))
		Expect(out).To(ContainSubstring("skipped: 1 case: not implemented yet\n"))
		Expect(out).To(ContainSubstring("xfail: 1 case failing as the baseline expects\n"))
		Expect(out).To(ContainSubstring(
			"op             cases  pass  fail  error  timeout  crash  unsupported  skipped  xfail  xpass\n" +
				"grep.result        3     1     1      1        0      0            0        0      0      0\n"))
		Expect(out).To(ContainSubstring("all                9     1     1      1        1      1            1        1      1      1\n"))
		Expect(out).To(ContainSubstring("requirements: 4: 4 failed\n"))
		Expect(out).To(MatchRegexp(`(?m)^  SEARCH-GREP-2 +MUST +failed +3 +0 +2 +header$`)) // b breaks it, c errs; h is xfail
		Expect(out).To(ContainSubstring("\nNONCONFORMANT:\n  - the baseline lists spill.preview/i-xpass as failing (fixed since), but it passes: remove the entry\n  - 4 cases fail, err, time out or crash\n"))
		Expect(out).To(HaveSuffix("\n1 passed, 1 failed, 1 error, 1 timeout, 1 crash, 1 unsupported, 1 skipped, 1 xfail, 1 xpass\n"))

		buf.Reset()
		Expect(report.WriteRunText(&buf, sampleRun(), report.RunText{MaxFailures: 2, Verbose: true, TotalCases: 100})).To(Succeed())
		out = buf.String()
		Expect(out).To(ContainSubstring("ran 9 of 100 cases"))
		Expect(strings.Count(out, "\nFAIL ") + strings.Count(out, "\nERROR ")).To(Equal(2))
		Expect(out).To(ContainSubstring("... and 4 more failing cases"))
		Expect(out).To(MatchRegexp(`(?m)^  SEARCH-META-2 +MUST +failed +2 +1 +1 `))
	})

	It("SummaryLine: N passed, N failed, then the other verdicts that occurred", func() {
		Expect(report.SummaryLine(runner.Totals(nil))).To(Equal("0 passed, 0 failed"))
		Expect(report.SummaryLine(map[verdict.Verdict]int{verdict.Pass: 5, verdict.Crash: 2})).To(Equal("5 passed, 0 failed, 2 crash"))
	})

	It("JUnit: one testcase per case; errors for faults, skipped, xfail passes, xpass fails", func() {
		var buf bytes.Buffer
		Expect(report.WriteRunJUnit(&buf, sampleRun())).To(Succeed())
		ju, err := report.ReadJUnit(&buf)
		Expect(err).NotTo(HaveOccurred())
		// the nine cases and one testcase for the stale baseline entry
		Expect([]int{ju.Tests, ju.Failures, ju.Errors, ju.Skipped}).To(Equal([]int{10, 3, 3, 2}))
		Expect(ju.Name).To(Equal("conform run: demo 1.2.3"))
		Expect(ju.Suites).To(HaveLen(4))
		Expect(ju.Suites[3].Name).To(Equal("conform"))
		Expect(ju.Suites[3].Cases[0].Name).To(Equal("stale-baseline-entry spill.preview/i-xpass"))
		Expect(ju.Suites[3].Cases[0].Failure).NotTo(BeNil())
		Expect(ju.Suites[0].Name).To(Equal("grep.result"))
		Expect(ju.Suites[0].Timestamp).To(Equal("2026-01-02T03:04:05Z"))
		byName := map[string]report.TestCase{}
		for _, s := range ju.Suites {
			for _, tc := range s.Cases {
				Expect(tc.Classname).To(Equal(s.Name))
				byName[tc.Name] = tc
			}
		}
		fail := byName["grep.result/b-fail"].Failure
		Expect(fail.Type).To(Equal("fail"))
		Expect(fail.Message).To(Equal("fails SEARCH-CAP-4, SEARCH-GREP-2: first difference at byte 7 (line 1, column 8)"))
		Expect(fail.Text).To(ContainSubstring("fails SEARCH-GREP-2 — MUST: Otherwise the header MUST be"))
		Expect(fail.Text).To(ContainSubstring("want: Found·3⏎"))
		crash := byName["retain.text/e-crash"].Error
		Expect(crash.Type).To(Equal("crash"))
		Expect(crash.Text).To(ContainSubstring("fatal: last words"))
		Expect(byName["retain.text/d-timeout"].Error.Type).To(Equal("timeout"))
		Expect(byName["grep.result/c-error"].Error.Message).To(ContainSubstring(`\x1b[31mred`), "ESC is escaped, as XML cannot carry it")
		Expect(byName["retain.text/f-unsupported"].Skipped).NotTo(BeNil())
		xfail := byName["spill.preview/h-xfail"]
		Expect(xfail.Failure).To(BeNil())
		Expect(xfail.Error).To(BeNil())
		Expect(xfail.SystemOut).To(ContainSubstring("expected failure: listed in the baseline (reason: known (HARNESS-1))"))
		Expect(byName["spill.preview/i-xpass"].Failure.Message).To(Equal("stale baseline entry: the case passes"))
		Expect(byName["grep.result/a-pass"].Time).To(BeNumerically("==", 0.001))
	})

	It("Markdown: a header and a compliance table per requirement", func() {
		var buf bytes.Buffer
		Expect(report.WriteRunMarkdown(&buf, sampleRun())).To(Succeed())
		out := buf.String()
		Expect(out).To(HavePrefix("### conform run — `demo 1.2.3`\n\n❌ **NONCONFORMANT** — 1 passed, 1 failed, 1 error"))
		Expect(out).To(ContainSubstring("adapter `node 'my adapter.mjs'`"))
		Expect(out).To(ContainSubstring("| Requirement | Level | Status | Cases | Pass | Fail | Other |\n|:---|:---|:---|---:|---:|---:|---:|\n"))
		Expect(out).To(ContainSubstring("| ❌ `SEARCH-GREP-2` | MUST | failed | 3 | 0 | 2 | 1 |\n"))
		Expect(out).To(ContainSubstring("| ❌ `SEARCH-META-2` | MUST | failed | 2 | 1 | 1 | 0 |\n"))
		Expect(out).To(ContainSubstring("| ❌ `SEARCH-CAP-4` | MUST | failed | 1 | 0 | 1 | 0 |\n"))
		Expect(out).To(ContainSubstring("**Why nonconformant**\n\n- `the baseline lists spill.preview/i-xpass as failing"))
		Expect(out).To(ContainSubstring("**Failing cases** (5)\n"))
		Expect(out).To(ContainSubstring("- `grep.result/b-fail` **fail** fails `SEARCH-CAP-4, SEARCH-GREP-2`: `$.content: first difference at byte 7"))
		Expect(out).To(ContainSubstring("  fails SEARCH-CAP-4 — MUST: The cap MUST NOT change `total`.\n"))
	})

	It("RunRequirements: a fail fails only the requirements it breaks", func() {
		rows := report.RunRequirements(sampleRun())
		byID := map[string]runner.RequirementRow{}
		for _, r := range rows {
			r.Title, r.Statement = "", ""
			byID[r.ID] = r
		}
		Expect(byID["SEARCH-GREP-2"]).To(Equal(runner.RequirementRow{ID: "SEARCH-GREP-2", Level: "MUST", Status: runner.StatusFailed, Cases: 3, Pass: 0, Fail: 2, XFail: 1}))
		Expect(byID["RET-TEXT-1"]).To(Equal(runner.RequirementRow{ID: "RET-TEXT-1", Level: "MUST", Status: runner.StatusFailed, Cases: 2, Fail: 2}))
		ids := make([]string, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		order := spec.IDs()
		pos := func(id string) int {
			for i, x := range order {
				if x == id {
					return i
				}
			}
			return -1
		}
		for i := 1; i < len(ids); i++ {
			Expect(pos(ids[i-1])).To(BeNumerically("<", pos(ids[i])), "catalogue order")
		}
	})

	It("RunBaseline: the failing and expected-failing cases, in case order, that baseline.Parse accepts", func() {
		entries := report.RunBaseline(sampleRun())
		Expect(entries).To(Equal([]report.BaselineEntry{
			{ID: "grep.result/b-fail", Reason: "fail: $.content: first difference at byte 7 (line 1, column 8)", Requirement: "SEARCH-GREP-2"},
			{ID: "grep.result/c-error", Reason: "error: answer line is not JSON: \x1b[31mred"},
			{ID: "retain.text/d-timeout", Reason: "timeout: no answer within 2s; adapter killed"},
			{ID: "retain.text/e-crash", Reason: "crash: adapter exited (exit status 3)"},
			{ID: "spill.preview/h-xfail", Reason: "known (HARNESS-1)", Requirement: "SEARCH-GREP-2"},
		}))
		var buf bytes.Buffer
		n, err := report.WriteRunBaseline(&buf, sampleRun(), "r.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(5))
		b, err := baseline.Parse("b.yaml", buf.Bytes())
		Expect(err).NotTo(HaveOccurred(), buf.String())
		Expect(b.Entries).To(HaveLen(5))
		Expect(b.Entries[1].Reason).To(Equal("error: answer line is not JSON: \x1b[31mred"))
		Expect(b.Entries[0].Requirement).To(Equal("SEARCH-GREP-2"))
		Expect(buf.String()).To(HavePrefix("# conform baseline: the known failures of demo 1.2.3 (5 entries),\n# written by `conform baseline write` from r.json.\n"))
	})
})

var _ = Describe("run diff", func() {
	It("sorts verdict changes into newly failing, fixed and other, and finds new and removed cases", func() {
		old := sampleRun()
		cur := sampleRun()
		cur.Cases[0].Verdict = verdict.Fail // a-pass: newly failing
		cur.Cases[0].Diffs = []runner.Diff{{Field: "meta", Comparator: "json", Path: "$.meta.total", Message: "want 1, got 2"}}
		cur.Cases[1].Verdict, cur.Cases[1].Diffs, cur.Cases[1].Broken = verdict.Pass, nil, nil // b-fail: fixed
		cur.Cases[2].Verdict = verdict.Crash                                                   // c-error: still failing, changed
		cur.Cases[7].Verdict = verdict.Pass                                                    // h-xfail: fixed
		cur.Cases = append(cur.Cases[:3], cur.Cases[4:]...)                                    // d-timeout removed
		cur.Cases = append(cur.Cases, runner.CaseResult{ID: "zz/new", Op: "zz", Verdict: verdict.Timeout, Message: "slow"})
		d := report.DiffRuns("old.json", old, "new.json", cur)
		Expect(d.NewlyFailing).To(Equal([]report.VerdictChange{
			{ID: "grep.result/a-pass", Op: "grep.result", Old: verdict.Pass, New: verdict.Fail, Why: "$.meta.total: want 1, got 2"},
			{ID: "zz/new", Op: "zz", Old: report.NoVerdict, New: verdict.Timeout, Why: "slow"},
		}))
		Expect(d.Fixed).To(Equal([]report.VerdictChange{
			{ID: "grep.result/b-fail", Op: "grep.result", Old: verdict.Fail, New: verdict.Pass},
			{ID: "spill.preview/h-xfail", Op: "spill.preview", Old: verdict.XFail, New: verdict.Pass},
		}))
		Expect(d.Changed).To(Equal([]report.VerdictChange{{ID: "grep.result/c-error", Op: "grep.result", Old: verdict.Error, New: verdict.Crash}}))
		Expect(d.Added).To(Equal([]report.CaseVerdict{{ID: "zz/new", Op: "zz", Verdict: verdict.Timeout, Why: "slow"}}))
		Expect(d.Removed).To(Equal([]report.CaseVerdict{{ID: "retain.text/d-timeout", Op: "retain.text", Verdict: verdict.Timeout}}))
		Expect(d.Regressed()).To(BeTrue())

		var buf bytes.Buffer
		Expect(d.WriteText(&buf)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("newly failing (2):\n  grep.result/a-pass  pass → fail      $.meta.total: want 1, got 2\n  zz/new              (new) → timeout  slow\n"))
		Expect(buf.String()).To(HaveSuffix("\n2 newly failing, 2 fixed, 1 other changes, 1 new, 1 removed\n"))
		buf.Reset()
		Expect(d.WriteJSON(&buf)).To(Succeed())
		var back report.RunDiff
		Expect(json.Unmarshal(buf.Bytes(), &back)).To(Succeed())
		Expect(back).To(Equal(*d))

		Expect(report.DiffRuns("a", old, "a", old).Regressed()).To(BeFalse())

		// issue 21: an interrupted new run is no pass, its missing cases no fix
		cut := sampleRun()
		cut.Cases, cut.Complete, cut.Stopped = cut.Cases[:1], false, "interrupted: 1 of 9 selected cases ran"
		d = report.DiffRuns("old.json", old, "new.json", cut)
		Expect(d.NewlyFailing).To(BeEmpty())
		Expect(d.Regressed()).To(BeTrue())
		buf.Reset()
		Expect(d.WriteText(&buf)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("\nINCOMPLETE RUN: new.json is the report of a run that did not finish (interrupted: 1 of 9 selected cases ran)"))
	})

	DescribeTable("ReadRun refuses what is not a version-1 run report, naming the file",
		func(doc, want string) {
			_, err := report.ReadRun("some/file.json", []byte(doc))
			Expect(err).To(MatchError(HavePrefix("some/file.json: ")))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("not JSON", "{", "not a JSON run report"),
		Entry("an array", "[]", "not a JSON run report"),
		Entry("no format", `{"version":1}`, `no "format" member`),
		Entry("another format", `{"format":"conform-check-log","version":1}`, `format "conform-check-log", want "conform-run"`),
		Entry("no version", `{"format":"conform-run"}`, `no "version" member`),
		Entry("another version", `{"format":"conform-run","version":2}`, "report version 2, this conform reads version 1"),
		Entry("schema", `{"format":"conform-run","version":1,"cases":[]}`, "not a valid run report: the report-run schema rejects it"),
	)

	It("ReadRun refuses duplicate case ids", func() {
		r := sampleRun()
		r.Cases = append(r.Cases, r.Cases[0])
		r.Totals = runner.Totals(r.Cases)
		_, err := report.ReadRun("dup.json", jsonOf(r))
		Expect(err).To(MatchError("dup.json: case grep.result/a-pass appears twice"))
	})
})
