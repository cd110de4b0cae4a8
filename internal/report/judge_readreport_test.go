package report_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
)

// ReadRun feeds conform diff and the matrix: an input or minimized input
// it reads back wrong is a different case (issue 22: who judges the judge).
var _ = Describe("ReadRun's inputs", func() {
	It("reads back a minimized input that needs no inputText", func() {
		want := sampleRun()
		want.Cases[1].Minimized = &runner.Minimized{Input: []byte(`{"a":[1,2]}`), Field: "content", Runs: 3}
		js := string(jsonOf(want))
		Expect(js).NotTo(ContainSubstring(`"inputText"`))
		got, err := report.ReadRun("r.json", []byte(js))
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Cases[1].Minimized).NotTo(BeNil())
		Expect(string(got.Cases[1].Minimized.Input)).To(Equal(`{"a":[1,2]}`))
	})

	It("keeps each input's spelling from the last cases member, as JSON.parse reads the cases", func() {
		want := sampleRun()
		want.Cases = want.Cases[:2]
		want.Totals = runner.Totals(want.Cases)
		want.Selected = 2
		want.Cases[0].Input = []byte(`{"n":2E1,"s":"\ud800"}`) // a lone surrogate: written as inputText
		want.Cases[1].Input = []byte(`{"n":3E1}`)
		js := string(jsonOf(want))
		Expect(js).To(ContainSubstring(`"inputText"`))
		// An earlier cases member, three cases long, whose first input is spelled otherwise.
		early := `"cases": [{"id": "x", "input": {"n":1E5}}, {"id": "y", "input": 1}, {"id": "z", "input": 2}],` + "\n  \"cases\":"
		js = strings.Replace(js, `"cases":`, early, 1)
		got, err := report.ReadRun("r.json", []byte(js))
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Cases).To(HaveLen(2))
		Expect(string(got.Cases[0].Input)).To(Equal(`{"n":2E1,"s":"\ud800"}`))
		Expect(string(got.Cases[1].Input)).To(Equal(`{"n":3E1}`))
	})
})
