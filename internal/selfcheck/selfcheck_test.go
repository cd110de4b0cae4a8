package selfcheck_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/selfcheck"
	"github.com/dsh-conform/conform/reference"
)

func TestSelfcheck(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/selfcheck")
}

var _ = Describe("the reference self-check", func() {
	samples, err := selfcheck.Samples()
	It("loads its samples", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(samples).NotTo(BeEmpty())
	})
	It("covers every op", func() {
		seen := map[string]bool{}
		for _, s := range samples {
			seen[s.Op] = true
		}
		for _, op := range reference.Ops() {
			Expect(seen).To(HaveKey(op))
		}
	})
	for _, s := range samples {
		It(s.Name+": matches the digest and the op schemas", func() {
			Expect(selfcheck.Check(s)).To(BeEmpty())
		})
	}
	It("reports a wrong expectation with the field and JSON path", func() {
		s := samples[0]
		s.Expect = map[string]jsonjsValue{"content": mustParse(`"something else"`)}
		Expect(selfcheck.Check(s)).To(ContainElement(ContainSubstring("content differs at $")))
	})
	It("reports an input that does not fit the op", func() {
		s := samples[0]
		s.Input = []byte(`{"args":{},"value":{"matches":[]},"nested":"x"}`)
		Expect(selfcheck.Check(s)).To(ContainElement(ContainSubstring("malformed sample")))
	})
})
