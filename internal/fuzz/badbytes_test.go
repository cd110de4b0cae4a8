package fuzz_test

import (
	"bytes"
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// leakBytes is the reference with one porting bug: where its output holds
// U+FFFD (the repair of bytes that are not UTF-8), it writes the raw byte
// FF instead, as a harness that forwards undecoded bytes would.
type leakBytes struct{}

func (leakBytes) Ops() []string { return adapter.Reference().Ops() }

func (leakBytes) Run(op string, input []byte) ([]byte, error) {
	out, err := adapter.Reference().Run(op, input)
	return bytes.ReplaceAll(out, []byte("\uFFFD"), []byte{0xFF}), err
}

func leakSession(context.Context) (adapter.Session, error) {
	return adapter.InProcess(leakBytes{}, adapter.Implementation{Name: "leak-bytes"}), nil
}

var _ = Describe("an answer holding bytes that are not UTF-8 (issue 10)", func() {
	It("fails every case whose golden holds U+FFFD, naming the bytes and where they are", func() {
		cases, err := runner.LoadCases(conform.Files)
		Expect(err).NotTo(HaveOccurred())
		var repaired []runner.Case
		for _, c := range cases {
			out, err := adapter.Reference().Run(c.Op, c.Input)
			if err == nil && bytes.Contains(out, []byte("\uFFFD")) {
				repaired = append(repaired, c)
			}
		}
		Expect(len(repaired)).To(BeNumerically(">=", 23)) // the 23 of the issue, at least
		s, _ := leakSession(context.Background())
		for _, c := range repaired {
			r := runner.RunCase(context.Background(), s, c, 0)
			Expect(r.Verdict).To(Equal(verdict.Fail), "%s: %s", c.ID, r.Message)
			Expect(r.Diffs).To(HaveLen(1), c.ID)
			Expect(r.Diffs[0].Message).To(MatchRegexp(`^invalid UTF-8 at \$\.\w+.* \(byte \d+\): FF, not repaired to U\+FFFD$`), c.ID)
			Expect(r.Diffs[0].Field).NotTo(BeEmpty(), c.ID)
		}
		retain := runner.RunCase(context.Background(), s, caseByID(cases, "retain.text/retain-text-bytes-e2-82-41"), 0)
		Expect(retain.Diffs[0].Path).To(Equal("$.text"))
		Expect(retain.Diffs[0].Field).To(Equal("text"))
	})

	It("is a finding of a fuzz campaign", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Ops: []string{"retain.text"}, Seed: 1, Cases: 400, Jobs: 1, ShrinkRuns: 1000, ShrinkTime: backstop, NewSession: leakSession,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Conformant()).To(BeFalse())
		Expect(findingIDs(rep)).NotTo(BeEmpty())
		for _, f := range rep.Findings {
			Expect(f.Key).To(Equal(fuzz.Key{Op: "retain.text", Field: "text", Verdict: verdict.Fail}))
		}
	})
})

func caseByID(cases []runner.Case, id string) runner.Case {
	GinkgoHelper()
	for _, c := range cases {
		if c.ID == id {
			return c
		}
	}
	Fail("no case " + id)
	return runner.Case{}
}
