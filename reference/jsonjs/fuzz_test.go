package jsonjs_test

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// survives JSON.stringify / JSON.parse: Marshal(Parse(x)) parses again to a
// value Equal to Parse(x) (with ±Infinity read back as null, as in JS).
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"b":1,"2":2,"a":3,"1":4,"4294967295":5,"01":7,"-1":8,"1.5":9,"0":10}`,
		`{"s":"a\"b\\c\n\t\u0001\u001f\u007f\u2028\u2029<>&é😀\ud800 \udc00x","k":"\b\f\r"}`,
		`[1e400,-0,0.1,5e-324,1.7976931348623157e308,123456789012345680000]`,
		`{"a":1,"b":2,"a":3}`,
		`"\ud83d\ude00\udc00\ud800"`,
		"[[[[[[[[[[]]]]]]]]]]",
		" \t\n\r{ \"x\" : [ true , false , null ] } ",
		"\"\xE2\x82A\xFF\xED\xA0\x80\"",
		`[1,]`,
		`01`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonjs.Parse(data)
		if err != nil {
			var se *jsonjs.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) error %T is not a *SyntaxError", data, err)
			}
			if se.Line < 1 || se.Column < 1 || se.Offset < 0 {
				t.Fatalf("Parse(%q): bad position %+v", data, se)
			}
			return
		}
		text := jsonjs.Marshal(v)
		if !utf8.Valid(text) {
			t.Fatalf("Marshal(Parse(%q)) = %q is not UTF-8", data, text)
		}
		if n := jsonjs.Size(v); n != len(text) {
			t.Fatalf("Size = %d, len(Marshal) = %d for %q", n, len(text), data)
		}
		back, err := jsonjs.Parse(text)
		if err != nil {
			t.Fatalf("Parse(Marshal(Parse(%q))) = Parse(%q): %v", data, text, err)
		}
		want := jsRoundTrip(v)
		if d := jsonjs.FirstDifference(want, back); d != "" {
			t.Fatalf("round trip of %q differs at %s: %q", data, d, text)
		}
		if again := jsonjs.Marshal(back); !bytes.Equal(again, text) {
			t.Fatalf("Marshal not stable for %q: %q vs %q", data, text, again)
		}
	})
}
