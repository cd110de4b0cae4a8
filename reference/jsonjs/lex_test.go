package jsonjs_test

import (
	"math"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// stopBytes are the bytes that end a string's plain run: the scanner reads
// 8 bytes at a time, so each is tried at every position of a 16-byte body
// (two words and both word halves), raw and escaped.
var stopBytes = func() []byte {
	var out []byte
	for c := 0; c < 0x20; c++ {
		out = append(out, byte(c))
	}
	return append(out, '"', '\\')
}()

// withByte returns a 16-byte body of 'a' with c at position i.
func withByte(i int, c byte) string {
	b := []byte(strings.Repeat("a", 16))
	b[i] = c
	return string(b)
}

var _ = Describe("the string byte classes at every position of a 16-byte string", func() {
	It("refuses a raw control, ends at a raw quote, and needs a valid escape after a backslash", func() {
		for _, c := range stopBytes {
			for i := 0; i < 16; i++ {
				text := `"` + withByte(i, c) + `"`
				_, err := jsonjs.Parse([]byte(text))
				Expect(err).To(HaveOccurred(), "byte %#x at %d", c, i)
				var want string
				switch c {
				case '"':
					want = "after the JSON value"
				case '\\':
					want = `invalid escape '\a'`
					if i == 15 {
						want = "unterminated string" // it escapes the closing quote
					}
				default:
					want = "control character"
				}
				Expect(err.Error()).To(ContainSubstring(want), "byte %#x at %d", c, i)
			}
		}
	})

	It("reads each of them escaped at every position", func() {
		for _, c := range stopBytes {
			esc := string(jsonjs.AppendString(nil, string([]byte{c})))
			esc = esc[1 : len(esc)-1]
			for i := 0; i < 16; i++ {
				body := withByte(i, 'a')
				text := `"` + body[:i] + esc + body[i+1:] + `"`
				v, err := jsonjs.Parse([]byte(text))
				Expect(err).NotTo(HaveOccurred(), "%q", text)
				s, _ := v.Str()
				Expect(s).To(Equal(withByte(i, c)), "%q", text)
			}
		}
	})

	It("lets every other byte through at every position", func() {
		for c := 0x20; c < 0x80; c++ {
			if c == '"' || c == '\\' {
				continue
			}
			for i := 0; i < 16; i++ {
				v, err := jsonjs.Parse([]byte(`"` + withByte(i, byte(c)) + `"`))
				Expect(err).NotTo(HaveOccurred(), "byte %#x at %d", c, i)
				s, _ := v.Str()
				Expect(s).To(Equal(withByte(i, byte(c))))
			}
		}
	})
})

var _ = Describe("number lexemes", func() {
	DescribeTable("Lexeme keeps the source text; Float is JSON.parse's double",
		func(text string, want float64) {
			v := mustParse(`[` + text + `]`)
			items, _ := v.Items()
			lex, ok := items[0].Lexeme()
			Expect(ok).To(BeTrue())
			Expect(lex).To(Equal(text))
			f, _ := items[0].Float()
			Expect(f).To(Equal(want))
			s, ok := items[0].Str()
			Expect(ok).To(BeFalse())
			Expect(s).To(BeEmpty())
		},
		Entry("an integer-valued exponent", "1e2", 100.0),
		Entry("a trailing zero fraction", "2.0", 2.0),
		Entry("an unsafe integer", "9007199254740993", 9007199254740992.0),
		Entry("negative zero", "-0", 0.0),
		Entry("overflow", "1e400", math.Inf(1)),
	)

	It("has no lexeme for built numbers or other kinds", func() {
		_, ok := jsonjs.NumberValue(1).Lexeme()
		Expect(ok).To(BeFalse())
		_, ok = mustParse(`"1"`).Lexeme()
		Expect(ok).To(BeFalse())
	})
})

var _ = Describe("the lazy mode on the same byte classes", func() {
	var l jsonjs.Lazy

	It("refuses a raw control, a raw quote and a bad escape at every position, as Parse does", func() {
		for _, c := range stopBytes {
			for i := 0; i < 16; i++ {
				for _, text := range []string{`"` + withByte(i, c) + `"`, `{"k":"` + withByte(i, c) + `"}`, `["` + withByte(i, c) + `",1]`} {
					Expect(l.Scan([]byte(text))).To(BeFalse(), "byte %#x at %d in %q", c, i, text)
				}
			}
		}
	})

	It("reads each of them escaped at every position, in keys and values", func() {
		for _, c := range stopBytes {
			esc := string(jsonjs.AppendString(nil, string([]byte{c})))
			body := strings.Repeat("a", 16)
			for i := 0; i < 16; i++ {
				q := `"` + body[:i] + esc[1:len(esc)-1] + body[i+1:] + `"`
				text := `{` + q + `:[` + q + `]}`
				Expect(l.Scan([]byte(text))).To(BeTrue(), "%q", text)
				Expect(l.UTF8()).To(BeTrue())
				top := l.Top()
				Expect(top).To(HaveLen(1))
				Expect(string(top[0].Key)).To(Equal(withByte(i, c)))
				items := l.Items(nil, top[0].Value)
				Expect(items).To(HaveLen(1))
				s, ok := items[0].Str()
				Expect(ok).To(BeTrue())
				Expect(s).To(Equal(withByte(i, c)))
				Expect(items[0].StrIs(withByte(i, c))).To(BeTrue())
			}
		}
	})

	It("notices invalid UTF-8 at every position and accepts valid non-ASCII", func() {
		for i := 0; i < 16; i++ {
			Expect(l.Scan([]byte(`"` + withByte(i, 0xFF) + `"`))).To(BeTrue())
			Expect(l.UTF8()).To(BeFalse(), "0xFF at %d", i)
			_, ok := l.Root().Str()
			Expect(ok).To(BeFalse())
			s, ok := l.Root().StrReplacing()
			Expect(ok).To(BeTrue())
			Expect(s).To(Equal(strings.Replace(withByte(i, 'x'), "x", "\uFFFD", 1)))

			text := `"` + strings.Repeat("a", i) + "é" + strings.Repeat("a", 15-i) + `"`
			Expect(l.Scan([]byte(text))).To(BeTrue())
			Expect(l.UTF8()).To(BeTrue(), "é at %d", i)
		}
	})

	It("scans and walks 100,000-deep values", func() {
		const depth = 100000
		text := []byte(strings.Repeat(`{"k":[`, depth) + "1" + strings.Repeat("]}", depth))
		Expect(l.Scan(text)).To(BeTrue())
		r := l.Root()
		for n := 0; n < depth; n++ {
			ms := l.Members(nil, r)
			Expect(ms).To(HaveLen(1))
			items := l.Items(nil, ms[0].Value)
			Expect(items).To(HaveLen(1))
			r = items[0]
		}
		f, ok := r.Float()
		Expect(ok).To(BeTrue())
		Expect(f).To(Equal(1.0))
	})
})

var _ = Describe("the lazy mode's reused trees", func() {
	It("builds Parse's tree, small or past the reused blocks, and leaves Value's trees alone", func() {
		var l jsonjs.Lazy
		big := "[" + strings.Repeat(`{"a":[1,"x"],"b":{"c":null}},`, 3000) + `{"a":{"a":1,"a":2}}]`
		kept := map[string]jsonjs.Value{}
		for _, text := range []string{`{"shape":"paths","paths":["a","b"],"total":2}`, big, `{"a":{"b":[[],{}]},"a":[3]}`, `[1]`} {
			Expect(l.Scan([]byte(text))).To(BeTrue())
			kept[text] = l.Value(l.Root())
			for range 2 {
				Expect(string(jsonjs.Marshal(l.Tree(l.Root())))).To(Equal(string(jsonjs.Marshal(mustParse(text)))))
			}
		}
		for text, v := range kept {
			Expect(string(jsonjs.Marshal(v))).To(Equal(string(jsonjs.Marshal(mustParse(text)))))
		}
	})
})
