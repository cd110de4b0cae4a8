package report_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
)

// ReadRun reads with JSON.parse semantics (jsonjs), not encoding/json's.
var _ = Describe("ReadRun through jsonjs", func() {
	It("reads back every member a report writes", func() {
		want := sampleRun()
		got, err := report.ReadRun("r.json", jsonOf(want))
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Started.Equal(want.Started)).To(BeTrue())
		got.Started = want.Started
		Expect(*got).To(Equal(*want))
	})

	It("matches member names case-sensitively, as JSON.parse does", func() {
		data := strings.Replace(string(jsonOf(sampleRun())), `"cases"`, `"Cases"`, 1)
		_, err := report.ReadRun("r.json", []byte(data))
		Expect(err).To(MatchError(HavePrefix("r.json: not a valid run report: the report-run schema rejects it at")))
	})

	It("takes the last of duplicate members, as JSON.parse does", func() {
		data := strings.Replace(string(jsonOf(sampleRun())), `"id": "grep.result/a-pass"`, `"id": "x/first", "id": "grep.result/a-pass"`, 1)
		got, err := report.ReadRun("r.json", []byte(data))
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Cases[0].ID).To(Equal("grep.result/a-pass"))
	})
})
