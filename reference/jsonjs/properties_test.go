package jsonjs_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// genFinite draws a finite float64 from arbitrary bits (non-finite bit
// patterns get their exponent's top bit cleared), mixed with small integers.
func genFinite() *rapid.Generator[float64] {
	return rapid.Custom(func(t *rapid.T) float64 {
		if rapid.IntRange(0, 3).Draw(t, "numkind") == 0 {
			return float64(rapid.IntRange(-1000, 1000).Draw(t, "int"))
		}
		bits := rapid.Uint64().Draw(t, "bits")
		x := math.Float64frombits(bits)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = math.Float64frombits(bits &^ (1 << 62))
		}
		return x
	})
}

// genJSString draws a WTF-8 string as a JS string can be: ASCII (controls,
// quotes, backslashes included), 2-, 3- and 4-byte characters (U+2028,
// U+FEFF, ...) and lone surrogates. A high surrogate is never directly
// followed by a low one: that pair would be one astral character in JS.
func genJSString() *rapid.Generator[string] {
	specials := []rune{'"', '\\', '/', '\b', '\f', '\n', '\r', '\t', 0, 0x1f, 0x7f, 0x80, 0x85, 0x9f, 0xA0,
		'<', '>', '&', 0x2028, 0x2029, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF}
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, 12).Draw(t, "len")
		var b strings.Builder
		prevHigh := false
		for i := 0; i < n; i++ {
			var piece string
			high := false
			switch rapid.IntRange(0, 6).Draw(t, "piece") {
			case 0:
				piece = string(rune(rapid.IntRange(0, 0x7f).Draw(t, "ascii")))
			case 1:
				piece = string(rune(rapid.IntRange(0x80, 0x7ff).Draw(t, "2byte")))
			case 2:
				r := rune(rapid.IntRange(0x800, 0xfffd).Draw(t, "3byte"))
				if r >= 0xD800 && r <= 0xDFFF {
					r = 0xE000
				}
				piece = string(r)
			case 3:
				piece = string(rune(rapid.IntRange(0x10000, 0x10ffff).Draw(t, "4byte")))
			case 4:
				u := uint16(rapid.IntRange(0xD800, 0xDFFF).Draw(t, "surrogate"))
				if prevHigh && u >= 0xDC00 {
					u -= 0x400 // keep it lone: another high surrogate
				}
				high = u < 0xDC00
				piece = lone(u)
			case 5:
				piece = string(rapid.SampledFrom(specials).Draw(t, "special"))
			default:
				piece = string(rune(rapid.IntRange('a', 'z').Draw(t, "letter")))
			}
			prevHigh = high
			b.WriteString(piece)
		}
		return b.String()
	})
}

// genValue draws a JSON value nested at most depth levels.
func genValue(depth int) *rapid.Generator[jsonjs.Value] {
	return rapid.Custom(func(t *rapid.T) jsonjs.Value {
		maxKind := 5
		if depth == 0 {
			maxKind = 3
		}
		switch rapid.IntRange(0, maxKind).Draw(t, "kind") {
		case 0:
			return jsonjs.NullValue()
		case 1:
			return jsonjs.BoolValue(rapid.Bool().Draw(t, "bool"))
		case 2:
			return jsonjs.NumberValue(genFinite().Draw(t, "number"))
		case 3:
			return jsonjs.StringValue(genJSString().Draw(t, "string"))
		case 4:
			n := rapid.IntRange(0, 4).Draw(t, "arrlen")
			items := make([]jsonjs.Value, n)
			for i := range items {
				items[i] = genValue(depth-1).Draw(t, "item")
			}
			return jsonjs.ArrayValue(items...)
		default:
			n := rapid.IntRange(0, 4).Draw(t, "objlen")
			members := make([]jsonjs.Member, n)
			for i := range members {
				var key string
				switch rapid.IntRange(0, 2).Draw(t, "keykind") {
				case 0:
					key = rapid.SampledFrom([]string{"0", "1", "10", "01", "-1", "4294967294", "4294967295", "a", "b", "__proto__", ""}).Draw(t, "key")
				default:
					key = genJSString().Draw(t, "key")
				}
				members[i] = jsonjs.Member{Key: key, Value: genValue(depth-1).Draw(t, "member")}
			}
			return jsonjs.ObjectValue(members...)
		}
	})
}

var _ = Describe("properties (rapid)", func() {
	gen := genValue(6)

	It("Parse(Marshal(v)) is Equal to v", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			v := gen.Draw(t, "v")
			text := jsonjs.Marshal(v)
			back, err := jsonjs.Parse(text)
			if err != nil {
				t.Fatalf("Parse(%s): %v", text, err)
			}
			if d := jsonjs.FirstDifference(v, back); d != "" {
				t.Fatalf("round trip differs at %s: %s vs %s", d, text, jsonjs.Marshal(back))
			}
			// Marshal is a fixed point after one round trip.
			if again := jsonjs.Marshal(back); !bytes.Equal(again, text) {
				t.Fatalf("Marshal not stable: %s vs %s", text, again)
			}
		})
	})

	It("Size(v) == len(Marshal(v)), and the output is valid UTF-8 JSON", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			v := gen.Draw(t, "v")
			text := jsonjs.Marshal(v)
			if n := jsonjs.Size(v); n != len(text) {
				t.Fatalf("Size = %d, len(Marshal) = %d for %s", n, len(text), text)
			}
			if !json.Valid(text) {
				t.Fatalf("not valid JSON: %q", text)
			}
			if !utf8.Valid(text) {
				t.Fatalf("not valid UTF-8: %q", text)
			}
			if bytes.ContainsAny(text, " \n\t\r") && !hasWhitespaceInStrings(v) {
				t.Fatalf("compact output holds whitespace outside strings: %q", text)
			}
		})
	})

	It("string measures agree: StringSize == len(AppendString), UTF8Len == len(ToUTF8)", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			s := genJSString().Draw(t, "s")
			if got, want := jsonjs.StringSize(s), len(jsonjs.AppendString(nil, s)); got != want {
				t.Fatalf("StringSize(%q) = %d, want %d", s, got, want)
			}
			u := jsonjs.ToUTF8(s)
			if !utf8.ValidString(u) {
				t.Fatalf("ToUTF8(%q) = %q is not UTF-8", s, u)
			}
			if jsonjs.UTF8Len(s) != len(u) {
				t.Fatalf("UTF8Len(%q) = %d, len(ToUTF8) = %d", s, jsonjs.UTF8Len(s), len(u))
			}
		})
	})

	It("AppendPretty(v, 2, 1000) equals json.Indent of Marshal(v) with 2 spaces", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			v := gen.Draw(t, "v")
			var want bytes.Buffer
			if err := json.Indent(&want, jsonjs.Marshal(v), "", "  "); err != nil {
				t.Fatalf("json.Indent: %v", err)
			}
			got := jsonjs.AppendPretty(nil, v, 2, 1000)
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("AppendPretty:\n%s\njson.Indent:\n%s", got, want.Bytes())
			}
		})
	})

	It("AppendPretty with indent 0 is Marshal", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			v := gen.Draw(t, "v")
			if got, want := jsonjs.AppendPretty(nil, v, 0, 1000), jsonjs.Marshal(v); !bytes.Equal(got, want) {
				t.Fatalf("AppendPretty(v, 0) = %s, Marshal = %s", got, want)
			}
			// compactFrom 0 is fully compact too.
			if got, want := jsonjs.AppendPretty(nil, v, 2, 0), jsonjs.Marshal(v); !bytes.Equal(got, want) {
				t.Fatalf("AppendPretty(v, 2, 0) = %s, Marshal = %s", got, want)
			}
		})
	})

	It("FormatNumber is the shortest text that parses back to x", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			x := genFinite().Draw(t, "x")
			s := jsonjs.FormatNumber(x)
			if jsonjs.NumberSize(x) != len(s) {
				t.Fatalf("NumberSize(%v) = %d, len(%q) = %d", x, jsonjs.NumberSize(x), s, len(s))
			}
			v, err := jsonjs.Parse([]byte(s))
			if err != nil {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			f, _ := v.Float()
			if f != x {
				t.Fatalf("Parse(FormatNumber(%v)) = %v", x, f)
			}
		})
	})

	It("DecodeUTF8 always yields valid UTF-8 and leaves valid input unchanged", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			b := rapid.SliceOfN(rapid.Byte(), 0, 16).Draw(t, "b")
			got := jsonjs.DecodeUTF8(b)
			if !utf8.ValidString(got) {
				t.Fatalf("DecodeUTF8(% X) = %q", b, got)
			}
			if utf8.Valid(b) && got != string(b) {
				t.Fatalf("DecodeUTF8 changed valid input % X", b)
			}
		})
	})
})

// hasWhitespaceInStrings reports whether any string or key of v contains a
// byte that a compact serialization could show raw as whitespace.
func hasWhitespaceInStrings(v jsonjs.Value) bool {
	switch v.Kind() {
	case jsonjs.String:
		s, _ := v.Str()
		return strings.Contains(s, " ")
	case jsonjs.Array:
		items, _ := v.Items()
		for _, it := range items {
			if hasWhitespaceInStrings(it) {
				return true
			}
		}
	case jsonjs.Object:
		members, _ := v.Members()
		for _, m := range members {
			if strings.Contains(m.Key, " ") || hasWhitespaceInStrings(m.Value) {
				return true
			}
		}
	}
	return false
}
