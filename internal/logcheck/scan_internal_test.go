package logcheck

import (
	"testing"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// FuzzScanner checks the fast JSON path against jsonjs.Parse (JSON.parse
// semantics): the validator accepts exactly what jsonjs.Parse accepts, and
// for accepted UTF-8 text the values built from the validated spans (copied
// or line-sharing) serialize to exactly the bytes of jsonjs.Parse's value,
// so they are equal with the same member order, numbers and strings (lone
// surrogates included). The tape must give every container's end.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `""`, `0`, `-0`, `1e400`, `-1.5E-7`, `true`, `null`, ` {"a" : [1, 2, {"b": null}] } `,
		`{"a":1,"a":2,"b":{"a":3}}`, `"\ud800\udc00 \ud800 \udc00x \u00e9\n\t\"\\\/\b\f\r"`,
		`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}`,
		`[1,`, `{"a"}`, `"\x"`, "\"\x01\"", `01`, `1.`, `-`, `{"a":1,}`, `[1 2]`, "\xff", `"\u12"`, `tru`, `{"\ud800":1}`,
		`{"2":1,"1":2,"b":3}`, `[[[[[[[[[[]]]]]]]]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v validator
		ok := v.validate(data)
		want, err := jsonjs.Parse(data)
		if ok != (err == nil) {
			t.Fatalf("validator says %v, jsonjs.Parse says %v for %q", ok, err, data)
		}
		if !ok || !utf8.Valid(data) {
			return
		}
		c := newChecker("f", Defaults(), nil)
		c.v = v
		c.validUTF8 = true
		start := skipWS(data, 0)
		r := raw(data[start:])
		for i := range r {
			if r[i] == '{' || r[i] == '[' {
				if e := c.tape().end(r, i); e >= 0 && e != skipValue(r, i, nil) {
					t.Fatalf("tape end %d, scan end %d at %d in %q", e, skipValue(r, i, nil), i, data)
				}
			}
		}
		// Trailing whitespace is not part of the value span.
		end := len(data)
		for end > start && isWS(data[end-1]) {
			end--
		}
		r = raw(data[start:end])
		wantJSON := string(jsonjs.Marshal(want))
		if got := string(jsonjs.Marshal(c.value(r, 0))); got != wantJSON {
			t.Fatalf("value: %s, jsonjs.Parse: %s", got, wantJSON)
		}
		if got := string(jsonjs.Marshal(c.lineValue(r))); got != wantJSON {
			t.Fatalf("lineValue: %s, jsonjs.Parse: %s", got, wantJSON)
		}
		if !jsonjs.Equal(c.value(r, 0), want) {
			t.Fatalf("value differs from jsonjs.Parse for %q", data)
		}
		if r.kind() == jsonjs.String {
			s, _ := r.str(true)
			ws, _ := want.Str()
			if s != ws {
				t.Fatalf("str %q, jsonjs %q", s, ws)
			}
		}
		if hashValue(c.value(r, 0)) != hashValue(want) {
			t.Fatalf("hash differs for %q", data)
		}
	})
}
