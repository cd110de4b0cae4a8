package jsonjs_test

import (
	"testing"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Field.Int reads an integer as JSON.parse does, below 2^63 in magnitude
// (the judge's full run found no test reaching it).
func TestJudgeFieldInt(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
		ok   bool
	}{
		{"0", 0, true}, {"1", 1, true}, {"-7", -7, true}, {"1e2", 100, true}, {"2.0", 2, true},
		{"9007199254740993", 9007199254740992, true},
		{"-9223372036854774784", -9223372036854774784, true}, // the double below 2^63
		{"9223372036854775808", 0, false},                    // 2^63
		{"-9223372036854775808", 0, false},
		{"1e300", 0, false}, {"1.5", 0, false}, {`"1"`, 0, false}, {"null", 0, false}, {"true", 0, false},
	} {
		v, err := jsonjs.Parse([]byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		got, err := jsonjs.Root(v).Int()
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%s: got %d, %v; want %d, ok %v", c.text, got, err, c.want, c.ok)
		}
	}
}

// FirstInvalidWTF8 names the first byte that starts no UTF-8 or lone
// surrogate sequence, with the continuation bytes after it (at most four
// bytes), and is ok=false only when there is none: a harness message with
// a bad byte is never read as clean.
func TestJudgeFirstInvalidWTF8(t *testing.T) {
	for _, c := range []struct {
		s   string
		off int
		bad string
		ok  bool
	}{
		{"", 0, "", false},
		{"abc", 0, "", false},
		{"é€😀", 0, "", false},
		{"a\xed\xa0\x80b", 0, "", false}, // a lone surrogate is WTF-8
		{"\xff", 0, "\xff", true},
		{"a\xffb", 1, "\xff", true},
		{"ab\xe2\x82", 2, "\xe2\x82", true}, // cut short at the end
		{"é\xc3", 2, "\xc3", true},
		{"x\x80\x80\x80\x80\x80", 1, "\x80\x80\x80\x80", true},
		{"\xc0\xaf", 0, "\xc0\xaf", true}, // an overlong form
		{"\xed\xa0\x80", 0, "", false},    // a lone surrogate at the end
		{"\xed\xbf\xbf", 0, "", false},    // the last trail surrogate
		{"\xed\xa0\xbf", 0, "", false},
		{"a\uFFFDb", 0, "", false},        // U+FFFD itself is UTF-8
		{"\xed\x41\x80", 0, "\xed", true}, // not a surrogate's second byte
		{"\xff\xc0", 0, "\xff", true},     // 0xC0 continues nothing
	} {
		off, bad, ok := jsonjs.FirstInvalidWTF8(c.s)
		if off != c.off || string(bad) != c.bad || ok != c.ok {
			t.Errorf("%q: got %d %q %v, want %d %q %v", c.s, off, bad, ok, c.off, c.bad, c.ok)
		}
	}
}
