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

// FuzzLazy (the successor of logcheck's FuzzScanner) checks the lazy mode
// against Parse: Scan accepts exactly what ParseReplacing accepts, UTF8
// says whether Parse does too, the tape gives every container's members
// and items (as a walk over a copy does), and the root's Value and Tree
// and, for a string, Str and Lazy.Str equal Parse's answer.
func FuzzLazy(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `""`, `0`, `-0`, `1e400`, `-1.5E-7`, `true`, `null`, ` {"a" : [1, 2, {"b": null}] } `,
		`{"a":1,"a":2,"b":{"a":3}}`, `"\ud800\udc00 \ud800 \udc00x \u00e9\n\t\"\\\/\b\f\r"`,
		`[1,`, `{"a"}`, `"\x"`, "\"\x01\"", "\"aaaaaaa\taaaaaaaa\"", `01`, `1.`, `-`, `{"a":1,}`, `[1 2]`, "\xff",
		"\"\xE2\x82A\"", `"\u12"`, `tru`, `{"\ud800":1}`, `[[[[[[[[[[]]]]]]]]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var l jsonjs.Lazy
		ok := l.Scan(data)
		repl, errR := jsonjs.ParseReplacing(data)
		if ok != (errR == nil) {
			t.Fatalf("Scan says %v, ParseReplacing says %v for %q", ok, errR, data)
		}
		if !ok {
			return
		}
		want, err := jsonjs.Parse(data)
		if l.UTF8() != (err == nil) {
			t.Fatalf("UTF8 says %v, Parse says %v for %q", l.UTF8(), err, data)
		}
		root := l.Root()
		if !l.UTF8() {
			if got := jsonjs.Marshal(root.ValueReplacing()); !bytes.Equal(got, jsonjs.Marshal(repl)) {
				t.Fatalf("ValueReplacing %s, ParseReplacing %s", got, jsonjs.Marshal(repl))
			}
			return
		}
		if got, w := jsonjs.Marshal(root.Value()), jsonjs.Marshal(want); !bytes.Equal(got, w) {
			t.Fatalf("Value %s, Parse %s", got, w)
		}
		if got, w := jsonjs.Marshal(l.Tree(root)), jsonjs.Marshal(want); !bytes.Equal(got, w) {
			t.Fatalf("Tree %s, Parse %s", got, w)
		}
		checkLazyTree(t, &l, root, want)
	})
}

// checkLazyTree walks r with Members and Items alongside Parse's value v.
func checkLazyTree(t *testing.T, l *jsonjs.Lazy, r jsonjs.Raw, v jsonjs.Value) {
	t.Helper()
	if r.Kind() != v.Kind() {
		t.Fatalf("kind %v, Parse %v for %q", r.Kind(), v.Kind(), r)
	}
	switch r.Kind() {
	case jsonjs.String:
		s, _ := r.Str()
		ls, ok := l.Str(r)
		if w, _ := v.Str(); s != w || ls != w || !ok || !r.StrIs(w) || r.StrIs(w+"\\") {
			t.Fatalf("Str %q, Lazy.Str %q, Parse %q", s, ls, w)
		}
	case jsonjs.Number:
		f, _ := r.Float()
		if w, _ := v.Float(); f != w && !(f != f && w != w) {
			t.Fatalf("Float %v, Parse %v", f, w)
		}
	case jsonjs.Array:
		items := l.Items(nil, r)
		want, _ := v.Items()
		if len(items) != len(want) || len(l.Items(nil, jsonjs.Raw(string(r)))) != len(want) {
			t.Fatalf("%d items (of a copy %d), Parse %d in %q", len(items), len(l.Items(nil, jsonjs.Raw(string(r)))), len(want), r)
		}
		for i := range items {
			checkLazyTree(t, l, items[i], want[i])
		}
	case jsonjs.Object:
		ms := l.Members(nil, r)
		// A copy is not part of the text: walked byte by byte.
		if cp := l.Members(nil, jsonjs.Raw(string(r))); len(cp) != len(ms) {
			t.Fatalf("%d members, of a copy %d in %q", len(ms), len(cp), r)
		}
		for _, m := range ms {
			w, ok := v.Get(string(m.Key))
			if !ok {
				t.Fatalf("member %q missing from Parse", m.Key)
			}
			if m.Value.Kind() != w.Kind() {
				// An earlier duplicate: Parse keeps the last value.
				continue
			}
			if jsonjs.Equal(m.Value.Value(), w) {
				checkLazyTree(t, l, m.Value, w)
			}
		}
	}
}
