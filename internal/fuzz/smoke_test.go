package fuzz_test

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/verdict"
)

// processSession starts a real adapter process.
func processSession(cfg adapter.Config) func(context.Context) (adapter.Session, error) {
	return func(ctx context.Context) (adapter.Session, error) { return adapter.Start(ctx, cfg) }
}

// expectClean asserts a campaign over every op found nothing.
func expectClean(rep *fuzz.Report, cases int) {
	GinkgoHelper()
	Expect(rep.Cases).To(Equal(cases))
	Expect(rep.Findings).To(BeEmpty(), "%+v", rep.Findings)
	Expect(rep.Conformant()).To(BeTrue())
	Expect(rep.GeneratorErrors).To(BeZero())
	Expect(rep.Totals[verdict.Pass]).To(Equal(cases))
	Expect(rep.FirstFailing).To(BeNil())
	for _, st := range rep.PerOp {
		Expect(st.Cases).To(BeNumerically(">=", cases/len(rep.PerOp)), st.Op)
	}
	fmt.Fprintf(GinkgoWriter, "%d cases in %.2f s: %.0f cases/s\n", rep.Cases, rep.CampaignMS/1000, rep.CasesPerSecond)
}

var _ = Describe("fuzzing the reference against itself (smoke mode)", func() {
	It("finds no mismatch in 10,000 cases through an in-process reference session", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{Seed: 20260101, Cases: 10000, Jobs: 2, NewSession: referenceSession})
		Expect(err).NotTo(HaveOccurred())
		expectClean(rep, 10000)
		Expect(rep.Ops).To(Equal(generators.DrawnOps()))
		for _, st := range rep.PerOp {
			for _, v := range fuzz.Variants(st.Op) {
				// a widening variant of run_code.result is one case in 20: ~71
				Expect(st.Variants[v]).To(BeNumerically(">", 45), "%s variant %s", st.Op, v)
			}
		}
		Expect(rep.Implementation).To(Equal(adapter.ReferenceImplementation()))
	})

	It("finds no mismatch through a `conform adapter` process built from ./cmd/conform", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 77, Cases: 2000, Jobs: 2,
			NewSession: processSession(adapter.Config{Argv: []string{bin("conform"), "adapter"}}),
			Adapter:    []string{bin("conform"), "adapter"},
		})
		Expect(err).NotTo(HaveOccurred())
		expectClean(rep, 2000)
		Expect(rep.Implementation.Name).To(Equal("conform reference"))
	})

	It("finds no mismatch in exec mode (one process per case)", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 78, Cases: 21, Jobs: 2,
			NewSession: processSession(adapter.Config{Argv: []string{bin("conform"), "adapter"}, Exec: true}),
		})
		Expect(err).NotTo(HaveOccurred())
		expectClean(rep, 21)
	})

	It("reports an adapter that cannot start as a start error, with no report", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Cases: 5, NewSession: processSession(adapter.Config{Argv: []string{bin("no-such-adapter")}}),
		})
		Expect(rep).To(BeNil())
		Expect(err).To(MatchError(ContainSubstring("starting the adapter")))
	})

	It("rejects unknown ops and bad shards", func() {
		_, err := fuzz.Run(context.Background(), fuzz.Options{Ops: []string{"nope"}, NewSession: referenceSession})
		Expect(err).To(MatchError(ContainSubstring(`no generator for op "nope"`)))
		_, err = fuzz.Run(context.Background(), fuzz.Options{Shard: 3, Shards: 3, NewSession: referenceSession})
		Expect(err).To(MatchError(ContainSubstring("shard 3/3")))
	})

	It("stops at the duration and reports the cases that finished when cancelled", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{Seed: 1, Duration: 200_000_000, Jobs: 2, NewSession: referenceSession})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Cases).To(BeNumerically(">", 10))
		Expect(rep.Planned).To(BeZero())

		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		rep, err = fuzz.Run(ctx, fuzz.Options{Seed: 1, Cases: 1_000_000, NewSession: referenceSession, OnCase: func(fuzz.CaseRecord) {
			if n++; n == 50 {
				cancel()
			}
		}})
		Expect(err).To(MatchError(context.Canceled))
		Expect(rep.Interrupted).To(BeTrue())
		Expect(rep.Cases).To(BeNumerically(">=", 50))
		Expect(rep.Cases).To(BeNumerically("<", 1000))
	})
})
