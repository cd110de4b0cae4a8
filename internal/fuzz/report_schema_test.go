package fuzz_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/spec"
)

// reportJSON writes a report the way `conform fuzz --format json` does.
func reportJSON(rep *fuzz.Report) []byte {
	GinkgoHelper()
	var b bytes.Buffer
	Expect(rep.WriteJSON(&b)).To(Succeed())
	return b.Bytes()
}

var _ = Describe("the JSON report schema (spec/schemas/report-fuzz.json)", func() {
	It("accepts a campaign with a mismatch finding, shrunk and saved", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 3, Cases: 120, Jobs: 2, Ops: []string{"run_code.result", "grep.result"},
			ShrinkRuns: 500, ShrinkTime: backstop, SaveDir: GinkgoT().TempDir(),
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(wrong.DropEmptyLogs{}, wrong.Implementation("drop-empty-logs")), nil
			},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Findings).NotTo(BeEmpty())
		Expect(rep.Findings[0].Diffs).NotTo(BeEmpty())
		Expect(rep.Findings[0].Saved).NotTo(BeNil())
		Expect(rep.FirstFailing).NotTo(BeNil())
		data := reportJSON(rep)
		Expect(spec.ValidateJSON("report-fuzz", data)).To(Succeed(), string(data))
	})

	It("accepts a campaign with a crash finding, not shrunk, through an adapter argv", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 4, Cases: 80, Ops: []string{"run_code.result"}, ShrinkTime: -1, Adapter: []string{"./adapter", "--x"},
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(panicky{}, adapter.Implementation{Name: "panicky"}), nil
			},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Crashes).To(BeNumerically(">", 0))
		Expect(rep.Findings[0].Shrink.Note).To(Equal("shrinking disabled"))
		data := reportJSON(rep)
		Expect(spec.ValidateJSON("report-fuzz", data)).To(Succeed(), string(data))
	})

	It("accepts a clean shard of a --duration campaign, and an interrupted one", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 5, First: 7, Duration: 100 * time.Millisecond, Shard: 1, Shards: 3, NewSession: referenceSession,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Conformant()).To(BeTrue())
		Expect(rep.Shard).NotTo(BeNil())
		Expect(rep.Planned).To(BeZero())
		data := reportJSON(rep)
		Expect(spec.ValidateJSON("report-fuzz", data)).To(Succeed(), string(data))

		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rep, err = fuzz.Run(ctx, fuzz.Options{
			Seed: 5, Cases: 1000, NewSession: referenceSession,
			OnCase: func(r fuzz.CaseRecord) {
				if r.Case >= 10 {
					cancel()
				}
			},
		})
		Expect(errors.Is(err, context.Canceled)).To(BeTrue(), "%v", err)
		Expect(rep.Interrupted).To(BeTrue())
		data = reportJSON(rep)
		Expect(spec.ValidateJSON("report-fuzz", data)).To(Succeed(), string(data))
	})

	It("rejects a real report that lost a field or gained one", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{Seed: 6, Cases: 14, NewSession: referenceSession})
		Expect(err).NotTo(HaveOccurred())
		var doc map[string]any
		Expect(json.Unmarshal(reportJSON(rep), &doc)).To(Succeed())
		for _, mutate := range []func(map[string]any){
			func(d map[string]any) { delete(d, "perOp") },
			func(d map[string]any) { d["extra"] = true },
			func(d map[string]any) { d["perOp"].([]any)[0].(map[string]any)["totals"] = map[string]any{"pass": 1} },
		} {
			var c map[string]any
			raw, _ := json.Marshal(doc)
			Expect(json.Unmarshal(raw, &c)).To(Succeed())
			mutate(c)
			raw, _ = json.Marshal(c)
			var verr *spec.ValidationError
			Expect(errors.As(spec.ValidateJSON("report-fuzz", raw), &verr)).To(BeTrue(), string(raw))
		}
	})
})
