package report_test

import (
	"bytes"
	"regexp"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/spec"
)

// The rows and totals of a check-log report (issue 22: who judges the
// judge): a requirement dropped from the rows is a check nobody sees.
var _ = Describe("check-log report rows and totals", func() {
	withReqs := func(ids ...string) *logcheck.Summary {
		s := logcheck.NewSummary("", 0, nil)
		for _, id := range ids {
			s.ByReq[id] = &logcheck.Tally{}
		}
		return s
	}
	// want is the log area plus others, in catalogue order, then the
	// unknown ones sorted.
	want := func(others []string, unknown ...string) []string {
		var out []string
		for _, id := range spec.IDs() {
			if q, _ := spec.Lookup(id); q.Area == "log" || slices.Contains(others, id) {
				out = append(out, id)
			}
		}
		return append(out, unknown...)
	}

	It("lists the IDs findings name beyond the log area, catalogue ones in its order, the rest sorted last", func() {
		Expect(report.CheckLogRequirements(withReqs())).To(Equal(want(nil)))
		Expect(report.CheckLogRequirements(withReqs("SEARCH-GREP-1"))).To(Equal(want([]string{"SEARCH-GREP-1"})))
		Expect(report.CheckLogRequirements(withReqs("ZZZ-9"))).To(Equal(want(nil, "ZZZ-9")))
		for range 5 { // the findings come from a map: any order
			got := report.CheckLogRequirements(withReqs("ZZZ-9", "SEARCH-GREP-1", "AAA-1", "RET-OMIT-1", "LOG-5", "MMM-2"))
			Expect(got).To(Equal(want([]string{"SEARCH-GREP-1", "RET-OMIT-1"}, "AAA-1", "MMM-2", "ZZZ-9")))
		}
	})

	It("names a catalogue ID's area as its JUnit class, log for others", func() {
		Expect(report.CheckLogArea("SEARCH-GREP-1")).To(Equal("search"))
		Expect(report.CheckLogArea("RET-OMIT-1")).To(Equal("retention"))
		Expect(report.CheckLogArea("NOT-AN-ID")).To(Equal("log"))
	})

	text := func(st logcheck.Stats) string {
		s := logcheck.NewSummary("", 0, nil)
		f := s.AddFile("a.jsonl")
		f.Stats = st
		var b bytes.Buffer
		Expect(report.WriteCheckLogText(&b, s)).To(Succeed())
		return b.String()
	}
	size := func(n int64) string {
		m := regexp.MustCompile(`checked 1 file: 0 lines, 0 events, (.*)\n`).FindStringSubmatch(text(logcheck.Stats{Bytes: n}))
		ExpectWithOffset(1, m).To(HaveLen(2))
		return m[1]
	}

	It("writes the bytes read in the unit of their size", func() {
		for n, s := range map[int64]string{
			0: "0 bytes", 1023: "1023 bytes",
			1 << 10: "1.0 KiB", 3 << 9: "1.5 KiB", 1<<20 - 1: "1024.0 KiB",
			1 << 20: "1.0 MiB", 3 << 19: "1.5 MiB", 1<<30 - 1: "1024.0 MiB",
			1 << 30: "1.0 GiB", 3 << 29: "1.5 GiB", 5 << 40: "5120.0 GiB",
		} {
			Expect(size(n)).To(Equal(s), "%d bytes", n)
		}
	})

	It("counts tool results and unknown event types by name, or none", func() {
		out := text(logcheck.Stats{})
		Expect(out).To(ContainSubstring("tool results checked: none\n"))
		Expect(out).To(ContainSubstring("unknown event types: none\n"))
		out = text(logcheck.Stats{ResultsChecked: map[string]int{"grep": 2}, UnknownTypes: map[string]int{"x/y": 1}})
		Expect(out).To(ContainSubstring("tool results checked: grep 2\n"))
		Expect(out).To(ContainSubstring("unknown event types: x/y 1\n"))
		out = text(logcheck.Stats{ResultsChecked: map[string]int{"grep": 2, "glob": 3, "run_code": 1}})
		Expect(out).To(ContainSubstring("tool results checked: glob 3, grep 2, run_code 1\n"))
	})
})
