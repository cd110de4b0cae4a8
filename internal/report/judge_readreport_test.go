package report_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
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

	// ReadRun: `len(data) > jsonjs.MaxTapeBytes` -> `>=`. A report of
	// exactly MaxTapeBytes bytes is within what the tape reads, so it is
	// parsed (and here refused as not JSON), not refused for its size.
	// The boundary costs one 1 GiB buffer, of untouched pages but for the
	// copy jsonjs parses (about 1 s and 1 GiB of RSS, measured with
	// /usr/bin/time -v on the spec alone).
	It("refuses for its size only a report longer than jsonjs.MaxTapeBytes", func() {
		data := make([]byte, jsonjs.MaxTapeBytes+1)
		data[0] = 'x'
		_, err := report.ReadRun("r.json", data)
		Expect(err).To(MatchError(ContainSubstring("r.json: a run report of 1073741824 bytes: over the 1073741823 (1 GiB - 1) that can be read")))
		_, err = report.ReadRun("r.json", data[:jsonjs.MaxTapeBytes])
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(HavePrefix("r.json: "))
		Expect(err.Error()).NotTo(ContainSubstring("that can be read"))
	})
})
