package report_test

import (
	"bytes"
	"context"
	"os"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/spec"
)

// failingRun runs one embedded case through a one-bug harness and
// finishes the report as conform run does.
func failingRun(id string, h adapter.Harness) *runner.Report {
	GinkgoHelper()
	all, err := runner.LoadCases(os.DirFS("../.."))
	Expect(err).NotTo(HaveOccurred())
	sel := runner.Select(all, runner.Selection{Run: regexp.MustCompile("^" + regexp.QuoteMeta(id) + "$")})
	Expect(sel).To(HaveLen(1))
	rep, err := runner.Run(context.Background(), sel, runner.Options{Adapter: []string{"./my adapter"},
		NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(h, wrong.Implementation("grep-sorted-paths")), nil
		}})
	Expect(err).NotTo(HaveOccurred())
	rep.Finish(runner.Finishing{Conform: "test", CaseSet: "sha256:0123456789abcdef", Cases: sel, All: all})
	return rep
}

var _ = Describe("failure detail in every format (issue 12)", func() {
	It("shows the full diff, the statement and the reproduction; the JSON validates", func() {
		rep := failingRun("grep.result/grep-text-groups-first-seen-order", wrong.GrepSortedPaths{})
		c := rep.Cases[0]
		Expect(c.Broken).To(ContainElement("SEARCH-GREP-3"))
		statement := "MUST: The body MUST group the RETAINED matches"
		repro := `conform run --run '^grep\.result/grep-text-groups-first-seen-order$' -- './my adapter'`
		Expect(c.Reproduce).To(Equal(repro))

		var text, md, ju, js bytes.Buffer
		Expect(report.WriteRunText(&text, rep, report.RunText{})).To(Succeed())
		Expect(report.WriteRunMarkdown(&md, rep)).To(Succeed())
		Expect(report.WriteRunJUnit(&ju, rep)).To(Succeed())
		Expect(report.WriteRunJSON(&js, rep)).To(Succeed())
		for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
			Expect(out).To(ContainSubstring("--- want\n"), name)
			Expect(out).To(ContainSubstring("+++ got\n"), name)
			Expect(out).To(MatchRegexp(`(?m)^ *-a\.ts$`), name+": the unified diff's lines")
			Expect(out).To(MatchRegexp(`(?m)^ *\+a\.ts$`), name)
			Expect(out).To(ContainSubstring("fails SEARCH-GREP-3 — "+statement), name)
			Expect(out).To(ContainSubstring("reproduce: "+repro), name)
		}
		// JUnit: the same detail, XML-escaped
		Expect(ju.String()).To(ContainSubstring("--- want"))
		Expect(ju.String()).To(ContainSubstring("fails SEARCH-GREP-3 — MUST: The body MUST group the RETAINED matches"))
		Expect(ju.String()).To(ContainSubstring("reproduce: conform run --run &#39;^grep\\.result/grep-text-groups-first-seen-order$&#39;"))
		// JSON: whole values, the input, the reproduction, every requirement
		Expect(spec.ValidateJSON("report-run", js.Bytes())).To(Succeed())
		back, err := report.ReadRun("r.json", js.Bytes())
		Expect(err).NotTo(HaveOccurred())
		Expect(back.Cases[0].Reproduce).To(Equal(repro))
		Expect(back.Cases[0].Input).NotTo(BeEmpty())
		Expect(back.Cases[0].Diffs[0].WantJSON).NotTo(BeEmpty())
		Expect(back.Requirements).To(HaveLen(165))
		Expect(back.Nonconformant).NotTo(BeEmpty())
	})
})
