package search_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

func decodeGrep(text string) (search.GrepInput, error) {
	v, err := jsonjs.Parse([]byte(text))
	Expect(err).NotTo(HaveOccurred())
	return search.DecodeGrepInput(jsonjs.Root(v))
}

var _ = Describe("reading op inputs (issue 10)", func() {
	It("gives an unsafe integer line number as the same double in the text and the meta (checked with node)", func() {
		in, err := decodeGrep(`{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":9007199254740993,"line":"x"}]}}`)
		Expect(err).NotTo(HaveOccurred())
		out, err := search.GrepResult(in)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Content).To(Equal("Found 1 match\n\na\nLine 9007199254740992: x"))
		Expect(string(jsonjs.Marshal(out.Meta.Value()))).To(ContainSubstring(`"lineNumber":9007199254740992,`))
	})

	DescribeTable("names the JSON path of a value of the wrong type",
		func(text, msg string) {
			_, err := decodeGrep(text)
			Expect(err).To(MatchError(msg))
		},
		Entry("not an object", `[]`, "$: want an object, got array"),
		Entry("nested", `{"value":{"matches":[]},"nested":1}`, "$.nested: want a boolean, got number"),
		Entry("spill", `{"value":{"matches":[]},"spill":[]}`, "$.spill: want an object, got array"),
		Entry("spill.locator", `{"value":{"matches":[]},"spill":{"saved":true,"locator":7}}`, "$.spill.locator: want a string, got number"),
	)

	It("reads a null optional member as an absent one (docs/ops.md)", func() {
		in, err := decodeGrep(`{"value":{"matches":[]},"spill":null,"nested":null}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(in.Spill).To(BeNil())
		Expect(in.Nested).To(BeFalse())
		in, err = decodeGrep(`{"value":{"matches":[]},"spill":{"saved":null,"locator":null,"retrievalHint":null}}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(*in.Spill).To(Equal(search.SpillStore{}))
	})

	It("keeps a value that breaks grep's output schema as the registry's violations, in its walk order", func() {
		in, err := decodeGrep(`{"value":{"matches":[{"b":0,"path":1,"1":0,"lineNumber":1.5}],"x":1}}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(in.Invalid).To(Equal([]string{
			`missing required property "value.matches[0].line"`,
			`"value.matches[0].path" must be a string`,
			`"value.matches[0].lineNumber" must be an integer`,
			`"value.matches[0].1" is not a declared property (additionalProperties: false)`,
			`"value.matches[0].b" is not a declared property (additionalProperties: false)`,
			`"value.x" is not a declared property (additionalProperties: false)`,
		}))
	})
})
