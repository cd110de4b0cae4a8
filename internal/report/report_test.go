package report_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
)

var _ = Describe("JUnit", func() {
	sample := func() *report.TestSuites {
		return &report.TestSuites{
			Name: "demo",
			Time: 1.5,
			Suites: []report.TestSuite{
				{Name: "a.jsonl", Time: 0.25, Cases: []report.TestCase{
					{Name: "LOG-CHECK-1", Classname: "log"},
					{Name: "LOG-CHECK-2", Classname: "log", Failure: &report.Outcome{Message: "2 violation", Type: "violation", Text: "a.jsonl:3: bad\na.jsonl:4: worse\n"}},
					{Name: "LOG-CHECK-SEARCH-6", Classname: "log", Skipped: &report.Outcome{Message: "unprovable"}},
				}},
				{Name: "b.jsonl", Cases: []report.TestCase{
					{Name: "read", Classname: "log", Error: &report.Outcome{Message: "EOF"}},
					{Name: "LOG-CHECK-1", Classname: "log", SystemOut: "a warning\n"},
				}},
			},
		}
	}

	It("derives the count attributes from the cases", func() {
		r := sample()
		r.Tally()
		Expect([]int{r.Tests, r.Failures, r.Errors, r.Skipped}).To(Equal([]int{5, 1, 1, 1}))
		Expect([]int{r.Suites[0].Tests, r.Suites[0].Failures, r.Suites[0].Errors, r.Suites[0].Skipped}).To(Equal([]int{3, 1, 0, 1}))
		Expect([]int{r.Suites[1].Tests, r.Suites[1].Failures, r.Suites[1].Errors, r.Suites[1].Skipped}).To(Equal([]int{2, 0, 1, 0}))
	})

	It("writes XML that parses back with encoding/xml", func() {
		var buf bytes.Buffer
		Expect(sample().Write(&buf)).To(Succeed())
		Expect(buf.String()).To(HavePrefix(xml.Header))
		Expect(buf.String()).To(ContainSubstring(`<testsuites name="demo" tests="5" failures="1" errors="1" skipped="1" time="1.500">`))
		got, err := report.ReadJUnit(&buf)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Tests).To(Equal(5))
		Expect(got.Time).To(BeNumerically("==", 1.5))
		Expect(got.Suites).To(HaveLen(2))
		Expect(got.Suites[0].Time).To(BeNumerically("==", 0.25))
		Expect(got.Suites[0].Cases[1].Failure.Text).To(Equal("a.jsonl:3: bad\na.jsonl:4: worse\n"))
		Expect(got.Suites[0].Cases[2].Skipped).NotTo(BeNil())
		Expect(got.Suites[0].Cases[0].Failure).To(BeNil())
		Expect(got.Suites[1].Cases[0].Error.Message).To(Equal("EOF"))
		Expect(got.Suites[1].Cases[1].SystemOut).To(Equal("a warning\n"))
	})

	It("keeps the output parseable whatever the messages contain", func() {
		r := &report.TestSuites{Suites: []report.TestSuite{{Name: "x<&>\"", Cases: []report.TestCase{
			{Name: "c", Failure: &report.Outcome{Message: "ctl \x00\x1b ]]> end", Text: "bad utf-8 \xff and \x07 bell"}},
		}}}}
		var buf bytes.Buffer
		Expect(r.Write(&buf)).To(Succeed())
		var back report.TestSuites
		Expect(xml.Unmarshal(buf.Bytes(), &back)).To(Succeed())
		Expect(back.Suites[0].Name).To(Equal("x<&>\""))
		Expect(back.Failures).To(Equal(1))
	})

	It("rejects a bad time attribute when reading", func() {
		_, err := report.ReadJUnit(strings.NewReader(`<testsuites time="soon"></testsuites>`))
		Expect(err).To(MatchError(ContainSubstring("time")))
	})
})

var _ = Describe("Markdown table", func() {
	It("renders header, alignment and escaped cells", func() {
		var buf bytes.Buffer
		t := report.Table{
			Header: []string{"ID", "Count", "Example"},
			Align:  []report.Align{report.AlignLeft, report.AlignRight},
			Rows: [][]string{
				{"A", "1", "a | b\nc"},
				{"B"},
			},
		}
		Expect(t.Write(&buf)).To(Succeed())
		Expect(buf.String()).To(Equal("| ID | Count | Example |\n" +
			"|:---|---:|---|\n" +
			"| A | 1 | a \\| b<br>c |\n" +
			"| B |  |  |\n"))
	})
	It("refuses a row wider than the header and a table without columns", func() {
		Expect(report.Table{Header: []string{"a"}, Rows: [][]string{{"1", "2"}}}.Write(&bytes.Buffer{})).To(MatchError(ContainSubstring("row 1")))
		Expect(report.Table{}.Write(&bytes.Buffer{})).NotTo(Succeed())
	})
	It("escapes single cells", func() {
		Expect(report.EscapeCell("  x|y\r\nz ")).To(Equal(`x\|y<br>z`))
	})
})

var _ = Describe("IsTerminal", func() {
	It("is false for regular files, pipes and nil", func() {
		f, err := os.Create(filepath.Join(GinkgoT().TempDir(), "f"))
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		Expect(report.IsTerminal(f)).To(BeFalse())
		r, w, err := os.Pipe()
		Expect(err).NotTo(HaveOccurred())
		defer r.Close()
		defer w.Close()
		Expect(report.IsTerminal(r)).To(BeFalse())
		Expect(report.IsTerminal(nil)).To(BeFalse())
	})
})
