package diagnosis_test

import (
	"encoding/base64"
	"fmt"
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

var _ = Describe("the escaping models", func() {
	run := func(result string) string {
		return `{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":` + result + `}}`
	}
	// content is a model's run_code text for a result.
	content := func(name, result string) (string, diagnosis.Answer) {
		text, a := output(name, "run_code.result", run(result), "content")
		v := parsed(text)
		s, _ := v.Str()
		return s, a
	}
	// One string of every kind each library escapes its own way; the
	// wanted texts are the libraries' documented output, typed by hand.
	const all = `{"s":"é😀<>&='+` + "`" + `\u2028\u007f\u001f\"","\ud800":1}`
	DescribeTable("render a run's result as their library writes its strings (CODE-STR-1)",
		func(name, want string) {
			got, a := content(name, all)
			Expect(got).To(Equal(want))
			Expect(a.Requirement).To(Equal("CODE-STR-1"))
		},
		Entry("Python's ensure_ascii", "escape-ascii", "{\n  \"s\": \"\\u00e9\\ud83d\\ude00<>&='+`\\u2028\\u007f\\u001f\\\"\",\n  \"\\ud800\": 1\n}"),
		Entry("Go's HTML-safe encoding/json", "escape-html", "{\n  \"s\": \"é😀\\u003c\\u003e\\u0026='+`\\u2028\u007f\\u001f\\\"\",\n  \"\\ud800\": 1\n}"),
		Entry("Go's encoder without HTML escaping", "escape-line-separators", "{\n  \"s\": \"é😀<>&='+`\\u2028\u007f\\u001f\\\"\",\n  \"\\ud800\": 1\n}"),
		Entry("Gson", "escape-gson", "{\n  \"s\": \"é😀\\u003c\\u003e\\u0026\\u003d\\u0027+`\\u2028\u007f\\u001f\\\"\",\n  \"\\ud800\": 1\n}"),
		Entry("System.Text.Json's default encoder", "escape-dotnet", "{\n  \"s\": \"\\u00E9\\uD83D\\uDE00\\u003C\\u003E\\u0026=\\u0027\\u002B\\u0060\\u2028\\u007F\\u001F\\u0022\",\n  \"\\uFFFD\": 1\n}"),
		Entry("a lone surrogate written raw", "surrogates-raw", "{\n  \"s\": \"é😀<>&='+`\u2028\u007f\\u001f\\\"\",\n  \"\xed\xa0\x80\": 1\n}"),
	)

	It("leave a string result alone (CODE-JSON-1) and apply only where their library writes a string otherwise", func() {
		_, applies := first(model("escape-ascii"), "run_code.result", parsed(run(`"é"`)))
		Expect(applies).To(BeFalse(), "a string result is the text itself")
		_, applies = first(model("escape-html"), "run_code.result", parsed(run(`{"a":"é"}`)))
		Expect(applies).To(BeFalse(), "Go writes é raw")
	})

	It("measure the meta's strings as their library writes them, blaming SEARCH-JSON-1", func() {
		// Two paths of 16 bytes each as JSON.stringify writes them: 89
		// bytes with truncated false, 88 with true, so a cap of 88 keeps
		// both (SEARCH-CAP-3 c) unless the measure grows, as Go's \u003c
		// does (+5).
		in := `{"args":{"pattern":"*"},"value":{"root":".","paths":["aaaaaaaaaaaaa<","bbbbbbbbbbbbbb"]},"config":{"sampleOverCap":false,"maxMetaBytes":88}}`
		meta, a := output("escape-html", "glob.result", in, "meta")
		Expect(meta).To(Equal(`{"shape":"paths","paths":["aaaaaaaaaaaaa<"],"truncated":true,"total":2}`))
		Expect(a.Requirement).To(Equal("SEARCH-JSON-1"))
		// U+2028 is 3 bytes raw: 91 in all, which a cap of 91 keeps
		// whole; escaped it is 6, and one path is left.
		in = strings.Replace(strings.Replace(in, "<", `\u2028`, 1), ":88", ":91", 1)
		meta, _ = output("escape-line-separators", "glob.result", in, "meta")
		Expect(meta).To(Equal("{\"shape\":\"paths\",\"paths\":[\"aaaaaaaaaaaaa\u2028\"],\"truncated\":true,\"total\":2}"))
	})
})

var _ = Describe("the length models (SEARCH-JSON-1)", func() {
	It("measure the meta in UTF-16 units or code points, so a non-ASCII meta fits a cap it exceeds", func() {
		// ["é"] paths: 2 bytes each, 1 unit; the meta is 56+2×4+1 = 65 bytes
		// with two paths of 4 bytes ("é" quoted), 63 in units.
		in := `{"args":{"pattern":"*"},"value":{"root":".","paths":["é","é"]},"config":{"sampleOverCap":false,"maxMetaBytes":63}}`
		for _, name := range []string{"length-utf16", "length-code-points"} {
			meta, a := output(name, "glob.result", in, "meta")
			Expect(meta).To(Equal(`{"shape":"paths","paths":["é","é"],"truncated":false,"total":2}`), name)
			Expect(a.Requirement).To(Equal("SEARCH-JSON-1"))
		}
		_, applies := first(model("length-utf16"), "glob.result", parsed(strings.ReplaceAll(in, "é", "e")))
		Expect(applies).To(BeFalse(), "ASCII: units are bytes")
	})
})

var _ = Describe("the grouping model (SEARCH-GREP-3)", func() {
	It("groups grep's matches in sorted path order, in the text and the meta", func() {
		in := `{"args":{"pattern":"x"},"value":{"matches":[{"path":"b.ts","lineNumber":2,"line":"x"},{"path":"a.ts","lineNumber":1,"line":"y"},{"path":"b.ts","lineNumber":5,"line":"z"}]}}`
		content, a := output("groups-sorted", "grep.result", in, "content")
		Expect(content).To(Equal(`"Found 3 matches\n\na.ts\nLine 1: y\n\nb.ts\nLine 2: x\nLine 5: z"`))
		Expect(a.Requirement).To(Equal("SEARCH-GREP-3"))
		meta, _ := output("groups-sorted", "grep.result", in, "meta")
		Expect(meta).To(HavePrefix(`{"shape":"matches","files":[{"path":"a.ts"`))
		_, applies := first(model("groups-sorted"), "grep.result", parsed(strings.Replace(in, "b.ts", "c.ts", -1)))
		Expect(applies).To(BeTrue())
		_, applies = first(model("groups-sorted"), "grep.result", parsed(`{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"},{"path":"b","lineNumber":2,"line":"x"},{"path":"a","lineNumber":3,"line":"x"}]}}`))
		Expect(applies).To(BeFalse(), "first-seen order is sorted already")
	})
})

var _ = Describe("what a variant shows", func() {
	It("names the members a meta measure or a renderer can change, and is not run where the caller refuses them", func() {
		in := parsed(`{"args":{"pattern":"*"},"value":{"root":".","paths":["é"]},"config":{"sampleOverCap":false}}`)
		var asked [][]string
		as := model("escape-ascii").AnswersIf("glob.result", in, func(shows []string) bool { asked = append(asked, shows); return false })
		Expect(as).To(BeEmpty())
		Expect(asked).To(Equal([][]string{{"meta", "view"}}))
		Expect(model("escape-ascii").AnswersIf("glob.result", in, func([]string) bool { return true })).To(HaveLen(1))
		vs := model("escape-ascii").Variants("run_code.result", parsed(`{"run":{"logs":[],"result":["é"]}}`))
		Expect(vs).To(HaveLen(1))
		Expect(vs[0].Shows).To(Equal([]string{"content"}))
	})

	It("leaves out of the pairs the models the caller does not admit", func() {
		in := parsed(`{"args":{"pattern":"o"},"value":{"matches":[{"path":"b","lineNumber":1,"line":"\ufeffo"},{"path":"a","lineNumber":2,"line":"o"}]}}`)
		pairs := func(among func(diagnosis.Model) bool) (n int) {
			for _, j := range diagnosis.JointAnswersIf("grep.result", in, among, nil) {
				if j.Models[0].Name == "utf8-bom-kept" && j.Models[1].Name == "groups-sorted" {
					n++
				}
			}
			return n
		}
		Expect(pairs(nil)).To(Equal(1))
		Expect(pairs(func(m diagnosis.Model) bool { return m.Name != "groups-sorted" })).To(BeZero())
	})
})

var _ = Describe("the preview length models (SEARCH-PREVIEW-1)", func() {
	grep := func(line string, max int) string {
		return fmt.Sprintf(`{"args":{"pattern":"x"},"value":{"matches":[{"path":"p","lineNumber":1,"line":%q}]},"config":{"maxLineBytes":%d}}`, line, max)
	}
	DescribeTable("cut a line in their unit, then decode what is kept as the retainer does",
		func(name, line string, max int, want string) {
			content, a := output(name, "grep.result", grep(line, max), "content")
			v := parsed(content)
			s, _ := v.Str()
			Expect(s).To(Equal("Found 1 match\n\np\nLine 1: " + want))
			Expect(a.Requirement).To(Equal("SEARCH-PREVIEW-1"))
		},
		Entry("code points: 4 of é×5", "preview-code-points", "ééééé", 4, "éééé (line truncated)"),
		Entry("code points: 😀 is one", "preview-code-points", "a😀😀b", 3, "a😀😀 (line truncated)"),
		Entry("code points: a BOM kept in the cut is dropped on decoding", "preview-code-points", "\ufeffaéé", 2, "a (line truncated)"),
		Entry("UTF-16: 😀 is two units", "preview-utf16", "a😀😀b", 3, "a😀 (line truncated)"),
		Entry("UTF-16: a pair the cut splits leaves U+FFFD", "preview-utf16", "a😀😀b", 4, "a😀\ufffd (line truncated)"),
		Entry("UTF-16: a line of as many units as the budget is whole", "preview-utf16", "éééé", 4, "éééé"),
	)

	It("apply only to a non-ASCII line over the budget in bytes", func() {
		_, applies := first(model("preview-utf16"), "grep.result", parsed(grep("ééé", 6)))
		Expect(applies).To(BeFalse(), "6 bytes fit 6")
		_, applies = first(model("preview-code-points"), "grep.result", parsed(grep("aaaaaaa", 6)))
		Expect(applies).To(BeFalse(), "ASCII: code points are bytes")
	})
})

var _ = Describe("two models that replace one primitive", func() {
	It("are no pair: a preview cut in code points and one in UTF-16 units, two meta measures", func() {
		in := parsed(`{"args":{"pattern":"x"},"value":{"matches":[{"path":"b<","lineNumber":1,"line":"ééé"},{"path":"a","lineNumber":2,"line":"x"}]},"config":{"maxLineBytes":2}}`)
		same := map[string]string{"preview-utf16": "preview", "preview-code-points": "preview", "length-utf16": "meta", "length-code-points": "meta", "escape-html": "meta", "escape-ascii": "meta"}
		n := 0
		for _, j := range diagnosis.JointAnswers("grep.result", in) {
			a, b := same[j.Models[0].Name], same[j.Models[1].Name]
			Expect(a != "" && a == b).To(BeFalse(), "%s with %s", j.Models[0].Name, j.Models[1].Name)
			n++
		}
		Expect(n).To(BeNumerically(">", 0))
	})
})
