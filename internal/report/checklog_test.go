package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
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

	It("streams the JSON report byte for byte as WriteCheckLogJSON writes the whole summary", func() {
		bl, err := baseline.Parse("bl.yaml", []byte("- requirement: LOG-5\n  reason: <known> & \"quoted\"\n- requirement: LOG-CHECK-3\n  reason: old\n"))
		Expect(err).NotTo(HaveOccurred())
		for _, s := range []*logcheck.Summary{build(logcheck.Violation, 2, nil), build(logcheck.Warning, 0, bl), logcheck.NewSummary("", 0, nil)} {
			s.Files = append(s.Files, &logcheck.FileResult{Name: "grew <a>.jsonl", Notes: []string{"grew & more"}})
			var whole, streamed bytes.Buffer
			Expect(report.WriteCheckLogJSON(&whole, s)).To(Succeed())
			js := report.NewCheckLogJSONStream(&streamed, s.FailOn, s.MaxFindings)
			for _, f := range s.Files {
				for _, fd := range f.Listed {
					js.Finding(fd)
				}
				kept := f.Listed
				f.Listed = nil // as a streaming run leaves it
				js.File(f)
				f.Listed = kept
			}
			Expect(js.Finish(s)).To(Succeed())
			Expect(streamed.String()).To(Equal(whole.String()))
			Expect(decode(streamed.String()).Files).To(HaveLen(len(s.Files)))
		}
		s := build(logcheck.Violation, 0, nil)
		s.Files = append(s.Files, &logcheck.FileResult{Name: "live.jsonl", Notes: []string{"grew from 1 to at least 2 bytes"}})
		var text, md bytes.Buffer
		Expect(report.WriteCheckLogText(&text, s)).To(Succeed())
		Expect(text.String()).To(ContainSubstring("\nlive.jsonl: note: grew from 1 to at least 2 bytes\n"))
		Expect(report.WriteCheckLogMarkdown(&md, s)).To(Succeed())
		Expect(md.String()).To(ContainSubstring("- `live.jsonl`: grew from 1 to at least 2 bytes\n"))
		empty := logcheck.NewSummary("", 0, nil)
		var whole, streamed bytes.Buffer
		Expect(report.WriteCheckLogJSON(&whole, empty)).To(Succeed())
		Expect(report.NewCheckLogJSONStream(&streamed, "", 0).Finish(empty)).To(Succeed())
		Expect(streamed.String()).To(Equal(whole.String()), "no log at all")
		decode(streamed.String())
	})

	It("keeps nothing per clean log in a streamed JSON run (issue 23)", func() {
		// What a streamed run retains per log, from the live heap after a
		// GC at the 200th and at the last log: a count, not the load.
		const n, from = 1200, 200
		dir := GinkgoT().TempDir()
		for i := range n {
			Expect(os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%05d.jsonl", i)), []byte(cleanHeader), 0o644)).To(Succeed())
		}
		js := report.NewCheckLogJSONStream(io.Discard, logcheck.Violation, 1000)
		var at [2]uint64
		done := 0
		s, err := logcheck.Run(context.Background(), []string{dir}, logcheck.RunOptions{
			Options: logcheck.Defaults(), MaxFindings: 1000, Listed: js.Finding,
			Done: func(f *logcheck.FileResult) {
				js.File(f)
				if done++; done == from || done == n {
					at[min(done/n, 1)] = liveHeap()
				}
			},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(js.Finish(s)).To(Succeed())
		Expect(s.FileCount()).To(Equal(n))
		perLog := (int64(at[1]) - int64(at[0])) / (n - from)
		Expect(perLog).To(BeNumerically("<", 64), "bytes retained per clean log")
		Expect(s.Files).To(BeEmpty(), "a clean log is a count")
	})
})

// cleanHeader is a clean log: its header line alone.
const cleanHeader = `{"type":"session","version":0,"id":"4428b809-66d5-4ea2-9a03-89de742fcda1","createdAt":1785591986068,"cwd":"/tmp","delegationDepth":0}` + "\n"

// liveHeap is the heap in use after a full GC.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
