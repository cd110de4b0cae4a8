package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing/iotest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/spec"
)

// The check-log report model on synthetic findings, independent of the
// engine. (The end-to-end specs are in cmd/conform.)
var _ = Describe("check-log reports", func() {
	f := func(file string, line int, req string, l logcheck.Level) logcheck.Finding {
		return logcheck.Finding{File: file, Line: line, Seq: max(int64(line)-2, -1), Requirement: req, Level: l, Message: "msg " + req + " | pipe"}
	}
	build := func(failOn logcheck.Level, max int, bl *baseline.Baseline) *logcheck.Summary {
		s := logcheck.NewSummary(failOn, max, bl)
		a := s.AddFile("logs/a.jsonl")
		a.Stats = logcheck.Stats{Lines: 10, Events: 9, ResultsChecked: map[string]int{"grep": 2}, UnknownTypes: map[string]int{"x/y": 1}, Bytes: 1000}
		s.Add(a, f("logs/a.jsonl", 3, "LOG-CHECK-2", logcheck.Violation))
		s.Add(a, f("logs/a.jsonl", 4, "LOG-CHECK-2", logcheck.Violation))
		s.Add(a, f("logs/a.jsonl", 5, "LOG-CHECK-SEARCH-2", logcheck.Warning))
		s.Add(a, f("logs/a.jsonl", 6, "LOG-CHECK-SEARCH-6", logcheck.Unprovable))
		b := s.AddFile("logs/b.jsonl")
		b.Stats = logcheck.Stats{Lines: 2, Events: 1, Bytes: 50}
		s.Add(b, f("logs/b.jsonl", 0, "LOG-5", logcheck.Violation))
		s.Finish()
		return s
	}
	logAreaIDs := func() []string {
		reqs, err := spec.Catalogue()
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		var ids []string
		for _, q := range reqs {
			if q.Area == "log" {
				ids = append(ids, q.ID)
			}
		}
		return ids
	}
	decode := func(out string) report.CheckLogJSON {
		ExpectWithOffset(1, spec.ValidateJSON("report-check-log", []byte(out))).To(Succeed(), out)
		var rep report.CheckLogJSON
		ExpectWithOffset(1, json.Unmarshal([]byte(out), &rep)).To(Succeed())
		return rep
	}

	It("counts, lists and classifies", func() {
		s := build(logcheck.Violation, 0, nil)
		Expect(s.Failing()).To(Equal(3))
		Expect(s.Result()).To(Equal(logcheck.ResultFail))
		Expect(report.CheckLogRequirements(s)).To(ContainElement("LOG-5"))
		Expect(report.CheckLogRequirements(s)).NotTo(ContainElement("SEARCH-GREP-1"))
		Expect(build(logcheck.Warning, 0, nil).Failing()).To(Equal(4))
	})

	It("adds an ID outside the log area that a finding names, in catalogue order", func() {
		s := logcheck.NewSummary(logcheck.Violation, 0, nil)
		a := s.AddFile("a.jsonl")
		s.Add(a, f("a.jsonl", 2, "ZZ-NOT-IN-CATALOGUE", logcheck.Violation))
		s.Add(a, f("a.jsonl", 3, "CODE-DISPATCH-6", logcheck.Violation))
		s.Finish()
		checked := report.CheckLogRequirements(s)
		n := len(checked)
		Expect(n).To(Equal(len(logAreaIDs()) + 2))
		Expect(checked[n-1]).To(Equal("ZZ-NOT-IN-CATALOGUE"), "unknown IDs go last")
		Expect(checked).To(ContainElement("CODE-DISPATCH-6"))
		Expect(report.CheckLogArea("CODE-DISPATCH-6")).To(Equal("codemode"))
		Expect(report.CheckLogArea("ZZ-NOT-IN-CATALOGUE")).To(Equal("log"))
	})

	It("produces schema-valid JSON", func() {
		var buf bytes.Buffer
		Expect(report.WriteCheckLogJSON(&buf, build(logcheck.Violation, 2, nil))).To(Succeed())
		rep := decode(buf.String())
		Expect(rep.Totals.Listed).To(Equal(2))
		Expect(rep.Totals.Dropped).To(Equal(3))
		Expect(rep.Files[1].Dropped).To(Equal(1))
		Expect(rep.Totals.Findings).To(Equal(report.CheckLogLevelCounts{Violation: 3, Warning: 1, Unprovable: 1}))
		Expect(rep.Totals.ResultsChecked).To(Equal(map[string]int{"grep": 2}))
		Expect(rep.Totals.Bytes).To(BeNumerically("==", 1050))
	})

	It("produces JUnit with one failure per failing requirement and unprovable as skipped", func() {
		var buf bytes.Buffer
		Expect(report.WriteCheckLogJUnit(&buf, build(logcheck.Violation, 0, nil))).To(Succeed())
		ts, err := report.ReadJUnit(&buf)
		Expect(err).NotTo(HaveOccurred())
		n := len(logAreaIDs())
		Expect(ts.Tests).To(Equal(2 * n))
		Expect(ts.Suites[0].Failures).To(Equal(1)) // LOG-CHECK-2
		Expect(ts.Suites[0].Skipped).To(Equal(1))  // LOG-CHECK-SEARCH-6
		Expect(ts.Suites[1].Failures).To(Equal(1)) // LOG-5
		Expect(ts.Failures).To(Equal(2))
		for _, c := range ts.Suites[0].Cases {
			switch c.Name {
			case "LOG-CHECK-2":
				Expect(c.Failure.Message).To(Equal("2 violations"))
				Expect(c.Failure.Text).To(ContainSubstring("logs/a.jsonl:3: violation LOG-CHECK-2 msg LOG-CHECK-2 | pipe"))
			case "LOG-CHECK-SEARCH-2":
				Expect(c.Failure).To(BeNil(), "a warning below --fail-on does not fail")
				Expect(c.SystemOut).To(ContainSubstring("warning"))
			}
		}
		buf.Reset()
		Expect(report.WriteCheckLogJUnit(&buf, build(logcheck.Warning, 0, nil))).To(Succeed())
		ts, err = report.ReadJUnit(&buf)
		Expect(err).NotTo(HaveOccurred())
		Expect(ts.Failures).To(Equal(3))
	})

	It("produces the markdown table", func() {
		var buf bytes.Buffer
		Expect(report.WriteCheckLogMarkdown(&buf, build(logcheck.Violation, 0, nil))).To(Succeed())
		out := buf.String()
		Expect(out).To(ContainSubstring("| `LOG-CHECK-2` | ❌ fail | 2 | 0 | 0 | 0 | `logs/a.jsonl:3` `msg LOG-CHECK-2 \\| pipe` |"))
		Expect(out).To(ContainSubstring("| `LOG-CHECK-SEARCH-2` | ⚠️ warning | 0 | 1 | 0 | 0 |"))
		Expect(out).To(ContainSubstring("| `LOG-CHECK-SEARCH-6` | ❔ unprovable | 0 | 0 | 1 | 0 |"))
		Expect(out).To(ContainSubstring("| `LOG-CHECK-1` | ✅ pass | 0 | 0 | 0 | 0 |  |"))
		Expect(out).To(ContainSubstring("| `LOG-5` | ❌ fail | 1 |"))
	})

	It("applies a baseline: matched findings do not fail, unmatched entries are stale", func() {
		bl, err := baseline.Parse("bl.yaml", []byte("- requirement: LOG-CHECK-2\n  file: 'logs/*.jsonl'\n  reason: known\n- requirement: LOG-5\n  reason: trimmed fixture\n- requirement: LOG-CHECK-3\n  reason: old\n"))
		Expect(err).NotTo(HaveOccurred())
		s := build(logcheck.Violation, 0, bl)
		Expect(s.Failing()).To(Equal(0))
		Expect(s.Stale).To(HaveLen(1))
		Expect(s.Stale[0].Requirement).To(Equal("LOG-CHECK-3"))
		Expect(s.Result()).To(Equal(logcheck.ResultFail), "a stale entry fails the run")
		Expect(report.CheckLogProblems(s)).To(Equal([]string{"stale baseline entry bl.yaml:6 {requirement: LOG-CHECK-3} matches no finding"}))
		var buf bytes.Buffer
		Expect(report.WriteCheckLogText(&buf, s)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("logs/a.jsonl:3: violation LOG-CHECK-2 msg LOG-CHECK-2 | pipe [baselined: known]"))
		Expect(buf.String()).To(ContainSubstring("stale baseline entry bl.yaml:6 {requirement: LOG-CHECK-3} matches no finding (reason: old)"))
		Expect(buf.String()).To(ContainSubstring("3 baselined, 1 stale baseline entry"))
		buf.Reset()
		Expect(report.WriteCheckLogJSON(&buf, s)).To(Succeed())
		rep := decode(buf.String())
		Expect(rep.Totals.Baselined).To(Equal(3))
		Expect(rep.Files[0].Stats.Baselined).To(Equal(2))
		Expect(rep.Baseline.Entries).To(Equal(3))
	})

	It("reports a log that could not be read as an error", func() {
		s, err := logcheck.Run(context.Background(), []string{"-"}, logcheck.RunOptions{Options: logcheck.Defaults(), Stdin: iotest.ErrReader(errors.New("disk on fire"))})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Result()).To(Equal(logcheck.ResultError))
		Expect(report.CheckLogProblems(s)).To(Equal([]string{logcheck.StdinName + ": disk on fire"}))
		var buf bytes.Buffer
		Expect(report.WriteCheckLogJUnit(&buf, s)).To(Succeed())
		ts, err := report.ReadJUnit(&buf)
		Expect(err).NotTo(HaveOccurred())
		Expect(ts.Errors).To(Equal(1))
		buf.Reset()
		Expect(report.WriteCheckLogJSON(&buf, s)).To(Succeed())
		Expect(decode(buf.String()).Totals.Result).To(Equal("error"))
		buf.Reset()
		Expect(report.WriteCheckLogText(&buf, s)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("result: ERROR (1 log could not be read)"))
	})
})
