package retention_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/retention"
)

var (
	none    = retention.Omission{Kind: retention.None}
	unknown = retention.Omission{Kind: retention.Unknown}
)

func exact(n int) retention.Omission { return retention.Omission{Kind: retention.Exact, Count: n} }

var _ = Describe("§1 omission values (RET-OMIT-*)", func() {
	DescribeTable("DescribeOmitted (RET-OMIT-2)",
		func(o retention.Omission, unit, want string) {
			Expect(retention.DescribeOmitted(o, unit)).To(Equal(want))
		},
		Entry("exact 3, bytes", exact(3), "bytes", "Omitted 3 bytes."),
		Entry("none, items", none, "items", ""),
		Entry("unknown, lines", unknown, "lines", "More lines were omitted."),
		// Further upstream outputs (FINDINGS Q6).
		Entry("exact 1 has no singular form", exact(1), "bytes", "Omitted 1 bytes."),
		Entry("exact 0", exact(0), "chars", "Omitted 0 chars."),
		Entry("unknown, items", unknown, "items", "More items were omitted."),
		Entry("exact 12345, lines", exact(12345), "lines", "Omitted 12345 lines."),
	)

	DescribeTable("Notice (RET-OMIT-3)",
		func(o retention.Omission, unit, recovery, want string) {
			Expect(retention.Notice(o, unit, recovery)).To(Equal(want))
		},
		Entry("exact 3 items + recovery", exact(3), "items", "Narrow the pattern.", "Omitted 3 items. Narrow the pattern."),
		Entry("none + recovery", none, "items", "Narrow the pattern.", "Narrow the pattern."),
		Entry("unknown items + empty recovery", unknown, "items", "", "More items were omitted."),
		// Further upstream outputs (FINDINGS Q6).
		Entry("none + empty recovery", none, "items", "", ""),
		Entry("exact 3 + a one-space recovery is joined, not trimmed", exact(3), "items", " ", "Omitted 3 items.  "),
		Entry("unknown bytes + recovery", unknown, "bytes", "Use read.", "More bytes were omitted. Use read."),
	)

	DescribeTable("JSON form",
		func(o retention.Omission, want string) {
			out, err := json.Marshal(o)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(want))
			var back retention.Omission
			Expect(json.Unmarshal(out, &back)).To(Succeed())
			Expect(back).To(Equal(o))
		},
		Entry("none", none, `{"kind":"none"}`),
		Entry("unknown", unknown, `{"kind":"unknown"}`),
		Entry("exact 2", exact(2), `{"kind":"exact","count":2}`),
		Entry("exact 0", exact(0), `{"kind":"exact","count":0}`),
	)

	It("rejects malformed omission JSON", func() {
		var o retention.Omission
		Expect(json.Unmarshal([]byte(`{"kind":"exact"}`), &o)).NotTo(Succeed())
		Expect(json.Unmarshal([]byte(`{"kind":"partial"}`), &o)).NotTo(Succeed())
		Expect(json.Unmarshal([]byte(`[]`), &o)).NotTo(Succeed())
		Expect(json.Unmarshal([]byte(`{"kind":"none","count":4}`), &o)).To(Succeed())
		Expect(o).To(Equal(none), "a count on none is ignored")
	})
})
