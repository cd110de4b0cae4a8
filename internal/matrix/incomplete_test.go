package matrix_test

import (
	"bytes"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	conform "github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/coverage"
	"github.com/dsh-conform/conform/internal/matrix"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
)

// referenceReport is the reference's run report, read back.
func referenceReport() *runner.Report {
	GinkgoHelper()
	r, err := report.ReadRun("reference.json", sampleReports()["reference"])
	Expect(err).NotTo(HaveOccurred())
	return r
}

// one builds the matrix of one report and renders it every way.
func one(r *runner.Report) (matrix.Column, string, string, string) {
	GinkgoHelper()
	m, err := matrix.Build([]matrix.Input{{File: "r.json", Report: r}})
	Expect(err).NotTo(HaveOccurred())
	var md bytes.Buffer
	Expect(matrix.WriteMarkdown(&md, m)).To(Succeed())
	return m.Columns[0], md.String(), pageOf(m), string(matrix.Badge(m.Columns[0]))
}

var _ = Describe("no green matrix or badge for an unfinished or partial run (issue 21)", func() {
	It("an interrupted run of passing cases is incomplete: grey badge, incomplete in the Markdown and the page", func() {
		r := referenceReport()
		r.Cases, r.Complete, r.Stopped = r.Cases[:699], false, "interrupted: 699 of 787 selected cases ran"
		r.Nonconformant = nil // an old reader's report: the marker alone must do
		col, md, page, badge := one(r)
		Expect(col.Result).To(Equal(matrix.ResultIncomplete))
		Expect(col.Conformant).To(BeFalse())
		Expect(badge).To(Equal(`{"schemaVersion":1,"label":"conform","message":"incomplete","color":"lightgrey"}` + "\n"))
		Expect(md).To(ContainSubstring("| **result** | ⚠ incomplete (the run did not finish) ✗ nonconformant |"))
		Expect(page).To(ContainSubstring("⚠ INCOMPLETE ✗ NONCONFORMANT"))
		Expect(page).NotTo(ContainSubstring("✓ CONFORMANT"))
	})

	It("a run of one op counts the requirements it checked and is partial, not green", func() {
		all, err := runner.LoadCases(conform.Files)
		Expect(err).NotTo(HaveOccurred())
		proof, err := coverage.LogProof()
		Expect(err).NotTo(HaveOccurred())
		r := referenceReport()
		kept := r.Cases[:0]
		for _, c := range r.Cases {
			if c.Op == "retain.items" {
				kept = append(kept, c)
			}
		}
		r.Cases, r.Selected = kept, len(kept)
		r.Requirements, r.Nonconformant = runner.Accounting(r, all, proof), nil
		col, md, page, badge := one(r)
		Expect(col.Result).To(Equal(matrix.ResultPartial))
		Expect(col.Checked).To(BeNumerically("<", 20))
		Expect(badge).NotTo(ContainSubstring("165"))
		Expect(badge).NotTo(ContainSubstring("brightgreen"))
		Expect(badge).To(MatchRegexp(`"message":"(\d+)/(\d+) checked, partial","color":"yellow"`))
		Expect(md).To(MatchRegexp(`\| \*\*result\*\* \| – partial \(\d+ requirements not selected\) \|`))
		Expect(page).To(ContainSubstring("– PARTIAL ("))
		Expect(page).NotTo(ContainSubstring("✓ CONFORMANT"))
	})
})

var _ = Describe("badge file names (issue 21)", func() {
	It("stay within file-name limits for any implementation name, one per column", func() {
		dir := GinkgoT().TempDir()
		long := strings.Repeat("n", 300)
		huge := strings.Repeat("é", 50_000)
		m := &matrix.Matrix{Columns: []matrix.Column{
			{Key: "c0", Name: long, Version: "1", Result: matrix.ResultConformant},
			{Key: "c1", Name: long, Version: "1", Result: matrix.ResultConformant},
			{Key: "c2", Name: long + "x", Version: "1", Result: matrix.ResultConformant},
			{Key: "c3", Name: huge, Result: matrix.ResultConformant},
		}}
		written, err := matrix.WriteBadges(dir, m)
		Expect(err).NotTo(HaveOccurred())
		Expect(written).To(HaveLen(4))
		seen := map[string]bool{}
		for _, p := range written {
			base := filepath.Base(p)
			Expect(len(base)).To(BeNumerically("<=", 100), base)
			Expect(seen[base]).To(BeFalse(), "one badge per column")
			seen[base] = true
		}
	})
})
