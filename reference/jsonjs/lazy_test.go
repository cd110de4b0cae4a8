package jsonjs_test

import (
	"fmt"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// utf8Pieces are byte sequences tried at every position of a string body:
// invalid ones (a stray continuation, a lead byte cut short, an overlong
// form, an encoded surrogate, a byte that never occurs) and valid ones of
// every length, which straddle the scanner's 8-byte words at some
// positions.
var utf8Pieces = []string{"\x80", "\xff", "\xc3", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
	"é", "€", "😀", "\u2028"}

// inBodies puts piece at each position of a 16-byte body, after 0 to 7
// bytes of padding before the string (so every alignment to the words),
// as a value, as a key, and after an escape (so the rest is read past the
// first stop).
func inBodies(piece string, fn func(text string)) {
	for pad := 0; pad < 8; pad++ {
		for i := 0; i+len(piece) <= 16; i++ {
			body := strings.Repeat("a", i) + piece + strings.Repeat("a", 16-i-len(piece))
			p := strings.Repeat(" ", pad)
			fn(p + `"` + body + `"`)
			fn(`{` + p + `"` + body + `":1}`)
			fn(`[` + p + `"\n` + body + `",2]`)
			fn(`["` + body[:i] + `\t` + body[i:] + `"` + p + `]`)
		}
	}
}

var _ = Describe("the lazy mode's UTF-8 verdict", func() {
	var l jsonjs.Lazy

	It("is utf8.Valid of the text for invalid and valid sequences at every position and alignment", func() {
		for _, piece := range utf8Pieces {
			inBodies(piece, func(text string) {
				Expect(l.Scan([]byte(text))).To(BeTrue(), "%q", text)
				Expect(l.UTF8()).To(Equal(utf8.ValidString(text)), "%q", text)
				_, err := jsonjs.Parse([]byte(text))
				Expect(err == nil).To(Equal(l.UTF8()), "Parse and UTF8 disagree on %q", text)
			})
		}
	})

	It("is kept for the whole text when a later string is ASCII", func() {
		Expect(l.Scan([]byte(`["a` + "\xff" + `","b","c"]`))).To(BeTrue())
		Expect(l.UTF8()).To(BeFalse())
		Expect(l.Scan([]byte(`["a","b"]`))).To(BeTrue())
		Expect(l.UTF8()).To(BeTrue(), "each Scan starts valid")
	})

	It("lets Lazy.Str skip the check only where it is exact", func() {
		inBodies("\xff", func(text string) {
			Expect(l.Scan([]byte(text))).To(BeTrue())
			for _, r := range stringValues(&l, l.Root()) {
				s, ok := l.Str(r)
				ws, wok := r.Str()
				Expect(ok).To(Equal(wok), "%q in %q", r, text)
				Expect(s).To(Equal(ws))
			}
		})
		Expect(l.Scan([]byte(`["é\u00e9","a\"b"]`))).To(BeTrue())
		for _, r := range l.Items(nil, l.Root()) {
			s, ok := l.Str(r)
			Expect(ok).To(BeTrue())
			Expect(s).To(BeElementOf("éé", `a"b`))
		}
		other := jsonjs.Raw("\"\xff\"") // not part of the scanned text
		_, ok := l.Str(other)
		Expect(ok).To(BeFalse())
		_, ok = l.Str(jsonjs.Raw(`1`))
		Expect(ok).To(BeFalse())
	})
})

// expectTapeWalk checks every container inside r, a value of the text l
// scanned, against a walk over a copy of its bytes.
func expectTapeWalk(l *jsonjs.Lazy, r jsonjs.Raw) {
	GinkgoHelper()
	cp := jsonjs.Raw(string(r)) // not part of the scanned text: walked byte by byte
	switch r.Kind() {
	case jsonjs.Object:
		ms, want := l.Members(nil, r), l.Members(nil, cp)
		Expect(ms).To(HaveLen(len(want)), "%s", r)
		for i, m := range ms {
			Expect(string(m.Key)).To(Equal(string(want[i].Key)))
			Expect(string(m.Value)).To(Equal(string(want[i].Value)))
			expectTapeWalk(l, m.Value)
		}
	case jsonjs.Array:
		items, want := l.Items(nil, r), l.Items(nil, cp)
		Expect(items).To(HaveLen(len(want)), "%s", r)
		for i, it := range items {
			Expect(string(it)).To(Equal(string(want[i])))
			expectTapeWalk(l, it)
		}
	}
}

// stringValues returns every string value inside r.
func stringValues(l *jsonjs.Lazy, r jsonjs.Raw) []jsonjs.Raw {
	switch r.Kind() {
	case jsonjs.String:
		return []jsonjs.Raw{r}
	case jsonjs.Array:
		var out []jsonjs.Raw
		for _, it := range l.Items(nil, r) {
			out = append(out, stringValues(l, it)...)
		}
		return out
	case jsonjs.Object:
		var out []jsonjs.Raw
		for _, m := range l.Members(nil, r) {
			out = append(out, stringValues(l, m.Value)...)
		}
		return out
	}
	return nil
}

var _ = Describe("the lazy mode's tape", func() {
	var l jsonjs.Lazy
	texts := []string{
		` { "a" : [ 1 , {"x":"}]\""} , [ ] , { } ] , "\u0062":1e400,"a":-0, "c" : "s p" , "d":{ } } `,
		`[[],[[]],{},{"":{"":[null,true,false]}},"\"",-1.5e-7,0]`,
		"{\"k\\u0041\":\t[\n1\r,\"é\"],\"k\":{\"a\":1,\"a\":2}}",
	}

	It("walks every container as a walk over a copy of its bytes does", func() {
		for _, text := range texts {
			Expect(l.Scan([]byte(text))).To(BeTrue(), text)
			expectTapeWalk(&l, l.Root())
		}
	})

	It("goes on after each pause (a number, an escaped string or key, a tape to grow) at every count of values", func() {
		// A fresh Lazy grows its tape at every power of two, and a reused
		// one keeps spans of the last text: each count puts a growth at
		// another kind of step (an element, a member), after another kind
		// of value.
		values := []string{`1.5`, `"x\ny"`, `-0`, `[true,{"\u0061":"é"}]`, `"plain"`, `{}`, `7`, `{"k\"":[[]],"b":null}`}
		var reused jsonjs.Lazy
		for m := 0; m <= 40; m++ {
			var items, members []string
			for k := 0; k < m; k++ {
				v := values[k%len(values)]
				items = append(items, v)
				members = append(members, fmt.Sprintf(`"k%d\t":%s`, k, v))
			}
			for _, text := range []string{"[" + strings.Join(items, ",") + "]", "{" + strings.Join(members, ",") + "}",
				`{"a":[` + strings.Join(items, ",") + `],"b":{` + strings.Join(members, ",") + `}}`} {
				var fresh jsonjs.Lazy
				for _, lz := range []*jsonjs.Lazy{&fresh, &reused} {
					Expect(lz.Scan([]byte(text))).To(BeTrue(), text)
					Expect(lz.UTF8()).To(BeTrue(), text)
					expectTapeWalk(lz, lz.Root())
					Expect(string(jsonjs.Marshal(lz.Tree(lz.Root())))).To(Equal(string(jsonjs.Marshal(mustParse(text)))))
				}
				for cut := range len(text) {
					Expect(fresh.Scan([]byte(text[:cut]))).To(BeFalse(), "%q", text[:cut])
				}
			}
		}
	})

	It("gives the root object's members, keys decoded and views capped at their end", func() {
		Expect(l.Scan([]byte(texts[2]))).To(BeTrue())
		top := l.Top()
		Expect(top).To(HaveLen(2))
		Expect(string(top[0].Key)).To(Equal("kA"))
		Expect(string(top[0].Value)).To(Equal("[\n1\r,\"é\"]"))
		Expect(string(top[1].Key)).To(Equal("k"))
		Expect(cap(top[1].Key)).To(Equal(1), "appending to a key must not write into the text")
		Expect(l.Scan([]byte(`[1]`))).To(BeTrue())
		Expect(l.Top()).To(BeEmpty())
	})

	It("is dropped by a refused text, so no Raw of it steps along the last text's tape", func() {
		Expect(l.Scan([]byte(`[[1,2,3],4]`))).To(BeTrue())
		bad := []byte(`x{"x":1}`) // {"x":1} sits where [1,2,3] was
		Expect(l.Scan(bad)).To(BeFalse())
		ms := l.Members(nil, jsonjs.Raw(bad[1:8]))
		Expect(ms).To(HaveLen(1))
		Expect(string(ms[0].Key)).To(Equal("x"))
		Expect(string(ms[0].Value)).To(Equal("1"))
	})

	It("tells a Raw of the text from a slice that is not one of its values", func() {
		text := []byte(`{"a":[1,[2]],"b":[3]}`)
		Expect(l.Scan(text)).To(BeTrue())
		Expect(l.Items(nil, jsonjs.Raw(text[5:12]))).To(HaveLen(2))
		Expect(l.Items(nil, jsonjs.Raw(text[8:11]))).To(HaveLen(1), "[2] is a value of the text")
		Expect(l.Items(nil, jsonjs.Raw(text[17:20]))).To(HaveLen(1))
		Expect(l.Members(nil, jsonjs.Raw(`{"q":1,"r":2}`))).To(HaveLen(2))
		Expect(l.Items(nil, jsonjs.Raw(`[}`))).To(HaveLen(1), "a broken Raw ends the walk")
	})
})

var _ = Describe("the lazy mode's integers", func() {
	It("end where Parse's do, for every length, alignment and next byte", func() {
		var l jsonjs.Lazy
		digits := "1234567890123456789012"
		for _, next := range []string{",", "]", " ", ".5", "e3", "E+3", "/", ":", "0", "9", "x", "\x80", "\xff", "-"} {
			for k := 1; k <= len(digits); k++ {
				for pad := 0; pad < 8; pad++ {
					text := "[" + strings.Repeat(" ", pad) + digits[:k] + next + "]"
					if next == "," {
						text = "[" + strings.Repeat(" ", pad) + digits[:k] + ",7]"
					}
					_, err := jsonjs.ParseReplacing([]byte(text))
					Expect(l.Scan([]byte(text))).To(Equal(err == nil), "%q", text)
					if err == nil {
						items := l.Items(nil, l.Root())
						lexeme := text[1+pad:]
						Expect(string(items[0])).To(Equal(lexeme[:strings.IndexAny(lexeme, ", ]")]), "%q", text)
						Expect(string(jsonjs.Marshal(l.Tree(l.Root())))).To(Equal(string(jsonjs.Marshal(mustParse(text)))), "%q", text)
					}
				}
			}
		}
	})
})

var _ = Describe("StrIs", func() {
	It("compares decoded strings, whatever the written length", func() {
		cases := []struct {
			raw, lit string
			want     bool
		}{
			{`"ab"`, "ab", true}, {`"ab"`, "abc", false}, {`"ab"`, "a", false}, {`"ab"`, "ba", false},
			{`"\u0041"`, "A", true}, {`"\u0041"`, "AAAAAA", false}, {`"\n"`, "\n", true}, {`"\n"`, "\\n", false},
			{`"\\"`, `\\`, false}, // the body's bytes, not its decoding
			{`"a\"b"`, `a"b`, true}, {`"\\"`, `\`, true}, {`""`, "", true}, {`1`, "1", false},
		}
		for _, c := range cases {
			Expect(jsonjs.Raw(c.raw).StrIs(c.lit)).To(Equal(c.want), "%s vs %q", c.raw, c.lit)
		}
	})
})
