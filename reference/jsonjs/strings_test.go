package jsonjs_test

import (
	"fmt"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// expectString checks AppendString, StringSize, Marshal and Size for one
// WTF-8 string against the JSON.stringify text want.
func expectString(s, want string) {
	GinkgoHelper()
	Expect(string(jsonjs.AppendString(nil, s))).To(Equal(want), "AppendString(%q)", s)
	Expect(string(jsonjs.AppendString([]byte("pre"), s))).To(Equal("pre"+want), "AppendString appends")
	Expect(jsonjs.StringSize(s)).To(Equal(len(want)), "StringSize(%q)", s)
	v := jsonjs.StringValue(s)
	Expect(marshal(v)).To(Equal(want), "Marshal(%q)", s)
	Expect(jsonjs.Size(v)).To(Equal(len(want)), "Size(%q)", s)
	// As an object key, the same rules apply.
	obj := jsonjs.ObjectValue(jsonjs.Member{Key: s, Value: jsonjs.IntValue(1)})
	Expect(marshal(obj)).To(Equal("{" + want + ":1}"))
	Expect(jsonjs.Size(obj)).To(Equal(len(want) + 4))
}

var _ = Describe("SEARCH-JSON-1 / CODE-STR-1 string escaping", func() {
	DescribeTable("the short escapes",
		func(in, want string) { expectString(in, want) },
		Entry(`"`, `"`, `"\""`),
		Entry(`\`, `\`, `"\\"`),
		Entry("U+0008", "\b", `"\b"`),
		Entry("U+000C", "\f", `"\f"`),
		Entry("U+000A", "\n", `"\n"`),
		Entry("U+000D", "\r", `"\r"`),
		Entry("U+0009", "\t", `"\t"`),
		Entry("/ is not escaped", "/", `"/"`),
		Entry("' is not escaped", "'", `"'"`),
		Entry("empty", "", `""`),
	)

	It("escapes every other C0 control as \\u00xx in lowercase hex", func() {
		short := map[byte]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}
		for c := byte(0); c < 0x20; c++ {
			want, ok := short[c]
			if !ok {
				want = fmt.Sprintf(`\u%04x`, c)
				Expect(want).To(Equal(strings.ToLower(want)))
			}
			expectString(string([]byte{c}), `"`+want+`"`)
			expectString("a"+string([]byte{c})+"b", `"a`+want+`b"`)
		}
		expectString("\x1a\x1b\x1f\x0b\x00", `"\u001a\u001b\u001f\u000b\u0000"`)
	})

	DescribeTable("emits raw (unescaped)",
		func(in string) {
			expectString(in, `"`+in+`"`)
		},
		Entry("< > &", "<>&"),
		Entry("U+007F", "\x7f"),
		Entry("U+0080", "\u0080"),
		Entry("U+009F", "\u009f"),
		Entry("U+0085", "\u0085"),
		Entry("U+00A0", "\u00a0"),
		Entry("U+2028", "\u2028"),
		Entry("U+2029", "\u2029"),
		Entry("U+FEFF", "\ufeff"),
		Entry("U+FFFD", "\ufffd"),
		Entry("U+FFFF", "\uffff"),
		Entry("é", "é"),
		Entry("日本/ファイル.ts", "日本/ファイル.ts"),
		Entry("😀 (4-byte)", "😀"),
		Entry("U+10FFFF", "\U0010FFFF"),
		Entry("U+10000", "\U00010000"),
		Entry("printable ASCII", " !#$%()*+,-.0123456789:;=?@AZ[]^_`az{|}~"),
	)

	It("U+2028/U+2029/<>& cost their UTF-8 bytes, not an escape", func() {
		Expect(jsonjs.StringSize("\u2028")).To(Equal(5))
		Expect(jsonjs.StringSize("<>&")).To(Equal(5))
		Expect(jsonjs.StringSize("😀")).To(Equal(6))
	})

	Describe("lone surrogates", func() {
		It("escapes a lone high surrogate parsed from \\ud800 as \\ud800 (lowercase)", func() {
			v := mustParse(`"\ud800"`)
			s, ok := v.Str()
			Expect(ok).To(BeTrue())
			Expect([]byte(s)).To(Equal([]byte{0xED, 0xA0, 0x80}), "stored as WTF-8")
			Expect(marshal(v)).To(Equal(`"\ud800"`))
			Expect(jsonjs.Size(v)).To(Equal(8))
			expectString(s, `"\ud800"`)
		})

		It("writes lowercase hex for an uppercase input escape", func() {
			Expect(marshal(mustParse(`"\uD800"`))).To(Equal(`"\ud800"`))
			Expect(marshal(mustParse(`"\uDBFF"`))).To(Equal(`"\udbff"`))
			Expect(marshal(mustParse(`"\uDC00"`))).To(Equal(`"\udc00"`))
			Expect(marshal(mustParse(`"\uDFFF"`))).To(Equal(`"\udfff"`))
			Expect(marshal(mustParse(`"\uDABC"`))).To(Equal(`"\udabc"`))
		})

		DescribeTable("escapes each lone code unit separately",
			func(in, want string) {
				v := mustParse(in)
				Expect(marshal(v)).To(Equal(want))
				Expect(jsonjs.Size(v)).To(Equal(len(want)))
			},
			Entry("lone low", `"\udc00"`, `"\udc00"`),
			Entry("low then high (not a pair)", `"\udc00\ud800"`, `"\udc00\ud800"`),
			Entry("high then a letter", `"\ud800b"`, `"\ud800b"`),
			Entry("high then an escaped letter", `"\ud800\u0041"`, `"\ud800A"`),
			Entry("high then a control escape", `"\ud800\u0001"`, `"\ud800\u0001"`),
			Entry("high high low: the second pair combines", `"\ud800\ud83d\ude00"`, `"\ud800😀"`),
			Entry("high then a raw astral char", `"\ud83d😀"`, `"\ud83d😀"`),
			Entry("in the middle", `"a\ud800 \udc00x"`, `"a\ud800 \udc00x"`),
			Entry("as a key", `{"\ud800":1}`, `{"\ud800":1}`),
		)

		It("combines the surrogate pair \\ud83d\\ude00 into one 4-byte character", func() {
			for _, in := range []string{`"\ud83d\ude00"`, `"\uD83D\uDE00"`} {
				v := mustParse(in)
				s, _ := v.Str()
				Expect(s).To(Equal("😀"))
				Expect([]byte(s)).To(Equal([]byte{0xF0, 0x9F, 0x98, 0x80}))
				Expect(utf8.RuneCountInString(s)).To(Equal(1))
				Expect(marshal(v)).To(Equal(`"😀"`))
				Expect(jsonjs.Size(v)).To(Equal(6))
			}
			s, _ := mustParse(`"\udbff\udfff"`).Str()
			Expect(s).To(Equal("\U0010FFFF"))
			s, _ = mustParse(`"\ud800\udc00"`).Str()
			Expect(s).To(Equal("\U00010000"))
		})

		It("ToUTF8 and UTF8Len turn each lone surrogate into U+FFFD, as a JS UTF-8 encoder does", func() {
			s := "a" + lone(0xD800) + "b" + lone(0xDFFF)
			Expect(jsonjs.ToUTF8(s)).To(Equal("a\uFFFDb\uFFFD"))
			Expect(jsonjs.UTF8Len(s)).To(Equal(len("a\uFFFDb\uFFFD")))
			Expect(jsonjs.ToUTF8("plain é😀")).To(Equal("plain é😀"))
			Expect(jsonjs.UTF8Len("plain é😀")).To(Equal(len("plain é😀")))
			// Bytes that are not WTF-8 (impossible for a JS string) become U+FFFD each.
			Expect(jsonjs.ToUTF8("x\xffy\xc3")).To(Equal("x\uFFFDy\uFFFD"))
			Expect(jsonjs.UTF8Len("x\xffy\xc3")).To(Equal(len("x\uFFFDy\uFFFD")))
			parsed, _ := mustParse(`"a\ud800b"`).Str()
			Expect(jsonjs.ToUTF8(parsed)).To(Equal("a\uFFFDb"))
		})

		It("writes invalid (non-WTF-8) bytes as U+FFFD so the output stays valid UTF-8", func() {
			out := jsonjs.AppendString(nil, "a\xffb")
			Expect(string(out)).To(Equal("\"a\uFFFDb\""))
			Expect(jsonjs.StringSize("a\xffb")).To(Equal(len(out)))
		})
	})

	It("measures the §11 example as 100 bytes", func() {
		paths := []jsonjs.Value{
			jsonjs.StringValue("日本/ファイル.ts"),
			jsonjs.StringValue("a<b>&c.ts"),
			jsonjs.StringValue("x\u2028y"),
		}
		meta := jsonjs.ObjectValue(
			jsonjs.Member{Key: "shape", Value: jsonjs.StringValue("paths")},
			jsonjs.Member{Key: "paths", Value: jsonjs.ArrayValue(paths...)},
			jsonjs.Member{Key: "truncated", Value: jsonjs.BoolValue(false)},
			jsonjs.Member{Key: "total", Value: jsonjs.IntValue(3)},
		)
		want := `{"shape":"paths","paths":["日本/ファイル.ts","a<b>&c.ts","x` + "\u2028" + `y"],"truncated":false,"total":3}`
		Expect(marshal(meta)).To(Equal(want))
		Expect(len(want)).To(Equal(100))
		Expect(jsonjs.Size(meta)).To(Equal(100))
		// The same value parsed from escaped JSON text measures the same.
		parsed := mustParse(`{"shape":"paths","paths":["\u65e5\u672c/\u30d5\u30a1\u30a4\u30eb.ts","a\u003cb\u003e\u0026c.ts","x\u2028y"],"truncated":false,"total":3}`)
		Expect(marshal(parsed)).To(Equal(want))
		Expect(jsonjs.Size(parsed)).To(Equal(100))
	})

	Describe("the CODE-STR-1 examples", func() {
		It("renders the string example", func() {
			v := mustParse(`{"s":"a\"b\\c\n\t\u0001\u001f\u007f\u2028\u2029<>&é😀\ud800 \udc00x","k":"\b\f\r"}`)
			want := "{\n  \"s\": \"a\\\"b\\\\c\\n\\t\\u0001\\u001f\x7f\u2028\u2029<>&é😀\\ud800 \\udc00x\",\n  \"k\": \"\\b\\f\\r\"\n}"
			Expect(pretty(v)).To(Equal(want))
			// Verbatim upstream output (FINDINGS Q7), as a JSON string.
			Expect(pretty(v)).To(Equal("{\n  \"s\": \"a\\\"b\\\\c\\n\\t\\u0001\\u001f\u007f\u2028\u2029<>&é😀\\ud800 \\udc00x\",\n  \"k\": \"\\b\\f\\r\"\n}"))
			compact := `{"s":"a\"b\\c\n\t\u0001\u001f` + "\x7f\u2028\u2029" + `<>&é😀\ud800 \udc00x","k":"\b\f\r"}`
			Expect(marshal(v)).To(Equal(compact))
			Expect(jsonjs.Size(v)).To(Equal(len(compact)))
		})

		DescribeTable("renders the key examples",
			func(in, want string) {
				v := mustParse(in)
				Expect(pretty(v)).To(Equal(want))
				Expect(jsonjs.Size(v)).To(Equal(len(marshal(v))))
			},
			Entry("escaped keys", `{"a\"b":1,"é":2,"\n":3,"":4}`, "{\n  \"a\\\"b\": 1,\n  \"é\": 2,\n  \"\\n\": 3,\n  \"\": 4\n}"),
			Entry("duplicate key", `{"a":1,"b":2,"a":3}`, "{\n  \"a\": 3,\n  \"b\": 2\n}"),
			Entry("__proto__ is ordinary", `{"__proto__":1,"x":2}`, "{\n  \"__proto__\": 1,\n  \"x\": 2\n}"),
		)
	})
})

var _ = Describe("Concat, JavaScript's + on strings", func() {
	// str reads a JSON string literal as JSON.parse does.
	str := func(lit string) string {
		GinkgoHelper()
		s, ok := mustParse(lit).Str()
		Expect(ok).To(BeTrue())
		return s
	}
	DescribeTable("joins as the literal of both halves parses",
		func(a, b, joined string) {
			got := jsonjs.Concat(str(a), str(b))
			Expect(got).To(Equal(str(joined)))
			Expect(jsonjs.UTF8Len(got)).To(Equal(len(jsonjs.ToUTF8(str(joined)))))
		},
		Entry("a split pair becomes one code point (4 bytes)", `"\ud800"`, `"\udc00"`, `"\ud800\udc00"`),
		Entry("with text around it", `"x\udbff"`, `"\udfffy"`, `"x\udbff\udfffy"`),
		Entry("trail then lead stays two lone halves", `"\udc00"`, `"\ud800"`, `"\udc00\ud800"`),
		Entry("two leads stay lone", `"\ud800"`, `"\ud800"`, `"\ud800\ud800"`),
		Entry("two trails stay lone", `"\udc00"`, `"\udc00"`, `"\udc00\udc00"`),
		Entry("a lead before a whole pair", `"\ud800"`, `"\ud83d\ude00"`, `"\ud800\ud83d\ude00"`),
		Entry("empty left", `""`, `"\udc00"`, `"\udc00"`),
		Entry("empty right", `"\ud800"`, `""`, `"\ud800"`),
		Entry("plain text", `"ab"`, `"cd"`, `"abcd"`),
	)
})
