package fuzz_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
)

// clocked is a harness whose every answer advances a fake clock by tick
// and is counted: budgets are asserted on it, never on the wall clock.
type clocked struct {
	adapter.Harness
	mu        sync.Mutex
	now       time.Time
	tick      time.Duration
	exchanges int
}

func (c *clocked) Run(op string, input []byte) ([]byte, error) {
	c.mu.Lock()
	c.now = c.now.Add(c.tick)
	c.exchanges++
	c.mu.Unlock()
	return c.Harness.Run(op, input)
}

func (c *clocked) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clocked) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exchanges
}

func (c *clocked) session(context.Context) (adapter.Session, error) {
	return adapter.InProcess(c, wrong.Implementation("clocked")), nil
}

var _ = Describe("the shrink budget all findings share (issue 23)", func() {
	// ThreeBugs has four kinds of failure in run_code, each worth shrinking.
	three := func(tick time.Duration) *clocked {
		return &clocked{Harness: wrong.ThreeBugs{}, now: time.Unix(1e9, 0), tick: tick}
	}
	shrinkExchanges := func(c *clocked, rep *fuzz.Report) int { return c.count() - rep.Cases }

	It("bounds the exchanges of all shrinking together (--shrink-time's step count)", func() {
		unbounded := three(0)
		rep, err := fuzz.Run(context.Background(), fuzz.Options{Seed: 5, Cases: 1400, Jobs: 2, Ops: []string{"run_code.result"}, ShrinkTime: backstop, NewSession: unbounded.session})
		Expect(err).NotTo(HaveOccurred())
		Expect(shrinkExchanges(unbounded, rep)).To(BeNumerically(">", 300), "the bound below must bite")

		c := three(0)
		rep, err = fuzz.Run(context.Background(), fuzz.Options{Seed: 5, Cases: 1400, Jobs: 2, Ops: []string{"run_code.result"}, ShrinkRuns: 120, ShrinkTime: backstop, NewSession: c.session})
		Expect(err).NotTo(HaveOccurred())
		// one re-judging exchange per shrink may go over (Shrink)
		Expect(shrinkExchanges(c, rep)).To(BeNumerically("<=", 120+len(rep.Findings)))
		Expect(rep.Findings[0].Shrink.Shrunk).To(BeTrue(), "the first kind had its share")
	})

	It("bounds the time of all shrinking together, on the campaign's clock", func() {
		c := three(time.Second) // every exchange takes a second of the fake clock
		rep, err := fuzz.Run(context.Background(), fuzz.Options{Seed: 5, Cases: 1400, Jobs: 2, Ops: []string{"run_code.result"}, ShrinkTime: 90 * time.Second, Now: c.Now, NewSession: c.session})
		Expect(err).NotTo(HaveOccurred())
		Expect(shrinkExchanges(c, rep)).To(BeNumerically("<=", 90+len(rep.Findings)))
		Expect(shrinkExchanges(c, rep)).To(BeNumerically(">=", 45), "the first shrink may use half")
		notes := map[string]int{}
		for _, f := range rep.Findings {
			notes[f.Shrink.Note]++
		}
		Expect(notes).To(HaveKey(ContainSubstring("budget ran out")), "%v", notes)
	})

	It("honours --duration with the shrinking included: the cases leave the shrinking its time", func() {
		c := three(time.Second)
		rep, err := fuzz.Run(context.Background(), fuzz.Options{Seed: 5, Duration: 200 * time.Second, Jobs: 1, Ops: []string{"run_code.result"}, ShrinkTime: 60 * time.Second, Now: c.Now, NewSession: c.session})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Findings).NotTo(BeEmpty())
		// 200 s of fake time: 150 s of cases once a case has failed, then
		// at most the rest; one exchange may be under way at each bound.
		Expect(rep.Cases).To(BeNumerically("<=", 151))
		Expect(rep.Cases).To(BeNumerically(">=", 145), "the cases ran until the reserve")
		Expect(c.count()).To(BeNumerically("<=", 200+1+len(rep.Findings)))
		Expect(shrinkExchanges(c, rep)).To(BeNumerically(">", 0))
	})
})

var _ = Describe("saving findings (issue 23)", func() {
	It("saves each kind of failure when found, and replaces it by its finding's shrunk example", func() {
		dir := GinkgoT().TempDir()
		fixtures := func() []string {
			files, err := filepath.Glob(filepath.Join(dir, "fixtures", "*", "*.json"))
			Expect(err).NotTo(HaveOccurred())
			return files
		}
		var early []string
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 7, Cases: 600, Jobs: 2, Ops: []string{"grep.result"}, ShrinkRuns: 1000, ShrinkTime: backstop, SaveDir: dir,
			NewSession: inProcess(wrong.GrepLineShort{}, "grep-line-short"),
			Progress: func(p fuzz.Progress) {
				if p.Phase == fuzz.PhaseShrinking && early == nil {
					early = fixtures()
				}
			},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Findings).To(HaveLen(1))
		f := rep.Findings[0]
		Expect(early).To(HaveLen(len(f.Keys)), "one saved case per kind of failure before any shrinking")
		Expect(early).NotTo(ContainElement(f.Saved.Fixture), "the early ones are the unshrunk cases")
		Expect(fixtures()).To(Equal([]string{f.Saved.Fixture}), "replaced by the one finding's example")
		_, err = os.Stat(f.Saved.Golden)
		Expect(err).NotTo(HaveOccurred())
	})
})
