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
