package codemode_test

import (
	"strings"
	"testing"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// fuzzRenderSeeds are values of code-mode.md §4: the depth boundary of the
// capped layout, key order, string escapes, numbers.
var fuzzRenderSeeds = []string{
	`null`, `42`, `true`, `{}`, `[]`, `"text"`, `""`,
	`{"n":42,"ok":true}`, `["x",2]`,
	`{"a":{"b":{"c":{"d":{"e":1}}}}}`,
	`{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}}}`,
	`[[[[[[[1,2],[3]]]]]]]`,
	`{"a":{"b":{"c":{"d":[1,{"e":2}]}}}}`,
	`{"l0":{"l1":{"l2":{"l3":{"l4":{"l5":{"l6":"x"},"k":[1,[2,[3]]]},"m":[]},"n":{}}}}}`,
	`[[[[[[],{},[[]]]]]]]`,
	`{"s":"a\"b\\c\n\t\u0001\u001f\u007f\u2028\u2029<>&é😀\ud800 \udc00x","k":"\b\f\r"}`,
	`{"b":1,"2":2,"a":3,"1":4,"4294967295":5,"4294967294":6,"01":7,"-1":8,"1.5":9,"0":10,"10":11,"9":12}`,
	`{"a":1,"b":2,"a":3}`, `{"__proto__":1,"x":2}`,
	`[0.1,1e21,1e-7,5e-324,123456789012345680000,1.7976931348623157e308,-0,1e400]`,
}

// lossless reports CODE-LOSSLESS-1: every number finite and not -0.
func lossless(v jsonjs.Value) bool {
	return codemode.IsLossless(v)
}

// FuzzRenderValue feeds arbitrary bytes through jsonjs.Parse into
// RenderValue: it never panics; a string renders as itself (CODE-JSON-1);
// any other lossless value renders to JSON that parses back to an equal
// value with indentation of at most 10 spaces (CODE-JSON-2). Values holding
// -0 or non-finite numbers never reach the renderer (CODE-LOSSLESS-1) and
// are only required not to panic.
func FuzzRenderValue(f *testing.F) {
	for _, s := range fuzzRenderSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonjs.Parse(data)
		if err != nil {
			return
		}
		r := codemode.RenderValue(v)
		if s, ok := v.Str(); ok {
			if r != s {
				t.Fatalf("string rendered as %q, want %q", r, s)
			}
			return
		}
		if !lossless(v) {
			return
		}
		back, err := jsonjs.Parse([]byte(r))
		if err != nil {
			t.Fatalf("rendering does not parse: %v\n%s", err, r)
		}
		if d := jsonjs.FirstDifference(back, v); d != "" {
			t.Fatalf("round trip differs at %s:\n%s", d, r)
		}
		for _, line := range strings.Split(r, "\n") {
			if n := len(line) - len(strings.TrimLeft(line, " ")); n > 10 {
				t.Fatalf("indentation %d > 10:\n%s", n, r)
			}
		}
	})
}
