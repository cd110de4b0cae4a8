package spill_test

import (
	"encoding/json"
	"math"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/spill"
)

func text(s string) spill.Block { return spill.TextBlock(s) }

var _ = Describe("Applies (SPILL-RES-2, SPILL-LOG-2)", func() {
	big := []spill.Block{text(strings.Repeat("x", 100)), text(strings.Repeat("y", 100))}

	It("flattens all-text content with no separator (SPILL-RES-3)", func() {
		got, ok := spill.Applies(spill.ArmResult, "echo", big, 199)
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(strings.Repeat("x", 100) + strings.Repeat("y", 100)))
	})

	It("needs the text to be strictly over the cap", func() {
		_, ok := spill.Applies(spill.ArmResult, "echo", big, 200)
		Expect(ok).To(BeFalse())
		_, ok = spill.Applies(spill.ArmResult, "echo", []spill.Block{text(strings.Repeat("a", 9))}, 85)
		Expect(ok).To(BeFalse())
	})

	It("measures UTF-8 bytes, lone surrogates as 3", func() {
		_, ok := spill.Applies(spill.ArmDispatch, "t", []spill.Block{text("€€")}, 5)
		Expect(ok).To(BeTrue())
		_, ok = spill.Applies(spill.ArmDispatch, "t", []spill.Block{text("\xed\xa0\x80")}, 2)
		Expect(ok).To(BeTrue())
	})

	It("exempts read from the result arm only", func() {
		_, ok := spill.Applies(spill.ArmResult, "read", big, 10)
		Expect(ok).To(BeFalse())
		_, ok = spill.Applies(spill.ArmDispatch, "read", big, 10)
		Expect(ok).To(BeTrue())
	})

	It("skips content with any non-text block, in both arms", func() {
		mixed := append([]spill.Block{{Type: "image"}}, big...)
		_, ok := spill.Applies(spill.ArmResult, "echo", mixed, 10)
		Expect(ok).To(BeFalse())
		_, ok = spill.Applies(spill.ArmDispatch, "echo", mixed, 10)
		Expect(ok).To(BeFalse())
	})

	It("never applies to an unknown arm", func() {
		_, ok := spill.Applies("other", "echo", big, 10)
		Expect(ok).To(BeFalse())
	})

	It("concatenates a text block without text as upstream's JS does", func() {
		got, ok := spill.Flatten([]spill.Block{text("a"), {Type: "text"}})
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal("aundefined"))
	})

	It("joins blocks that split a surrogate pair into one code point, as JS concatenation does", func() {
		got, ok := spill.Flatten([]spill.Block{text("a\xed\xa0\x80"), text("\xed\xb0\x80b")})
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal("a\U00010000b"))
	})
})

var _ = Describe("ParseMaxInlineBytes (SPILL-CFG-1)", func() {
	DescribeTable("accepts integers >= 0",
		func(value string, want int) {
			got, err := spill.ParseMaxInlineBytes(parse(value))
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry(nil, `0`, 0),
		Entry(nil, `800`, 800),
		Entry(nil, `50000`, 50000),
		Entry(nil, `-0`, 0),
		Entry(nil, `2.0`, 2),
		Entry(nil, `1e21`, math.MaxInt),
	)

	// The <value> forms were checked with node against the real plugin.
	DescribeTable("rejects anything else with the value as JavaScript prints it",
		func(value, got string) {
			_, err := spill.ParseMaxInlineBytes(parse(value))
			Expect(err).To(MatchError("spill-policy: maxInlineBytes must be a non-negative integer (got " + got + ")"))
		},
		Entry(nil, `-1`, "-1"),
		Entry(nil, `1.5`, "1.5"),
		Entry(nil, `1e-7`, "1e-7"),
		Entry(nil, `-1e21`, "-1e+21"),
		Entry(nil, `-2.5e-10`, "-2.5e-10"),
		Entry(nil, `1e400`, "Infinity"),
		Entry(nil, `-1e400`, "-Infinity"),
		Entry(nil, `null`, "null"),
	)

	// A value that is not a number (or null) never reaches the policy: the
	// plugin's config schema rejects it first, as loading the real plugin
	// shows (adapters/dsh-node).
	DescribeTable("rejects a non-number in the config schema, printing it as JavaScript does",
		func(value, got string) {
			_, err := spill.ParseMaxInlineBytes(parse(value))
			Expect(err).To(MatchError("invalid config:\n  - $.maxInlineBytes expected number but got " + got + " (at maxInlineBytes)"))
		},
		Entry(nil, `"5"`, "5"),
		Entry(nil, `""`, ""),
		Entry(nil, `"abc"`, "abc"),
		Entry(nil, `true`, "true"),
		Entry(nil, `false`, "false"),
		Entry(nil, `{}`, "[object Object]"),
		Entry(nil, `{"a":1}`, "[object Object]"),
		Entry(nil, `[]`, ""),
		Entry(nil, `[1,2]`, "1,2"),
		Entry(nil, `[[1,[2]],null,"x"]`, "1,2,,x"),
		Entry(nil, `[null]`, ""),
		Entry(nil, `[[],[]]`, ","),
		Entry(nil, `[{"a":1},true]`, "[object Object],true"),
	)

	It("prints NaN as JavaScript does", func() {
		_, err := spill.ParseMaxInlineBytes(jsonjs.NumberValue(math.NaN()))
		Expect(err).To(MatchError("spill-policy: maxInlineBytes must be a non-negative integer (got NaN)"))
	})

	It("survives a deeply nested array", func() {
		const depth = 100000
		_, err := spill.ParseMaxInlineBytes(parse(strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth)))
		Expect(err).To(MatchError("invalid config:\n  - $.maxInlineBytes expected number but got 1 (at maxInlineBytes)"))
	})
})

// previewOp runs spill.preview on an input given as JSON text and returns
// the output as JSON text.
func previewOp(input string) string {
	in, err := spill.DecodePreviewInput(jsonjs.Root(parse(input)))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), input)
	out, err := spill.PreviewOp(in)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), input)
	b, err := json.Marshal(out)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return string(b)
}

func parse(text string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(text))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), text)
	return v
}

const refAJSON = `{"locator":"/spill/big.txt","retrievalHint":"Use the stub retrieval path."}`

var _ = Describe("the spill.preview op", func() {
	It("replaces an oversized result and names the save (SPILL-RES-4/5)", func() {
		out := previewOp(`{"text":"` + strings.Repeat("a", 1000) + `","maxInlineBytes":102,"ref":` + refAJSON + `,"toolName":"bash"}`)
		Expect(out).To(Equal(`{"content":"a\n\n(Omitted 999 bytes. Full formatted result stored at: /spill/big.txt. Use the stub retrieval path.)",` +
			`"save":{"label":"result","suggestedName":"bash.txt","text":"` + strings.Repeat("a", 1000) + `"}}`))
	})

	It("flattens blocks for the save and replaces them with one text (SPILL-RES-3)", func() {
		out := previewOp(`{"blocks":[{"type":"text","text":"` + strings.Repeat("x", 100) + `"},{"type":"text","text":"` + strings.Repeat("x", 100) + `"}],` +
			`"maxInlineBytes":120,"ref":` + refAJSON + `,"toolName":"echo"}`)
		Expect(out).To(Equal(`{"content":"` + strings.Repeat("x", 20) + `\n\n(Omitted 180 bytes. Full formatted result stored at: /spill/big.txt. Use the stub retrieval path.)",` +
			`"save":{"label":"result","suggestedName":"echo.txt","text":"` + strings.Repeat("x", 200) + `"}}`))
	})

	It("labels the dispatch arm and bounds read there (SPILL-LOG-2/3)", func() {
		out := previewOp(`{"text":"` + strings.Repeat("a", 1000) + `","maxInlineBytes":100,"ref":` + refAJSON + `,"toolName":"read","arm":"dispatch"}`)
		Expect(out).To(Equal(`{"content":"(Omitted 1000 bytes. Full formatted result stored at: /spill/big.txt. Use the stub retrieval path.)",` +
			`"save":{"label":"dispatch","suggestedName":"read.txt","text":"` + strings.Repeat("a", 1000) + `"}}`))
	})

	It("does not apply to read in the result arm", func() {
		Expect(previewOp(`{"text":"` + strings.Repeat("a", 1000) + `","maxInlineBytes":100,"ref":` + refAJSON + `,"toolName":"read"}`)).
			To(Equal(`{"content":null,"save":null}`))
	})

	It("saves but keeps the original when the notice does not fit (SPILL-CAP-1)", func() {
		Expect(previewOp(`{"text":"xxxxx","maxInlineBytes":4,"ref":` + refAJSON + `}`)).
			To(Equal(`{"content":null,"save":{"label":"result","suggestedName":"tool.txt","text":"xxxxx"}}`))
	})

	It("keeps the original when the save fails (SPILL-KEEP-1)", func() {
		Expect(previewOp(`{"text":"` + strings.Repeat("a", 1000) + `","maxInlineBytes":300}`)).
			To(Equal(`{"content":null,"save":{"label":"result","suggestedName":"tool.txt","text":"` + strings.Repeat("a", 1000) + `"}}`))
		Expect(previewOp(`{"text":"` + strings.Repeat("a", 1000) + `","maxInlineBytes":300,"ref":null}`)).
			To(Equal(`{"content":null,"save":{"label":"result","suggestedName":"tool.txt","text":"` + strings.Repeat("a", 1000) + `"}}`))
	})

	It("does nothing under the cap or with a non-text block", func() {
		Expect(previewOp(`{"text":"aaaaaaaaa","maxInlineBytes":85,"ref":` + refAJSON + `}`)).To(Equal(`{"content":null,"save":null}`))
		Expect(previewOp(`{"blocks":[{"type":"image"},{"type":"text","text":"` + strings.Repeat("a", 100) + `"}],"maxInlineBytes":10,"ref":` + refAJSON + `}`)).
			To(Equal(`{"content":null,"save":null}`))
	})

	It("flattens a text block without text as \"undefined\" (checked with node)", func() {
		Expect(previewOp(`{"blocks":[{"type":"text","text":"` + strings.Repeat("x", 80) + `"},{"type":"text"}],"maxInlineBytes":60,` +
			`"ref":{"locator":"L","retrievalHint":"H"},"toolName":"odd"}`)).
			To(Equal(`{"content":"x\n\n(Omitted 88 bytes. Full formatted result stored at: L. H)",` +
				`"save":{"label":"result","suggestedName":"odd.txt","text":"` + strings.Repeat("x", 80) + `undefined"}}`))
	})

	It("does nothing when maxInlineBytes is absent (SPILL-CFG-1)", func() {
		Expect(previewOp(`{"text":"` + strings.Repeat("a", 1000) + `","ref":` + refAJSON + `}`)).To(Equal(`{"content":null,"save":null}`))
	})

	It("keeps lone surrogates in the save text", func() {
		out := previewOp(`{"text":"\ud800` + strings.Repeat("a", 200) + `","maxInlineBytes":150,"ref":` + refAJSON + `}`)
		Expect(out).To(ContainSubstring(`"text":"\ud800aaa`))
		// Checked with node: U+FFFD + 47 × a, then the notice; 150 bytes.
		// JSON.stringify writes U+FFFD raw.
		Expect(out).To(HavePrefix(`{"content":"` + "\uFFFD" + strings.Repeat("a", 47) + `\n\n(Omitted 153 bytes.`))
	})

	DescribeTable("errors",
		func(input, msg string) {
			in, err := spill.DecodePreviewInput(jsonjs.Root(parse(input)))
			if err == nil {
				_, err = spill.PreviewOp(in)
			}
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("a bad cap", `{"text":"x","maxInlineBytes":-1}`, "spill-policy: maxInlineBytes must be a non-negative integer (got -1)"),
		Entry("a null cap", `{"text":"x","maxInlineBytes":null}`, "spill-policy: maxInlineBytes must be a non-negative integer (got null)"),
		Entry("a string cap", `{"text":"x","maxInlineBytes":"800"}`, "expected number but got 800"),
		Entry("neither text nor blocks", `{"maxInlineBytes":1}`, "exactly one of text and blocks"),
		Entry("both text and blocks", `{"text":"x","blocks":[],"maxInlineBytes":1}`, "exactly one of text and blocks"),
		Entry("an unknown arm", `{"text":"x","maxInlineBytes":1,"arm":"log"}`, `unknown arm "log"`),
		Entry("a member name in another case", `{"Text":"x","maxInlineBytes":1}`, "exactly one of text and blocks"),
		Entry("a block text that is not a string", `{"blocks":[{"type":"text","text":1}],"maxInlineBytes":1}`, "$.blocks[0].text: want a string, got number"),
	)
})
