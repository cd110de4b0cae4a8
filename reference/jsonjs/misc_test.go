package jsonjs_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

var _ = Describe("CODE-KEYS-1 property order", func() {
	const example = `{"b":1,"2":2,"a":3,"1":4,"4294967295":5,"4294967294":6,"01":7,"-1":8,"1.5":9,"0":10,"10":11,"9":12}`
	wantOrder := []string{"0", "1", "2", "9", "10", "4294967294", "b", "a", "4294967295", "01", "-1", "1.5"}

	It("orders the example's keys 0, 1, 2, 9, 10, 4294967294, b, a, 4294967295, 01, -1, 1.5", func() {
		v := mustParse(example)
		members, _ := v.Members()
		Expect(keysOf(members)).To(Equal([]string{"b", "2", "a", "1", "4294967295", "4294967294", "01", "-1", "1.5", "0", "10", "9"}),
			"Members keeps insertion order")
		Expect(keysOf(jsonjs.PropertyOrder(members))).To(Equal(wantOrder))
		Expect(marshal(v)).To(Equal(`{"0":10,"1":4,"2":2,"9":12,"10":11,"4294967294":6,"b":1,"a":3,"4294967295":5,"01":7,"-1":8,"1.5":9}`))
		Expect(pretty(v)).To(Equal("{\n  \"0\": 10,\n  \"1\": 4,\n  \"2\": 2,\n  \"9\": 12,\n  \"10\": 11,\n  \"4294967294\": 6,\n  \"b\": 1,\n  \"a\": 3,\n  \"4294967295\": 5,\n  \"01\": 7,\n  \"-1\": 8,\n  \"1.5\": 9\n}"),
			"verbatim upstream render (FINDINGS Q7)")
	})

	It("re-orders nested objects and keeps objects without index keys as they are", func() {
		v := mustParse(`{"z":{"b":1,"3":2,"a":3,"1":4},"y":[{"10":1,"9":2}]}`)
		Expect(marshal(v)).To(Equal(`{"z":{"1":4,"3":2,"b":1,"a":3},"y":[{"9":2,"10":1}]}`))
		plain := []jsonjs.Member{{Key: "z"}, {Key: "a"}, {Key: "m"}}
		Expect(keysOf(jsonjs.PropertyOrder(plain))).To(Equal([]string{"z", "a", "m"}))
		Expect(jsonjs.PropertyOrder(nil)).To(BeEmpty())
	})

	It("applies to a duplicate index key at its first position", func() {
		v := mustParse(`{"x":0,"5":1,"2":2,"5":3}`)
		Expect(marshal(v)).To(Equal(`{"2":2,"5":3,"x":0}`))
	})

	DescribeTable("ArrayIndex",
		func(key string, want uint32, ok bool) {
			n, got := jsonjs.ArrayIndex(key)
			Expect(got).To(Equal(ok), "ArrayIndex(%q)", key)
			if ok {
				Expect(n).To(Equal(want))
			}
		},
		Entry("0", "0", uint32(0), true),
		Entry("1", "1", uint32(1), true),
		Entry("9", "9", uint32(9), true),
		Entry("10", "10", uint32(10), true),
		Entry("123456789", "123456789", uint32(123456789), true),
		Entry("2^32-2", "4294967294", uint32(4294967294), true),
		Entry("1000000000 (10 digits)", "1000000000", uint32(1000000000), true),
		Entry("2^32-1 is not an index", "4294967295", uint32(0), false),
		Entry("2^32", "4294967296", uint32(0), false),
		Entry("9999999999 (10 digits, too big)", "9999999999", uint32(0), false),
		Entry("11 digits", "10000000000", uint32(0), false),
		Entry("uint64 overflow", "18446744073709551616", uint32(0), false),
		Entry("empty", "", uint32(0), false),
		Entry("leading zero", "01", uint32(0), false),
		Entry("double zero", "00", uint32(0), false),
		Entry("-0", "-0", uint32(0), false),
		Entry("-1", "-1", uint32(0), false),
		Entry("+1", "+1", uint32(0), false),
		Entry("1.5", "1.5", uint32(0), false),
		Entry("1.0", "1.0", uint32(0), false),
		Entry("1e3", "1e3", uint32(0), false),
		Entry("leading space", " 1", uint32(0), false),
		Entry("trailing space", "1 ", uint32(0), false),
		Entry("hex", "0x1", uint32(0), false),
		Entry("fullwidth digit", "１", uint32(0), false),
		Entry("letters", "a", uint32(0), false),
	)
})

var _ = Describe("DecodeUTF8 (RET-UTF8-3 step 2, WHATWG with replacement)", func() {
	DescribeTable("decodes",
		func(in []byte, want string) {
			got := jsonjs.DecodeUTF8(in)
			Expect(got).To(Equal(want), "% X", in)
			Expect(utf8.ValidString(got)).To(BeTrue())
		},
		Entry("E2 82 41: one U+FFFD for the incomplete E2 82", []byte{0xE2, 0x82, 0x41}, "\uFFFDA"),
		Entry("FF FE", []byte{0xFF, 0xFE}, "\uFFFD\uFFFD"),
		Entry("ED A0 80: surrogate encoding is invalid", []byte{0xED, 0xA0, 0x80}, "\uFFFD\uFFFD\uFFFD"),
		Entry("F0 80 80 41: 80 not allowed after F0", []byte{0xF0, 0x80, 0x80, 0x41}, "\uFFFD\uFFFD\uFFFDA"),
		Entry("C0 AF", []byte{0xC0, 0xAF}, "\uFFFD\uFFFD"),
		Entry("80 80 7A", []byte{0x80, 0x80, 0x7A}, "\uFFFD\uFFFDz"),
		Entry("F8 61", []byte{0xF8, 0x61}, "\uFFFDa"),
		Entry("80 80 80 80 41", []byte{0x80, 0x80, 0x80, 0x80, 0x41}, "\uFFFD\uFFFD\uFFFD\uFFFDA"),
		Entry("C3 A9 A9 41", []byte{0xC3, 0xA9, 0xA9, 0x41}, "é\uFFFDA"),
		Entry("F4 90 80 80: 90 not allowed after F4", []byte{0xF4, 0x90, 0x80, 0x80}, "\uFFFD\uFFFD\uFFFD\uFFFD"),
		Entry("E0 80 80: 80 not allowed after E0", []byte{0xE0, 0x80, 0x80}, "\uFFFD\uFFFD\uFFFD"),
		Entry("61 F5 80", []byte{0x61, 0xF5, 0x80}, "a\uFFFD\uFFFD"),
		Entry("61 C0 80", []byte{0x61, 0xC0, 0x80}, "a\uFFFD\uFFFD"),
		Entry("C1 BF", []byte{0xC1, 0xBF}, "\uFFFD\uFFFD"),
		Entry("end inside a 2-byte sequence", []byte{0x61, 0xC3}, "a\uFFFD"),
		Entry("end inside a 3-byte sequence", []byte{0xE2, 0x82}, "\uFFFD"),
		Entry("end inside a 4-byte sequence", []byte{0xF0, 0x9F, 0x98}, "\uFFFD"),
		Entry("incomplete then a new lead", []byte{0xF0, 0x9F, 0xC3, 0xA9}, "\uFFFDé"),
		Entry("incomplete then ASCII", []byte{0xE2, 0x41}, "\uFFFDA"),
		Entry("E0 A0 80 is U+0800", []byte{0xE0, 0xA0, 0x80}, "\u0800"),
		Entry("ED 9F BF is U+D7FF", []byte{0xED, 0x9F, 0xBF}, "\uD7FF"),
		Entry("F0 90 80 80 is U+10000", []byte{0xF0, 0x90, 0x80, 0x80}, "\U00010000"),
		Entry("F4 8F BF BF is U+10FFFF", []byte{0xF4, 0x8F, 0xBF, 0xBF}, "\U0010FFFF"),
		Entry("a BOM is not removed here", []byte{0xEF, 0xBB, 0xBF, 0x61}, "\uFEFFa"),
		Entry("valid mixed text", []byte("aé€😀"), "aé€😀"),
		Entry("empty", []byte{}, ""),
		Entry("nil", []byte(nil), ""),
	)
})

var _ = Describe("IsBlank (SEARCH-ARGS-3, ECMAScript trim)", func() {
	blank := map[string]rune{
		"TAB": '\t', "LF": '\n', "VT": '\v', "FF": '\f', "CR": '\r', "SPACE": ' ',
		"U+00A0": 0x00A0, "U+1680": 0x1680, "U+2028": 0x2028, "U+2029": 0x2029,
		"U+202F": 0x202F, "U+205F": 0x205F, "U+3000": 0x3000, "U+FEFF": 0xFEFF,
	}
	for r := rune(0x2000); r <= 0x200A; r++ {
		blank[fmt.Sprintf("U+%04X", r)] = r
	}

	It("treats every character of the ECMAScript whitespace set as blank", func() {
		Expect(blank).To(HaveLen(25))
		var all strings.Builder
		for name, r := range blank {
			Expect(jsonjs.IsBlank(string(r))).To(BeTrue(), name)
			Expect(jsonjs.IsBlank(string(r)+string(r))).To(BeTrue(), name)
			Expect(jsonjs.IsBlank(string(r)+"x")).To(BeFalse(), name)
			Expect(jsonjs.IsBlank("x"+string(r))).To(BeFalse(), name)
			all.WriteRune(r)
		}
		Expect(jsonjs.IsBlank(all.String())).To(BeTrue())
		Expect(jsonjs.IsBlank("")).To(BeTrue())
	})

	DescribeTable("is not blank for",
		func(s string) { Expect(jsonjs.IsBlank(s)).To(BeFalse(), "%q", s) },
		Entry("U+0085", "\u0085"),
		Entry("U+180E", "\u180E"),
		Entry("U+200B", "\u200B"),
		Entry("U+200C", "\u200C"),
		Entry("U+2060", "\u2060"),
		Entry("U+001C (Go's IsSpace does not trim it either, JS does not)", "\x1c"),
		Entry("U+001F", "\x1f"),
		Entry("NUL", "\x00"),
		Entry("letter", "a"),
		Entry("U+FFFD", "\uFFFD"),
		Entry("an invalid byte", "\xff"),
		Entry("spaces around a letter", "  a  "),
		Entry("U+0085 between spaces", " \u0085 "),
		Entry("U+200B between BOMs", "\ufeff\u200b\ufeff"),
	)
})

var _ = Describe("Equal / FirstDifference / Differences", func() {
	It("ignores object member order", func() {
		a := mustParse(`{"a":1,"b":[1,2],"c":{"x":null,"y":true}}`)
		b := mustParse(`{"c":{"y":true,"x":null},"b":[1,2],"a":1}`)
		Expect(jsonjs.Equal(a, b)).To(BeTrue())
		Expect(jsonjs.FirstDifference(a, b)).To(BeEmpty())
		Expect(paths(jsonjs.Differences(a, b, 0))).To(BeEmpty())
	})

	It("compares numbers as float64: 1 == 1.0 == 1e0 == 10e-1, 0 == -0", func() {
		for _, s := range []string{"1.0", "1e0", "10e-1", "1.00000000000000000001"} {
			Expect(jsonjs.Equal(mustParse("1"), mustParse(s))).To(BeTrue(), s)
		}
		Expect(jsonjs.Equal(mustParse("0"), mustParse("-0"))).To(BeTrue())
		Expect(jsonjs.Equal(jsonjs.IntValue(1), jsonjs.NumberValue(1.0))).To(BeTrue())
		Expect(jsonjs.Equal(mustParse("1"), mustParse("1.5"))).To(BeFalse())
		Expect(jsonjs.Equal(jsonjs.NumberValue(math.NaN()), jsonjs.NumberValue(math.NaN()))).To(BeTrue())
	})

	It("is strict about kinds, strings and array order", func() {
		Expect(jsonjs.FirstDifference(mustParse("1"), mustParse(`"1"`))).To(Equal("$"))
		Expect(jsonjs.FirstDifference(mustParse("null"), mustParse("false"))).To(Equal("$"))
		Expect(jsonjs.FirstDifference(mustParse("true"), mustParse("false"))).To(Equal("$"))
		Expect(jsonjs.FirstDifference(mustParse(`"é"`), mustParse(`"e\u0301"`))).To(Equal("$"))
		Expect(jsonjs.FirstDifference(mustParse(`[]`), mustParse(`{}`))).To(Equal("$"))
		Expect(paths(jsonjs.Differences(mustParse(`[1,2]`), mustParse(`[2,1]`), 0))).To(Equal([]string{"$[0]", "$[1]"}))
		Expect(jsonjs.FirstDifference(mustParse(`{"x":[1,2]}`), mustParse(`{"x":[1,2,3]}`))).To(Equal("$.x"))
		Expect(jsonjs.Equal(jsonjs.ArrayValue(), mustParse("[]"))).To(BeTrue())
		Expect(jsonjs.Equal(jsonjs.ObjectValue(), mustParse("{}"))).To(BeTrue())
	})

	It("reports JSON paths like $.files[2].path", func() {
		a := mustParse(`{"files":[{"path":"a"},{"path":"b"},{"path":"c","n":1}]}`)
		b := mustParse(`{"files":[{"path":"a"},{"path":"b"},{"n":1,"path":"x"}]}`)
		Expect(jsonjs.Equal(a, b)).To(BeFalse())
		Expect(jsonjs.FirstDifference(a, b)).To(Equal("$.files[2].path"))
		Expect(paths(jsonjs.Differences(a, b, 0))).To(Equal([]string{"$.files[2].path"}))
	})

	It("quotes member names that are not identifiers", func() {
		Expect(jsonjs.FirstDifference(mustParse(`{"a b":1}`), mustParse(`{"a b":2}`))).To(Equal(`$["a b"]`))
		Expect(jsonjs.FirstDifference(mustParse(`{"1x":1}`), mustParse(`{"1x":2}`))).To(Equal(`$["1x"]`))
		Expect(jsonjs.FirstDifference(mustParse(`{"":1}`), mustParse(`{"":2}`))).To(Equal(`$[""]`))
		Expect(jsonjs.FirstDifference(mustParse(`{"q\"":1}`), mustParse(`{"q\"":2}`))).To(Equal(`$["q\""]`))
		Expect(jsonjs.FirstDifference(mustParse(`{"_$a1":1}`), mustParse(`{"_$a1":2}`))).To(Equal(`$._$a1`))
	})

	It("reports missing members at their paths and lists differences in document order", func() {
		Expect(paths(jsonjs.Differences(mustParse(`{"a":1,"b":2}`), mustParse(`{"a":1,"c":2}`), 0))).To(Equal([]string{"$.b", "$.c"}))
		Expect(jsonjs.FirstDifference(mustParse(`{"a":1}`), mustParse(`{"a":1,"b":2}`))).To(Equal("$"),
			"objects of different sizes differ at their own path")
		a := mustParse(`{"a":1,"b":2,"c":[1,2,3],"d":{"e":"f"}}`)
		b := mustParse(`{"d":{"e":"g"},"c":[1,0,0],"b":2,"a":0}`)
		Expect(paths(jsonjs.Differences(a, b, 0))).To(Equal([]string{"$.a", "$.c[1]", "$.c[2]", "$.d.e"}))
		Expect(paths(jsonjs.Differences(a, b, -1))).To(HaveLen(4))
		Expect(paths(jsonjs.Differences(a, b, 2))).To(Equal([]string{"$.a", "$.c[1]"}))
		Expect(paths(jsonjs.Differences(a, b, 1))).To(Equal([]string{"$.a"}))
	})

	It("returns the value on each side, and which side lacks a member", func() {
		ds := jsonjs.Differences(mustParse(`{"a":1,"b":[1,2]}`), mustParse(`{"a":2,"c":true,"b":[1]}`), 0)
		Expect(paths(ds)).To(Equal([]string{"$"}), "objects of different sizes differ at the root")
		ds = jsonjs.Differences(mustParse(`{"a":1,"b":[1,2]}`), mustParse(`{"a":2,"b":[1]}`), 0)
		Expect(paths(ds)).To(Equal([]string{"$.a", "$.b"}))
		Expect(string(jsonjs.Marshal(ds[0].A))).To(Equal("1"))
		Expect(string(jsonjs.Marshal(ds[0].B))).To(Equal("2"))
		Expect(string(jsonjs.Marshal(ds[1].B))).To(Equal("[1]"))
		Expect(ds[1].InA && ds[1].InB).To(BeTrue())
		ds = jsonjs.Differences(mustParse(`{"a":1,"b":2}`), mustParse(`{"a":1,"c":3}`), 0)
		Expect(ds[0].InA).To(BeTrue())
		Expect(ds[0].InB).To(BeFalse())
		Expect(string(jsonjs.Marshal(ds[0].A))).To(Equal("2"))
		Expect(ds[1].InA).To(BeFalse())
		Expect(string(jsonjs.Marshal(ds[1].B))).To(Equal("3"))
	})
})

// paths is the JSON paths of differences.
func paths(ds []jsonjs.Difference) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Path)
	}
	return out
}

var _ = Describe("Value accessors and Optional", func() {
	It("reports kinds and payloads", func() {
		cases := map[jsonjs.Kind]jsonjs.Value{
			jsonjs.Null: jsonjs.NullValue(), jsonjs.Bool: jsonjs.BoolValue(true),
			jsonjs.Number: jsonjs.NumberValue(2), jsonjs.String: jsonjs.StringValue("s"),
			jsonjs.Array: jsonjs.ArrayValue(), jsonjs.Object: jsonjs.ObjectValue(),
		}
		names := map[jsonjs.Kind]string{jsonjs.Null: "null", jsonjs.Bool: "boolean", jsonjs.Number: "number",
			jsonjs.String: "string", jsonjs.Array: "array", jsonjs.Object: "object"}
		for k, v := range cases {
			Expect(v.Kind()).To(Equal(k))
			Expect(k.String()).To(Equal(names[k]))
			Expect(v.IsNull()).To(Equal(k == jsonjs.Null))
			_, ok := v.Float()
			Expect(ok).To(Equal(k == jsonjs.Number))
			_, ok = v.Str()
			Expect(ok).To(Equal(k == jsonjs.String))
			_, ok = v.Bool()
			Expect(ok).To(Equal(k == jsonjs.Bool))
			_, ok = v.Items()
			Expect(ok).To(Equal(k == jsonjs.Array))
			_, ok = v.Members()
			Expect(ok).To(Equal(k == jsonjs.Object))
		}
		Expect(jsonjs.Kind(99).String()).To(Equal("invalid"))
		Expect(marshal(jsonjs.Value{})).To(Equal("null"), "the zero Value is null")
		Expect(marshal(jsonjs.ArrayValue())).To(Equal("[]"), "a nil slice is the empty array")
		Expect(marshal(jsonjs.ObjectValue())).To(Equal("{}"))
	})

	It("Get, Has and IsInteger", func() {
		v := mustParse(`{"a":1,"b":null}`)
		got, ok := v.Get("b")
		Expect(ok).To(BeTrue())
		Expect(got.IsNull()).To(BeTrue())
		Expect(v.Has("a")).To(BeTrue())
		Expect(v.Has("c")).To(BeFalse())
		_, ok = mustParse("[1]").Get("0")
		Expect(ok).To(BeFalse())
		Expect(mustParse("3").IsInteger()).To(BeTrue())
		Expect(mustParse("-0").IsInteger()).To(BeTrue())
		Expect(mustParse("3.5").IsInteger()).To(BeFalse())
		Expect(mustParse(`"3"`).IsInteger()).To(BeFalse())
		Expect(mustParse("-1e400").IsInteger()).To(BeFalse())
		Expect(jsonjs.NumberValue(math.NaN()).IsInteger()).To(BeFalse())
	})

	It("implements json.Marshaler/Unmarshaler with JS bytes", func() {
		out, err := json.Marshal(map[string]jsonjs.Value{"v": mustParse(`{"b":1,"0":-0}`)})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"v":{"0":0,"b":1}}`))
		var v jsonjs.Value
		Expect(json.Unmarshal([]byte(`{"a":1,"a":2}`), &v)).To(Succeed())
		Expect(marshal(v)).To(Equal(`{"a":2}`))
	})

	type holder struct {
		A jsonjs.Optional `json:"a,omitzero"`
		B jsonjs.Optional `json:"b,omitzero"`
	}

	It("keeps absent, null and present apart", func() {
		var h holder
		Expect(json.Unmarshal([]byte(`{"a":null}`), &h)).To(Succeed())
		Expect(h.A.Present).To(BeTrue(), "null is present")
		Expect(h.A.Value.IsNull()).To(BeTrue())
		Expect(h.A.Ptr()).NotTo(BeNil())
		Expect(h.B.Present).To(BeFalse())
		Expect(h.B.IsZero()).To(BeTrue())
		Expect(h.B.Ptr()).To(BeNil())

		out, err := json.Marshal(h)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"a":null}`))

		h = holder{B: jsonjs.Some(jsonjs.IntValue(3))}
		out, err = json.Marshal(h)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"b":3}`))
		p := h.B.Ptr()
		Expect(marshal(*p)).To(Equal("3"))

		Expect(json.Unmarshal([]byte(`{"a":[1,2]}`), &h)).To(Succeed())
		Expect(marshal(h.A.Value)).To(Equal("[1,2]"))
		var o jsonjs.Optional
		Expect(o.UnmarshalJSON([]byte("[1,"))).NotTo(Succeed())
		Expect(o.Present).To(BeFalse())
	})
})
