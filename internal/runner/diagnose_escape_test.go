package runner_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// explainedBy checks that every failing case names model among its
// diagnosis and blames the requirement its op breaks alone.
func explainedBy(failing []runner.CaseResult, model string, rule map[string]string) {
	GinkgoHelper()
	Expect(failing).NotTo(BeEmpty())
	fmt.Fprintf(GinkgoWriter, "%s: %d failing cases\n", model, len(failing))
	for _, c := range failing {
		var names []string
		for _, d := range c.Diagnosis {
			names = append(names, d.Model)
		}
		Expect(names).To(ContainElement(model), c.ID)
		Expect(c.Broken).To(Equal([]string{rule[c.Op]}), c.ID)
	}
}

// goMarshalSize is the meta measure of a Go port that measures with
// encoding/json: json.Marshal of the string. Its reader has already made
// a lone surrogate U+FFFD (the surrogates-replaced model), so a string
// holding one is measured as JavaScript does here.
func goMarshalSize(s string) int {
	if !utf8.ValidString(s) {
		return len(jsonjs.AppendString(nil, s))
	}
	b, err := json.Marshal(s)
	Expect(err).NotTo(HaveOccurred())
	return len(b)
}

// renderedWith is run_code's renderer with each character of the rendered
// JSON text that replace names written its way: outside string literals
// JSON.stringify writes none of them.
func renderedWith(replace func(r rune) (string, bool)) func(jsonjs.Value) string {
	return func(v jsonjs.Value) string {
		text := codemode.RenderValue(v)
		if _, ok := v.Str(); ok {
			return text
		}
		var b strings.Builder
		for _, r := range text {
			if s, ok := replace(r); ok {
				b.WriteString(s)
			} else {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
}

// pythonASCII is json.dumps's ensure_ascii: every code point past U+007E
// as \uxxxx, a surrogate pair past the BMP.
func pythonASCII(r rune) (string, bool) {
	if r < 0x7F {
		return "", false
	}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return fmt.Sprintf(`\u%04x\u%04x`, hi, lo), true
	}
	return fmt.Sprintf(`\u%04x`, r), true
}

// goHTML is encoding/json's HTML-safe set with U+2028 and U+2029.
func goHTML(r rune) (string, bool) {
	if strings.ContainsRune("<>&\u2028\u2029", r) {
		return fmt.Sprintf(`\u%04x`, r), true
	}
	return "", false
}

var _ = Describe("the escaping, length and grouping models in a run (issue 20)", func() {
	jsonRules := map[string]string{"run_code.result": "CODE-STR-1", "grep.result": "SEARCH-JSON-1", "glob.result": "SEARCH-JSON-1"}

	It("blame a meta measured with ASCII-only escapes (the meta-ascii harness) on SEARCH-JSON-1 alone", func() {
		explainedBy(runAs(wrong.MetaASCII{}, "python"), "escape-ascii", jsonRules)
	})

	It("blame a result rendered with ASCII-only escapes, as Python's json.dumps writes it, on CODE-STR-1 alone", func() {
		explainedBy(runAs(inDialect{reference.Dialect{Render: renderedWith(pythonASCII)}}, "python"), "escape-ascii", jsonRules)
	})

	It("blame Go's HTML-safe encoding/json, in a rendered result and in the meta measure, on CODE-STR-1 and SEARCH-JSON-1", func() {
		failing := runAs(inDialect{reference.Dialect{Render: renderedWith(goHTML), MetaString: goMarshalSize}}, "go")
		explainedBy(failing, "escape-html", jsonRules)
		ops := map[string]bool{}
		for _, c := range failing {
			ops[c.Op] = true
		}
		Expect(ops).To(HaveKey("run_code.result"))
		Expect(ops).To(Or(HaveKey("grep.result"), HaveKey("glob.result")))
	})

	It("blame a meta measured in UTF-16 units or in code points on SEARCH-JSON-1 alone", func() {
		utf16Size := func(s string) int { return len(utf16.Encode([]rune(string(jsonjs.AppendString(nil, s))))) }
		explainedBy(runAs(inDialect{reference.Dialect{MetaString: utf16Size}}, "typescript"), "length-utf16", jsonRules)
		pySize := func(s string) int { return utf8.RuneCountInString(string(jsonjs.AppendString(nil, s))) }
		explainedBy(runAs(inDialect{reference.Dialect{MetaString: pySize}}, "python"), "length-code-points", jsonRules)
	})

	It("blame grep groups sorted by path (the grep-sorted-paths harness) on SEARCH-GREP-3 alone", func() {
		explainedBy(runAs(wrong.GrepSortedPaths{}, "rust"), "groups-sorted", map[string]string{"grep.result": "SEARCH-GREP-3"})
	})
})

var _ adapter.Harness = inDialect{}

// rawSurrogates is a port that writes a lone surrogate of a run's result
// as the code unit (Python's json.dumps with ensure_ascii=False) and
// measures it in the meta as the 3 bytes surrogatepass encodes.
func rawSurrogates() reference.Dialect {
	render := func(v jsonjs.Value) string {
		text := codemode.RenderValue(v)
		if _, ok := v.Str(); ok {
			return text
		}
		// JSON.stringify's only \ud8xx-\udfxx escapes are lone surrogates.
		return regexp.MustCompile(`\\ud[89a-f][0-9a-f]{2}`).ReplaceAllStringFunc(text, func(esc string) string {
			u, _ := strconv.ParseUint(esc[2:], 16, 16)
			return string([]byte{0xE0 | byte(u>>12), 0x80 | byte(u>>6)&0x3F, 0x80 | byte(u)&0x3F})
		})
	}
	size := func(s string) int {
		lit := string(jsonjs.AppendString(nil, s))
		return len(lit) - 3*strings.Count(lit, `\ud`) // an escape's 6 bytes become the unit's 3
	}
	return reference.Dialect{Render: render, MetaString: size}
}

var _ = Describe("a lone surrogate written raw (issue 20)", func() {
	It("is blamed on CODE-STR-1 in a run's result and SEARCH-JSON-1 in the meta measure, alone", func() {
		explainedBy(runAs(inDialect{rawSurrogates()}, "python"), "surrogates-raw",
			map[string]string{"run_code.result": "CODE-STR-1", "grep.result": "SEARCH-JSON-1", "glob.result": "SEARCH-JSON-1"})
	})
})

var _ = Describe("a grep preview cut in other units (issue 20)", func() {
	// The ports' cuts, written apart from the models': Go's []rune and
	// utf16 over the line as a JavaScript UTF-8 encoder sees it.
	pyCut := func(line string, n int) (string, bool) {
		rs := []rune(jsonjs.ToUTF8(line))
		if len(rs) <= n {
			return line, false
		}
		return string(rs[:n]), true
	}
	jsCut := func(line string, n int) (string, bool) {
		us := utf16.Encode([]rune(jsonjs.ToUTF8(line)))
		if len(us) <= n {
			return line, false
		}
		return string(utf16.Decode(us[:n])), true
	}
	It("is blamed on SEARCH-PREVIEW-1 alone: code points, as Python's len and slices count", func() {
		explainedBy(runAs(inDialect{reference.Dialect{PreviewCut: pyCut}}, "python"), "preview-code-points", map[string]string{"grep.result": "SEARCH-PREVIEW-1"})
	})
	It("is blamed on SEARCH-PREVIEW-1 alone: UTF-16 units, as JavaScript's length and slice count", func() {
		explainedBy(runAs(inDialect{reference.Dialect{PreviewCut: jsCut}}, "typescript"), "preview-utf16", map[string]string{"grep.result": "SEARCH-PREVIEW-1"})
	})
})
