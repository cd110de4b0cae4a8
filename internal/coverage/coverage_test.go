package coverage_test

import (
	"os"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/coverage"
	"github.com/dsh-conform/conform/internal/fixture"
	"github.com/dsh-conform/conform/spec"
)

func TestCoverage(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/coverage")
}

var _ = Describe("requirement coverage", func() {
	reqs, err := spec.Catalogue()
	fixtures, loadErr := fixture.Load(os.DirFS("../.."))
	proof, proofErr := coverage.LogProof()
	rep := coverage.Compute(reqs, fixtures, proof)

	It("loads the catalogue, the fixtures and the log-check proofs", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(loadErr).NotTo(HaveOccurred())
		Expect(proofErr).NotTo(HaveOccurred())
	})
	It("has no fixture naming a requirement that spec/ lacks", func() {
		Expect(rep.Unknown).To(BeEmpty())
	})
	It("covers every requirement by a fixture, a log-check case or a justified exclusion", func() {
		var gaps []string
		for _, g := range rep.Gaps() {
			gaps = append(gaps, g.ID)
		}
		Expect(gaps).To(BeEmpty())
	})
	It("keeps exclusions few and justified", func() {
		n := 0
		for _, r := range rep.Rows {
			if r.Exclusion != "" {
				n++
				Expect(len(r.Exclusion)).To(BeNumerically(">=", 30), "%s needs a real reason", r.ID)
				Expect(r.Cases).To(BeEmpty(), "%s is excluded but fixtures observe it", r.ID)
			}
		}
		Expect(n).To(BeNumerically("<=", 25))
	})
	It("proves every LOG-* requirement with a session-log case", func() {
		for _, r := range rep.Rows {
			if strings.HasPrefix(r.ID, "LOG-") {
				Expect(r.LogChecks).NotTo(BeEmpty(), r.ID)
			}
		}
	})
	It("reports a fixture's unknown requirement and a gap", func() {
		r := coverage.Compute([]spec.Requirement{{ID: "A-1"}, {ID: "B-1"}},
			[]fixture.Fixture{{ID: "op/x", Requirements: []string{"A-1", "Z-9"}}}, nil)
		Expect(r.Unknown).To(HaveKeyWithValue("Z-9", []string{"op/x"}))
		Expect(r.Gaps()).To(HaveLen(1))
		Expect(r.Gaps()[0].ID).To(Equal("B-1"))
	})
})
