package report_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/spec"
)

var _ = Describe("a minimized input in every format (issue 20)", func() {
	It("is one line of the detail, escaped, and a member of the JSON case that validates and reads back", func() {
		rep := failingRun("grep.result/grep-text-groups-first-seen-order", wrong.GrepSortedPaths{})
		rep.Cases[0].Minimized = &runner.Minimized{Input: []byte(`{"a":"\u001b[31m\ud800"}`), Field: "content", Runs: 12, Stopped: true}
		rep.Notes = append(rep.Notes, runner.Note{Kind: runner.NoteExplain, Message: "minimization stopped at budget (10s for the run): 1 of 1 …"})

		var text, md, js bytes.Buffer
		Expect(report.WriteRunText(&text, rep, report.RunText{})).To(Succeed())
		Expect(report.WriteRunMarkdown(&md, rep)).To(Succeed())
		Expect(report.WriteRunJSON(&js, rep)).To(Succeed())
		want := `minimized input (content still fails, 12 runs; minimization stopped at budget): {"a":"\u001b[31m\ud800"}`
		for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
			Expect(out).To(ContainSubstring(want), name)
			Expect(out).NotTo(ContainSubstring("\x1b"), name)
		}
		Expect(text.String()).To(ContainSubstring("note (explain): minimization stopped at budget"))

		Expect(spec.ValidateJSON("report-run", js.Bytes())).To(Succeed())
		Expect(js.String()).To(ContainSubstring(`"minimized": {`))
		back, err := report.ReadRun("r.json", js.Bytes())
		Expect(err).NotTo(HaveOccurred())
		m := back.Cases[0].Minimized
		Expect(m).NotTo(BeNil())
		Expect(string(m.Input)).To(Equal(`{"a":"\u001b[31m\ud800"}`))
		Expect(m.Field).To(Equal("content"))
		Expect(m.Runs).To(Equal(12))
		Expect(m.Stopped).To(BeTrue())
		Expect(strings.Count(js.String(), `"inputText"`)).To(Equal(1)) // the minimized input's, a lone surrogate
	})
})
