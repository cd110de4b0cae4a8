package retention_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

var (
	kept    = retention.Decision{Kept: true, Truncated: false}
	dropped = retention.Decision{Kept: false, Truncated: true}
)

var _ = Describe("§2 ItemRetainer head (RET-ITEM-*)", func() {
	type itemRow struct {
		max     int
		items   []string
		pushes  []retention.Decision
		finish  string // upstream finish() JSON (FINDINGS Q6)
		kept    []string
		omitted retention.Omission
	}

	rows := []TableEntry{
		Entry("maxItems 2, push a b c d", itemRow{
			max: 2, items: []string{"a", "b", "c", "d"},
			pushes:  []retention.Decision{kept, kept, dropped, dropped},
			finish:  `{"items":["a","b"],"truncated":true,"seen":4,"kept":2,"omitted":{"kind":"exact","count":2}}`,
			kept:    []string{"a", "b"},
			omitted: exact(2),
		}),
		Entry("maxItems 0, push a", itemRow{
			max: 0, items: []string{"a"},
			pushes:  []retention.Decision{dropped},
			finish:  `{"items":[],"truncated":true,"seen":1,"kept":0,"omitted":{"kind":"exact","count":1}}`,
			kept:    []string{},
			omitted: exact(1),
		}),
		Entry("maxItems 3, no push", itemRow{
			max: 3, items: nil,
			pushes:  []retention.Decision{},
			finish:  `{"items":[],"truncated":false,"seen":0,"kept":0,"omitted":{"kind":"none"}}`,
			kept:    []string{},
			omitted: none,
		}),
		Entry("maxItems 3, push exactly 3", itemRow{
			max: 3, items: []string{"x", "y", "z"},
			pushes:  []retention.Decision{kept, kept, kept},
			finish:  `{"items":["x","y","z"],"truncated":false,"seen":3,"kept":3,"omitted":{"kind":"none"}}`,
			kept:    []string{"x", "y", "z"},
			omitted: none,
		}),
	}

	DescribeTable("through the Go API (Items)",
		func(r itemRow) {
			ret, err := retention.NewItems[string](r.max)
			Expect(err).NotTo(HaveOccurred())
			pushes := []retention.Decision{}
			for _, it := range r.items {
				pushes = append(pushes, ret.Push(it))
			}
			Expect(pushes).To(Equal(r.pushes))
			out := ret.Finish()
			Expect(out.Items).To(Equal(r.kept))
			Expect(out.Kept).To(Equal(len(r.kept)))
			Expect(out.Seen).To(Equal(len(r.items)))
			Expect(out.Truncated).To(Equal(r.omitted.Kind == retention.Exact))
			Expect(out.Omitted).To(Equal(r.omitted))
			Expect(toJSON(out)).To(Equal(r.finish))

			head, err := retention.Head(r.items, r.max)
			Expect(err).NotTo(HaveOccurred())
			Expect(toJSON(head)).To(Equal(r.finish))
		},
		rows,
	)

	DescribeTable("through the retain.items op",
		func(r itemRow) {
			items := make([]jsonjs.Value, len(r.items))
			for i, s := range r.items {
				items[i] = jsonjs.StringValue(s)
			}
			input := `{"strategy":{"kind":"head","maxItems":` + jsonjs.FormatNumber(float64(r.max)) + `},"items":` +
				string(jsonjs.Marshal(jsonjs.ArrayValue(items...))) + `}`
			out, err := itemsOp(input)
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Pushes).To(Equal(r.pushes))
			Expect(toJSON(out.RetainedItems)).To(Equal(r.finish))
			Expect(out.Seen).To(Equal(out.Kept + out.Omitted.Count))
			Expect(toJSON(out)).To(Equal(r.finish[:len(r.finish)-1] + `,"pushes":` + toJSON(r.pushes) + `}`))
		},
		rows,
	)

	It("keeps item values as they are (op items are any JSON)", func() {
		out, err := itemsOp(`{"strategy":{"kind":"head","maxItems":2},"items":[{"b":1,"0":2},[1e400],"x"]}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(out.Items)).To(Equal(`[{"0":2,"b":1},[null]]`))
		Expect(out.Omitted).To(Equal(exact(1)))
	})

	It("rejects a negative maxItems in the Go API with the library message", func() {
		_, err := retention.NewItems[int](-1)
		Expect(err).To(MatchError("maxItems must be a non-negative integer"))
		_, err = retention.Head([]int{1}, -5)
		Expect(err).To(MatchError("maxItems must be a non-negative integer"))
	})

	DescribeTable("RET-ITEM-1 budget validation through the op",
		func(maxItems string, wantErr bool) {
			input := `{"strategy":{"kind":"head"` + maxItems + `},"items":["a","b"]}`
			out, err := itemsOp(input)
			if wantErr {
				Expect(err).To(MatchError("maxItems must be a non-negative integer"), input)
				return
			}
			Expect(err).NotTo(HaveOccurred(), input)
			Expect(out.Seen).To(Equal(2))
		},
		Entry("-1", `,"maxItems":-1`, true),
		Entry("1.5", `,"maxItems":1.5`, true),
		Entry(`"3"`, `,"maxItems":"3"`, true),
		Entry("Infinity (1e400)", `,"maxItems":1e400`, true),
		Entry("-Infinity (-1e400)", `,"maxItems":-1e400`, true),
		Entry("null", `,"maxItems":null`, true),
		Entry("missing (undefined)", ``, true),
		Entry("true", `,"maxItems":true`, true),
		Entry("[1]", `,"maxItems":[1]`, true),
		Entry("-0.5", `,"maxItems":-0.5`, true),
		Entry("0", `,"maxItems":0`, false),
		Entry("2^53", `,"maxItems":9007199254740992`, false),
		Entry("1e21", `,"maxItems":1e21`, false),
		Entry("2.0 (an integer)", `,"maxItems":2.0`, false),
		Entry("1e0", `,"maxItems":1e0`, false),
	)

	DescribeTable("Budget (RET-ITEM-1 / RET-TEXT-2) through the Go API",
		func(v jsonjs.Value, want int, wantErr bool) {
			for _, field := range []string{"maxItems", "maxBytes", "headBytes", "tailBytes"} {
				n, err := retention.Budget(field, v)
				if wantErr {
					Expect(err).To(MatchError(field + " must be a non-negative integer"))
					continue
				}
				Expect(err).NotTo(HaveOccurred())
				Expect(n).To(Equal(want))
			}
		},
		Entry("-1", num(-1), 0, true),
		Entry("1.5", num(1.5), 0, true),
		Entry("NaN", num(math.NaN()), 0, true),
		Entry("Infinity", num(math.Inf(1)), 0, true),
		Entry("-Infinity", num(math.Inf(-1)), 0, true),
		Entry(`"3"`, jsonjs.StringValue("3"), 0, true),
		Entry("null", jsonjs.NullValue(), 0, true),
		Entry("true", jsonjs.BoolValue(true), 0, true),
		Entry("0", num(0), 0, false),
		Entry("-0 (Number.isInteger(-0) and -0 >= 0)", num(math.Copysign(0, -1)), 0, false),
		Entry("7", num(7), 7, false),
		Entry("2^31-1", num(math.MaxInt32), math.MaxInt32, false),
	)

	It("accepts huge integer budgets (2^53, 1e21) and keeps everything", func() {
		for _, v := range []float64{math.Pow(2, 53), 1e21, 1e300} {
			n, err := retention.Budget("maxItems", num(v))
			Expect(err).NotTo(HaveOccurred())
			Expect(n).To(BeNumerically(">=", math.MaxInt32))
		}
	})

	It("rejects a strategy kind other than head in the op", func() {
		_, err := itemsOp(`{"strategy":{"kind":"tail","maxItems":1},"items":[]}`)
		Expect(err).To(HaveOccurred())
	})
})
