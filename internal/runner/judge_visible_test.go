package runner_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/runner"
)

// Visible's doc comment, case by case: backslash, LF, CR and tab escaped,
// other control characters and U+0085, U+00A0, U+2028, U+2029, U+FEFF as
// \uXXXX, a lone surrogate (WTF-8: ED A0..BF 80..BF) as \uDXXX, a byte
// that is not UTF-8 as \xHH (whatever its value: 80, FF, or an ED lead
// the text ends before it is complete), and spaces at the end of a line or
// of the text as \u0020.
func TestJudgeVisibleCases(t *testing.T) {
	for in, want := range map[string]string{
		`a\b`:                            `a\\b`,
		"a\nb\r\tc":                      `a\nb\r\tc`,
		"\x00\x1f\x7f":                   `\u0000\u001F\u007F`,
		"\x80":                           `\x80`,
		"\xff":                           `\xFF`,
		"a\x80b":                         `a\x80b`,
		"\xed\xa0\x80":                   `\uD800`,
		"\xed\xbf\xbf":                   `\uDFFF`,
		"a\xed\xa0":                      `a\xED\xA0`,
		"a\xed":                          `a\xED`,
		"\xed\xa0":                       `\xED\xA0`,
		"\xed\xa0A":                      `\xED\xA0A`,
		"\xed\x80\x80":                   "\ud000", // ED 80..9F: a character below the surrogates
		"\xed\x9f\xbf":                   "\ud7ff",
		"a\ufffdb":                       `a\uFFFDb`,                 // a U+FFFD the text holds, whole
		"\u0081\u200b\u1680\u3000":       `\u0081\u200B\u1680\u3000`, // a C1 control, a format character, two spaces
		"\u0085\u00a0\u2028\u2029\ufeff": `\u0085\u00A0\u2028\u2029\uFEFF`,
		"é€😀":                            "é€😀",
		"a b":                            "a b",
		"a ":                             `a\u0020`,
		"a  \nb \r":                      `a\u0020\u0020\nb\u0020\r`,
		" ":                              `\u0020`,
		"~":                              "~",
	} {
		if got := runner.Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// Whatever the bytes, Visible's text is UTF-8 with no control character
// and no blank but inner spaces: what it shows can be read (and it never
// indexes past its text).
func TestJudgeVisibleOfAnyBytes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := string(rapid.SliceOfN(rapid.SampledFrom([]byte{'a', ' ', '\n', 0x01, 0x7f, 0x80, 0xa0, 0xbf, 0xc3, 0xed, 0xe2, 0xff}), 0, 12).Draw(t, "bytes"))
		got := runner.Visible(in)
		if !utf8.ValidString(got) {
			t.Fatalf("Visible(%q) = %q: not UTF-8", in, got)
		}
		for _, r := range got {
			if r != ' ' && (unicode.IsControl(r) || unicode.IsSpace(r) || r == utf8.RuneError) {
				t.Fatalf("Visible(%q) = %q holds %U", in, got, r)
			}
		}
		if strings.HasSuffix(got, " ") {
			t.Fatalf("Visible(%q) = %q ends in a space", in, got)
		}
	})
}
