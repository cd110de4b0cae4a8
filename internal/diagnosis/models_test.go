package diagnosis_test

import (
	"encoding/base64"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/diagnosis"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

func parsed(s string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(s))
	Expect(err).NotTo(HaveOccurred())
	return v
}

// output is a model's first answer's member key, as JSON text.
func output(name, op, input, key string) (string, diagnosis.Answer) {
	a, ok := first(model(name), op, parsed(input))
	Expect(ok).To(BeTrue(), "%s applies to %s", name, input)
	Expect(a.Thrown).To(BeNil())
	v, err := jsonjs.Parse(a.Output)
	Expect(err).NotTo(HaveOccurred())
	m, _ := v.Get(key)
	return string(jsonjs.Marshal(m)), a
}

var _ = Describe("the decoder models", func() {
	It("keep a leading BOM where each op decodes, blaming that op's decoding rule", func() {
		text, a := output("utf8-bom-kept", "retain.text", `{"strategy":{"kind":"head","maxBytes":4},"chunks":["\ufeffabc"]}`, "text")
		Expect(text).To(Equal("\"\ufeffa\""), "the head cut (4 bytes: the BOM and a) keeps its BOM")
		Expect(a.Requirement).To(Equal("RET-UTF8-3"))
		content, a := output("utf8-bom-kept", "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"p","lineNumber":1,"line":"\ufeffx"}]}}`, "content")
		Expect(content).To(ContainSubstring("Line 1: \ufeffx"))
		Expect(a.Requirement).To(Equal("SEARCH-PREVIEW-3"))
		content, a = output("utf8-bom-kept", "spill.preview", `{"text":"\ufeffaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","maxInlineBytes":70,"ref":{"locator":"l","retrievalHint":""}}`, "content")
		Expect(content).To(HavePrefix("\"\ufeffa"))
		Expect(a.Requirement).To(Equal("SPILL-PREV-3"))
		_, applies := first(model("utf8-bom-kept"), "retain.text", parsed(`{"strategy":{"kind":"head","maxBytes":4},"chunks":["abc"]}`))
		Expect(applies).To(BeFalse(), "no BOM, nothing to tell apart")
	})

	It("replace each invalid byte, as Go's range over a string does", func() {
		in := `{"strategy":{"kind":"head","maxBytes":9},"chunksBase64":["` + base64.StdEncoding.EncodeToString([]byte("a\xE2\x82")) + `"]}`
		text, _ := output("utf8-replace-per-byte", "retain.text", in, "text")
		Expect(text).To(Equal("\"a\ufffd\ufffd\""), "WHATWG writes one U+FFFD for E2 82")
	})

	It("refuse bytes that are not UTF-8, in words that say so", func() {
		in := parsed(`{"strategy":{"kind":"head","maxBytes":9},"chunksBase64":["` + base64.StdEncoding.EncodeToString([]byte{0xFF}) + `"]}`)
		a, ok := first(model("utf8-strict"), "retain.text", in)
		Expect(ok).To(BeTrue())
		Expect(a.Fails).To(BeTrue())
		Expect(a.Says.MatchString("'utf-8' codec can't decode byte 0xff in position 0")).To(BeTrue())
		_, ok = first(model("utf8-strict"), "retain.text", parsed(`{"strategy":{"kind":"head","maxBytes":9},"chunks":["ok"]}`))
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("the number models (SEARCH-GREP-3)", func() {
	grep := func(n string) string {
		return `{"args":{"pattern":"x"},"value":{"matches":[{"path":"p","lineNumber":` + n + `,"line":"x"}]}}`
	}
	It("write grep's line numbers as Python's int and Rust's f64 Display do", func() {
		content, _ := output("number-python", "grep.result", grep("1152921504606846976"), "content")
		Expect(content).To(ContainSubstring("Line 1152921504606846976: x"), "JavaScript: 1152921504606847000")
		content, _ = output("number-plain", "grep.result", grep("1e21"), "content")
		Expect(content).To(ContainSubstring("Line 1000000000000000000000: x"), "JavaScript: 1e+21")
		_, applies := first(model("number-plain"), "grep.result", parsed(grep("1152921504606846976")))
		Expect(applies).To(BeFalse(), "below 1e21 Rust's Display and Number::toString agree")
	})

	It("run the reference on the input as read: a -0 line number stays -0, which the reference refuses", func() {
		a, ok := first(model("number-plain"), "grep.result", parsed(grep("-0")))
		Expect(ok).To(BeTrue())
		Expect(string(a.Output)).To(ContainSubstring(`"isError":true`))
	})
})

var _ = Describe("the absent-member models", func() {
	It("read a null setting as given: refused as a port refuses it", func() {
		a, ok := first(model("null-as-given"), "glob.result", parsed(`{"args":{"pattern":"*"},"value":{"root":".","paths":["a"]},"config":{"maxResults":null,"sampleOverCap":false}}`))
		Expect(ok).To(BeTrue())
		Expect(*a.Thrown).To(Equal("tool-fs-search: globMaxResults must be a positive integer"))
		Expect(a.Requirement).To(Equal("SEARCH-CFG-1"))
		a, ok = first(model("null-as-given"), "glob.result", parsed(`{"args":{"pattern":"*"},"value":{"root":".","paths":["a"]},"config":{"sampleOverCap":null}}`))
		Expect(ok).To(BeTrue())
		Expect(*a.Thrown).To(ContainSubstring("expected boolean but got null"))
		Expect(a.Requirement).To(Equal("SEARCH-CFG-2"))
	})

	It("write an absent or null member as None, blaming the rule of the text it lands in", func() {
		content, a := output("none-printed", "run_code.result", `{"args":{"code":"x","description":"d"},"run":{"logs":[],"error":{"kind":1}}}`, "content")
		Expect(content).To(Equal(`"Error: code run failed (1): None"`))
		Expect(a.Requirement).To(Equal("CODE-FAIL-1"))
		content, a = output("none-printed", "grep.result", `{"args":{"pattern":"o"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"o"},{"path":"a","lineNumber":2,"line":"o"}]},"config":{"maxMatches":1},"spill":{"saved":true,"locator":"L","retrievalHint":null}}`, "content")
		Expect(content).To(HaveSuffix(`stored at: L. None)"`))
		Expect(a.Requirement).To(Equal("SEARCH-GREP-5"))
	})

	It("join a text block without a string text as empty: absent first (Python's get), then any non-string (Rust's unwrap_or)", func() {
		vs := model("absent-text-empty").Variants("spill.preview", parsed(`{"blocks":[{"type":"text"},{"type":"text","text":null}]}`))
		Expect(vs).To(HaveLen(2))
		Expect(string(jsonjs.Marshal(vs[0].Input))).To(Equal(`{"blocks":[{"type":"text","text":""},{"type":"text","text":null}]}`))
		Expect(string(jsonjs.Marshal(vs[1].Input))).To(Equal(`{"blocks":[{"type":"text","text":""},{"type":"text","text":""}]}`))
		Expect(vs[0].Requirement).To(Equal("SPILL-RES-3"))
		Expect(model("absent-text-empty").Variants("spill.preview", parsed(`{"blocks":[{"type":"text","text":"a"}]}`))).To(BeEmpty())
	})
})

var _ = Describe("two deviations at once", func() {
	It("run two models together, each blaming its own requirement", func() {
		in := parsed(`{"args":{"pattern":"o"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"\ufeffo"},{"path":"a","lineNumber":2,"line":"o"}]},"config":{"maxMatches":1},"spill":{"saved":true,"locator":"L","retrievalHint":null}}`)
		var found *diagnosis.Joint
		for _, j := range diagnosis.JointAnswers("grep.result", in) {
			if j.Models[0].Name == "utf8-bom-kept" && j.Models[1].Name == "none-printed" {
				found = &j
			}
		}
		Expect(found).NotTo(BeNil())
		Expect(found.Requirements).To(Equal([2]string{"SEARCH-PREVIEW-3", "SEARCH-GREP-5"}))
		Expect(string(found.Answer.Output)).To(ContainSubstring("Line 1: \ufeffo\\n\\n(Full grep result stored at: L. None)"))
	})
})

var _ = Describe("the key-order models (CODE-KEYS-1)", func() {
	run := func(result string) string {
		return `{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":` + result + `}}`
	}
	It("render members sorted by name, or as inserted, where that differs from ECMAScript's order", func() {
		content, a := output("keys-sorted", "run_code.result", run(`{"b":1,"10":2,"2":3," 1":4}`), "content")
		Expect(content).To(Equal(`"{\n  \" 1\": 4,\n  \"10\": 2,\n  \"2\": 3,\n  \"b\": 1\n}"`))
		Expect(a.Requirement).To(Equal("CODE-KEYS-1"))
		content, _ = output("keys-insertion", "run_code.result", run(`[{"b":1,"10":2,"2":3}]`), "content")
		Expect(content).To(Equal(`"[\n  {\n    \"b\": 1,\n    \"10\": 2,\n    \"2\": 3\n  }\n]"`))
		_, applies := first(model("keys-sorted"), "run_code.result", parsed(run(`{"0":1,"a":2,"b":{"c":3}}`)))
		Expect(applies).To(BeFalse(), "sorted is ECMAScript's order there")
		_, applies = first(model("keys-insertion"), "run_code.result", parsed(run(`{"b":1,"a":2}`)))
		Expect(applies).To(BeFalse(), "no index key: insertion order is ECMAScript's")
	})
})

var _ = Describe("the reader models", func() {
	It("refuse a result nested deeper than serde_json's 128 levels, in words that say so (CODE-JSON-3)", func() {
		deep := strings.Repeat("[", 129) + strings.Repeat("]", 129)
		a, ok := first(model("depth-limit"), "run_code.result", parsed(`{"run":{"logs":[],"result":`+deep+`}}`))
		Expect(ok).To(BeTrue())
		Expect(a.Requirement).To(Equal("CODE-JSON-3"))
		Expect(a.Says.MatchString("recursion limit exceeded at line 1 column 218")).To(BeTrue())
		shallow := strings.Repeat("[", 128) + strings.Repeat("]", 128)
		_, ok = first(model("depth-limit"), "run_code.result", parsed(`{"run":{"logs":[],"result":`+shallow+`}}`))
		Expect(ok).To(BeFalse())
	})

	It("read -0 as 0 and an overflowing number as null, blaming the rule of the place that judges it", func() {
		content, a := output("numbers-read-lossy", "run_code.result", `{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":[-0,1e400]}}`, "content")
		Expect(content).To(Equal(`"[\n  0,\n  null\n]"`))
		Expect(a.Requirement).To(Equal("CODE-LOSSLESS-1"))
		vs := model("numbers-read-lossy").Variants("search.present", parsed(`{"tool":"grep","result":{"meta":{"total":1e400}}}`))
		Expect(vs).To(HaveLen(1))
		Expect(vs[0].Requirement).To(Equal("SEARCH-NARROW-3"))
		Expect(string(jsonjs.Marshal(vs[0].Input))).To(Equal(`{"tool":"grep","result":{"meta":{"total":null}}}`))
	})
})
