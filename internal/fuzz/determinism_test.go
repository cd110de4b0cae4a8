package fuzz_test

import (
	"context"
	"crypto/sha256"
	"sort"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/verdict"
)

// inputText is the JSON text of a drawn input, widened or not.
func inputText(typed any) string {
	in, err := fuzz.NewInput(typed)
	Expect(err).NotTo(HaveOccurred())
	return string(in.Text)
}

func referenceSession(context.Context) (adapter.Session, error) {
	return adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation()), nil
}

// campaignLog runs a smoke campaign and returns case index → digest of its
// input text, and the verdicts.
func campaignLog(opt fuzz.Options) (map[int][32]byte, *fuzz.Report) {
	var mu sync.Mutex
	log := map[int][32]byte{}
	opt.NewSession = referenceSession
	opt.ShrinkTime = -1
	opt.OnCase = func(r fuzz.CaseRecord) {
		Expect(r.Err).NotTo(HaveOccurred())
		mu.Lock()
		defer mu.Unlock()
		Expect(log).NotTo(HaveKey(r.Case), "case %d ran twice", r.Case)
		log[r.Case] = sha256.Sum256(r.Input)
	}
	rep, err := fuzz.Run(context.Background(), opt)
	Expect(err).NotTo(HaveOccurred())
	return log, rep
}

var _ = Describe("the case schedule", func() {
	It("derives case seeds from the campaign seed and the case index alone", func() {
		// Pinned: changing CaseSeed changes every campaign's cases, and
		// with them every reproduce command ever printed.
		Expect(fuzz.CaseSeed(0, 0)).To(Equal(uint64(0x29c1b74bd3465f9c)))
		Expect(fuzz.CaseSeed(42, 17)).To(Equal(uint64(0x2cf0befdd81e86ab)))
		seen := map[uint64]bool{}
		for k := range 20000 {
			s := fuzz.CaseSeed(7, k)
			Expect(s).To(BeNumerically(">=", 1))
			Expect(s).To(BeNumerically("<=", uint64(1)<<62))
			Expect(int(s)).To(BeNumerically(">", 0)) // a positive int for Generator.Example
			seen[s] = true
		}
		Expect(seen).To(HaveLen(20000))
		Expect(fuzz.CaseSeed(7, 3)).NotTo(Equal(fuzz.CaseSeed(8, 3)))
	})

	It("rotates the ops, widens a quarter of an op's cases and makes about half of the others metamorphic variants", func() {
		ops := generators.DrawnOps()
		Expect(fuzz.CaseOp(ops, 0)).To(Equal(ops[0]))
		Expect(fuzz.CaseOp(ops, len(ops)+2)).To(Equal(ops[2]))
		widening := map[string]bool{"optional-members": true, "repeated-keys": true, "signature-keys": true, "past-slab": true, "respelled": true, "rare-text": true}
		for _, op := range ops {
			counts := map[string]int{}
			for k := range 8000 {
				counts[fuzz.CaseVariant(op, fuzz.CaseSeed(1, k))]++
			}
			var meta, wide []string
			for _, v := range fuzz.Variants(op) {
				if widening[v] {
					wide = append(wide, v)
				} else {
					meta = append(meta, v)
				}
			}
			Expect(wide).NotTo(BeEmpty(), op)
			for _, v := range wide {
				Expect(counts[v]).To(BeNumerically("~", 2000/len(wide), 200), op+" "+v)
			}
			if len(meta) == 0 {
				Expect(counts[""]).To(BeNumerically("~", 6000, 200), op)
				continue
			}
			Expect(counts[""]).To(BeNumerically("~", 3000, 200), op)
			for _, v := range meta {
				Expect(counts[v]).To(BeNumerically("~", 3000/len(meta), 200), op+" "+v)
			}
		}
	})

	It("re-draws Example(s_k) as rapid.Check's first draw with rapid.seed = s_k and rapid.checks = 1, for every op and variant", func() {
		for _, op := range generators.DrawnOps() {
			for _, v := range append([]string{""}, fuzz.Variants(op)...) {
				gen, err := fuzz.CaseGenerator(op, v)
				Expect(err).NotTo(HaveOccurred())
				for k := range 12 {
					s := fuzz.CaseSeed(99, k)
					first, err := fuzz.FirstDraw(gen, s)
					Expect(err).NotTo(HaveOccurred())
					Expect(inputText(first)).To(Equal(inputText(gen.Example(int(s)))), "%s variant %q case %d", op, v, k)
				}
			}
		}
	})

	It("gives every case the same input whatever the job count, shard or finishing order", func() {
		one, rep1 := campaignLog(fuzz.Options{Seed: 5, Cases: 700, Jobs: 1})
		three, rep3 := campaignLog(fuzz.Options{Seed: 5, Cases: 700, Jobs: 3})
		Expect(one).To(HaveLen(700))
		Expect(three).To(Equal(one))
		Expect(rep3.PerOp).To(Equal(rep1.PerOp))
		shards := map[int][32]byte{}
		for i := range 3 {
			part, _ := campaignLog(fuzz.Options{Seed: 5, Cases: 700, Jobs: 2, Shard: i, Shards: 3})
			for k, d := range part {
				Expect(k%3).To(Equal(i), "case %d in shard %d/3", k, i)
				Expect(shards).NotTo(HaveKey(k))
				shards[k] = d
			}
		}
		Expect(shards).To(Equal(one))
		other, _ := campaignLog(fuzz.Options{Seed: 6, Cases: 50, Jobs: 1})
		Expect(other[10]).NotTo(Equal(one[10]))
	})

	It("splits a campaign across shards without overlap or gap, from any first case", func() {
		for _, first := range []int{0, 1, 5} {
			for n := 1; n <= 4; n++ {
				var all []int
				for i := range n {
					part, rep := campaignLog(fuzz.Options{Seed: 1, First: first, Cases: 23, Shard: i, Shards: n, Ops: []string{"retain.items"}})
					Expect(rep.Cases).To(Equal(len(part)))
					if n > 1 {
						Expect(rep.Planned).To(Equal(len(part)))
					}
					for k := range part {
						all = append(all, k)
					}
				}
				sort.Ints(all)
				want := make([]int, 23)
				for i := range want {
					want[i] = first + i
				}
				Expect(all).To(Equal(want), "first %d, %d shards", first, n)
			}
		}
	})

	It("re-runs one case alone with --case K --cases 1", func() {
		all, _ := campaignLog(fuzz.Options{Seed: 9, Cases: 40, Jobs: 2})
		one, rep := campaignLog(fuzz.Options{Seed: 9, First: 33, Cases: 1})
		Expect(one).To(Equal(map[int][32]byte{33: all[33]}))
		Expect(rep.Totals[verdict.Pass]).To(Equal(1))
	})
})
