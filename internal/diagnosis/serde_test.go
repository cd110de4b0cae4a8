package diagnosis_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/diagnosis"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

var _ = Describe("the serde_json models", func() {
	run := func(result string) string {
		return `{"args":{"code":"x","description":"d"},"run":{"logs":["n"],"result":` + result + `}}`
	}

	It("write a run's numbers as serde_json reads and writes them (CODE-NUM-1)", func() {
		content, a := output("number-serde", "run_code.result", run(`[100000000000000000000,4503599627370495.5,0.000001,1,"1e20"]`), "content")
		Expect(content).To(Equal(`"n\n[\n  1e+20,\n  4503599627370495.0,\n  1e-6,\n  1,\n  \"1e20\"\n]"`), "JavaScript: 100000000000000000000, 4503599627370495.5, 0.000001")
		Expect(a.Requirement).To(Equal("CODE-NUM-1"))
		for _, result := range []string{`[1,1.5,1e21,{"a":-2}]`, `"100000000000000000000"`} {
			_, applies := first(model("number-serde"), "run_code.result", parsed(run(result)))
			Expect(applies).To(BeFalse(), "serde_json writes %s as JavaScript does", result)
		}
	})

	It("combine with sorted members: one answer, both requirements", func() {
		var found *diagnosis.Joint
		for _, j := range diagnosis.JointAnswers("run_code.result", parsed(run(`{"b":100000000000000000000,"a":1}`))) {
			if j.Models[0].Name == "keys-sorted" && j.Models[1].Name == "number-serde" {
				found = &j
			}
		}
		Expect(found).NotTo(BeNil())
		Expect(found.Requirements).To(Equal([2]string{"CODE-KEYS-1", "CODE-NUM-1"}))
		Expect(string(found.Answer.Output)).To(ContainSubstring(`"content":"n\n{\n  \"a\": 1,\n  \"b\": 1e+20\n}"`))
	})

	It("measure grep's meta with f64 line numbers, 1 as 1.0, emitting the meta unchanged (SEARCH-JSON-1)", func() {
		// JavaScript measures these three groups with truncated:true as 401
		// bytes; with 1.0, 2.0, 3.0 they are 407, so a cap of 401 keeps two.
		row := func(path string, n int, c string) string {
			return `{"path":"` + path + `","lineNumber":` + string(rune('0'+n)) + `,"line":"` + strings.Repeat(c, 60) + `"}`
		}
		in := `{"args":{"pattern":"."},"value":{"matches":[` + row("a.ts", 1, "x") + "," + row("b.ts", 2, "y") + "," + row("c.ts", 3, "z") + `]},"config":{"maxMetaBytes":401}}`
		meta, a := output("meta-measure-f64", "grep.result", in, "meta")
		Expect(a.Requirement).To(Equal("SEARCH-JSON-1"))
		v := parsed(meta)
		files, _ := v.Get("files")
		items, _ := files.Items()
		Expect(items).To(HaveLen(2))
		Expect(meta).To(ContainSubstring(`"lineNumber":1,`), "the meta emitted holds the number 1")
		content, _ := output("meta-measure-f64", "grep.result", in, "content")
		Expect(content).To(ContainSubstring("Line 3: zzz"), "the text is not capped")
		_, applies := first(model("meta-measure-f64"), "glob.result", parsed(`{"args":{"pattern":"*"},"value":{"paths":["a"]}}`))
		Expect(applies).To(BeFalse(), "a glob meta holds no line number")
		_ = jsonjs.Null
	})

	It("are computed in a dialect: conform fuzz, which runs the reference's own primitives, leaves them out", func() {
		vs := model("meta-measure-f64").Variants("grep.result", parsed(`{"args":{"pattern":"x"},"value":{"matches":[{"path":"p","lineNumber":1,"line":"x"}]}}`))
		Expect(vs).To(HaveLen(1))
		Expect(vs[0].Plain()).To(BeFalse())
		vs = model("number-serde").Variants("run_code.result", parsed(run(`[100000000000000000000]`)))
		Expect(vs).To(HaveLen(1))
		Expect(vs[0].Plain()).To(BeFalse())
		vs = model("null-as-given").Variants("glob.result", parsed(`{"args":{"pattern":"*"},"value":{"paths":["a"]},"config":{"maxResults":null}}`))
		Expect(vs).NotTo(BeEmpty())
		Expect(vs[0].Plain()).To(BeTrue(), "an input rewrite the reference answers as it is")
	})
})
