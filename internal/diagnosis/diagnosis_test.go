package diagnosis_test

import (
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/diagnosis"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// first is a model's first answer to an op input, and whether it has one.
func first(m diagnosis.Model, op string, in jsonjs.Value) (diagnosis.Answer, bool) {
	as := m.Answers(op, in)
	if len(as) == 0 {
		return diagnosis.Answer{}, false
	}
	return as[0], true
}

func model(name string) diagnosis.Model {
	for _, m := range diagnosis.Catalogue() {
		if m.Name == name {
			return m
		}
	}
	Fail("no model " + name)
	return diagnosis.Model{}
}

// answer is a model's answer to run_code.result with a description.
func answer(name, description string) (content string, applies bool) {
	in := jsonjs.ObjectValue(
		jsonjs.Member{Key: "args", Value: jsonjs.ObjectValue(
			jsonjs.Member{Key: "code", Value: jsonjs.StringValue("1")},
			jsonjs.Member{Key: "description", Value: jsonjs.StringValue(description)})},
		jsonjs.Member{Key: "run", Value: jsonjs.ObjectValue(
			jsonjs.Member{Key: "logs", Value: jsonjs.ArrayValue()},
			jsonjs.Member{Key: "result", Value: jsonjs.StringValue("ran")})})
	a, applies := first(model(name), "run_code.result", in)
	Expect(a.Thrown).To(BeNil())
	if !applies {
		return "", false
	}
	v, err := jsonjs.Parse(a.Output)
	Expect(err).NotTo(HaveOccurred())
	c, _ := v.Get("content")
	s, _ := c.Str()
	return s, true
}

var _ = Describe("the trim models (SEARCH-ARGS-3)", func() {
	const rejected = "Error: invalid description: expected a non-empty string"
	DescribeTable("decide blankness with their language's whitespace set, and apply only where it differs from ECMAScript's",
		func(name, description, want string) {
			got, applies := answer(name, description)
			if want == "" {
				Expect(applies).To(BeFalse(), "%q", description)
				return
			}
			Expect(applies).To(BeTrue(), "%q", description)
			Expect(got).To(HavePrefix(want))
		},
		Entry("Python strips U+0085", "trim-python", "\u0085", rejected),
		Entry("Python strips U+001C", "trim-python", "\u001c", rejected),
		Entry("Python keeps U+FEFF, which JavaScript strips", "trim-python", "\ufeff", "ran"),
		Entry("Python and JavaScript agree on U+3000", "trim-python", "\u3000", ""),
		Entry("Unicode White_Space strips U+0085", "trim-unicode", "\u0085", rejected),
		Entry("Unicode White_Space keeps U+001C", "trim-unicode", "\u001c", ""),
		Entry("Unicode White_Space keeps U+FEFF", "trim-unicode", " \ufeff", "ran"),
		Entry("Java's trim strips U+0001", "trim-java-trim", "\u0001", rejected),
		Entry("Java's trim keeps U+00A0", "trim-java-trim", "\u00a0", "ran"),
		Entry("Java's strip keeps U+2007", "trim-java-strip", "\u2007", "ran"),
		Entry("Java's strip strips U+001F", "trim-java-strip", "\u001f", rejected),
		Entry("Java's strip keeps U+0085, as JavaScript does", "trim-java-strip", "\u0085", ""),
		Entry("no model applies to a description with a letter", "trim-python", " a\u0085", ""),
	)

	It("trims grep's path and include and glob's pattern and path, each model its own way", func() {
		grep := jsonjs.ObjectValue(jsonjs.Member{Key: "args", Value: jsonjs.ObjectValue(
			jsonjs.Member{Key: "pattern", Value: jsonjs.StringValue("\u0085")}, // grep tests its pattern for "" only
			jsonjs.Member{Key: "include", Value: jsonjs.StringValue("\u0085")})},
			jsonjs.Member{Key: "value", Value: jsonjs.ObjectValue(jsonjs.Member{Key: "matches", Value: jsonjs.ArrayValue()})})
		a, applies := first(model("trim-unicode"), "grep.result", grep)
		Expect(a.Thrown).To(BeNil())
		Expect(applies).To(BeTrue())
		Expect(string(a.Output)).To(ContainSubstring(`"content":"Error: include must be a non-empty glob when given"`))
		glob := jsonjs.ObjectValue(jsonjs.Member{Key: "args", Value: jsonjs.ObjectValue(
			jsonjs.Member{Key: "pattern", Value: jsonjs.StringValue("\u001e")})},
			jsonjs.Member{Key: "value", Value: jsonjs.ObjectValue(jsonjs.Member{Key: "root", Value: jsonjs.StringValue(".")}, jsonjs.Member{Key: "paths", Value: jsonjs.ArrayValue()})},
			jsonjs.Member{Key: "config", Value: jsonjs.ObjectValue(jsonjs.Member{Key: "sampleOverCap", Value: jsonjs.BoolValue(false)})})
		a, applies = first(model("trim-python"), "glob.result", glob)
		Expect(a.Thrown).To(BeNil())
		Expect(applies).To(BeTrue())
		Expect(string(a.Output)).To(ContainSubstring(`"content":"Error: pattern must be a non-empty string"`))
		_, applies = first(model("trim-unicode"), "glob.result", glob)
		Expect(applies).To(BeFalse())
	})
})

var _ = Describe("the catalogue", func() {
	It("names a known requirement, a language function and a fix for every model, under a unique name", func() {
		seen := map[string]bool{}
		for _, m := range diagnosis.Catalogue() {
			Expect(seen[m.Name]).To(BeFalse(), m.Name)
			seen[m.Name] = true
			if m.Requirement != "" {
				_, ok := spec.Lookup(m.Requirement)
				Expect(ok).To(BeTrue(), m.Name)
			}
			Expect(m.Functions).NotTo(BeEmpty(), m.Name)
			Expect(m.Fix).NotTo(BeEmpty(), m.Name)
			Expect(m.Behaves).NotTo(BeEmpty(), m.Name)
		}
	})

	It("is listed in docs/diagnosis.md, model by model, with its requirement and functions", func() {
		doc, err := os.ReadFile("../../docs/diagnosis.md")
		Expect(err).NotTo(HaveOccurred())
		for _, m := range diagnosis.Catalogue() {
			i := strings.Index(string(doc), "`"+m.Name+"`")
			Expect(i).To(BeNumerically(">=", 0), m.Name)
			row, _, _ := strings.Cut(string(doc)[i:], "\n")
			if m.Requirement != "" {
				Expect(row).To(ContainSubstring(m.Requirement), m.Name)
			}
			for _, f := range m.Functions {
				lang, fns, _ := strings.Cut(f, ": ")
				Expect(row).To(ContainSubstring(lang), m.Name)
				for _, fn := range strings.Split(fns, ", ") {
					Expect(row).To(ContainSubstring(fn), m.Name)
				}
			}
		}
	})
})

var _ = Describe("the lone-surrogate models", func() {
	parse := func(s string) jsonjs.Value {
		v, err := jsonjs.Parse([]byte(s))
		Expect(err).NotTo(HaveOccurred())
		return v
	}
	DescribeTable("blame the rule of the first place that holds one",
		func(op, input, want string) {
			a, ok := first(model("surrogates-refused"), op, parse(input))
			req := a.Requirement
			if want == "" {
				Expect(ok).To(BeFalse())
				return
			}
			Expect(ok).To(BeTrue())
			Expect(req).To(Equal(want))
		},
		Entry("a retained text", "retain.text", `{"text":"a\ud800"}`, "RET-UTF8-3"),
		Entry("a grep line before its path", "grep.result", `{"value":{"matches":[{"path":"\udc00","line":"x"},{"path":"p","line":"\ud800"}]}}`, "SEARCH-PREVIEW-3"),
		Entry("a grep path", "grep.result", `{"value":{"matches":[{"path":"\udc00","line":"x"}]}}`, "SEARCH-JSON-1"),
		Entry("a glob path", "glob.result", `{"value":{"paths":["a","\ud800b"]}}`, "SEARCH-JSON-1"),
		Entry("a block text", "spill.preview", `{"blocks":[{"type":"text","text":"\ud800"}]}`, "SPILL-RES-2"),
		Entry("a key deep in a run's result", "run_code.result", `{"run":{"logs":[],"result":[{"a":{"\udfff":1}}]}}`, "CODE-STR-1"),
		Entry("a key of a retained item", "retain.items", `{"strategy":{"kind":"head","maxItems":1},"items":[{"\udbff":1}]}`, "RET-ITEM-1"),
		Entry("a surrogate pair is no lone surrogate", "glob.result", `{"value":{"paths":["\ud83d\ude00"]}}`, ""),
		Entry("an argument is no place of theirs", "glob.result", `{"args":{"pattern":"\ud800"},"value":{"paths":["a"]}}`, ""),
	)

	It("replace every lone surrogate by U+FFFD, at any depth, without recursion", func() {
		const depth = 200000
		deep := strings.Repeat(`[`, depth) + `"\ud800"` + strings.Repeat(`]`, depth)
		in := parse(`{"args":{"code":"1","description":"d"},"run":{"logs":["\udc00x"],"result":` + deep + `}}`)
		a, applies := first(model("surrogates-replaced"), "run_code.result", in)
		Expect(applies).To(BeTrue())
		Expect(string(a.Output)).To(ContainSubstring("\"content\":\"\ufffdx\\n"))
		Expect(string(a.Output)).NotTo(ContainSubstring(`\ud800`))
	})

	It("fail in words of their own where one is refused", func() {
		a, applies := first(model("surrogates-refused"), "glob.result", parse(`{"value":{"paths":["\ud800"]}}`))
		Expect(applies).To(BeTrue())
		Expect(a.Fails).To(BeTrue())
	})
})

var _ = Describe("the setting models", func() {
	parse := func(s string) jsonjs.Value {
		v, err := jsonjs.Parse([]byte(s))
		Expect(err).NotTo(HaveOccurred())
		return v
	}
	It("read each integer setting one less and one more, blaming the rule that reads it", func() {
		vs := model("setting-off-by-one").Variants("grep.result", parse(`{"args":{"pattern":"a"},"value":{"matches":[]},"config":{"maxLineBytes":5,"maxMatches":2.5}}`))
		Expect(vs).To(HaveLen(2), "maxMatches 2.5 is no integer: no variant")
		Expect(vs[0].Requirement).To(Equal("SEARCH-PREVIEW-2"))
		Expect(vs[0].Cause).To(Equal(`reads the setting "config"."maxLineBytes" as one less than given`))
		Expect(string(jsonjs.Marshal(vs[0].Input))).To(ContainSubstring(`"maxLineBytes":4`))
		Expect(string(jsonjs.Marshal(vs[1].Input))).To(ContainSubstring(`"maxLineBytes":6`))
		Expect(model("setting-off-by-one").Variants("search.present", parse(`{"config":{"maxLineBytes":5}}`))).To(BeEmpty())
	})

	It("drop empty log entries, blaming the run's text or the failure's captured output", func() {
		ok := model("drops-empty-strings").Variants("run_code.result", parse(`{"run":{"logs":["a","","b"]}}`))
		Expect(ok).To(HaveLen(1))
		Expect(ok[0].Requirement).To(Equal("CODE-RENDER-1"))
		Expect(string(jsonjs.Marshal(ok[0].Input))).To(Equal(`{"run":{"logs":["a","b"]}}`))
		failed := model("drops-empty-strings").Variants("run_code.result", parse(`{"run":{"logs":[""],"error":{"kind":"k","message":"m"}}}`))
		Expect(failed).To(HaveLen(1))
		Expect(failed[0].Requirement).To(Equal("CODE-FAIL-1"))
		Expect(model("drops-empty-strings").Variants("run_code.result", parse(`{"run":{"logs":["a"]}}`))).To(BeEmpty())
	})
})
