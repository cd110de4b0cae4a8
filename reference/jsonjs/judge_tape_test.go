package jsonjs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// tapeRead and tapeRefused are values with what the tape's scanner
// pauses for (a number other than a plain integer, a string with an
// escape or a non-ASCII byte, space, keys) or refuses there (':' and '/'
// are the bytes either side of the digits); each is nested below enough
// arrays or objects to be read onto a tape.
var tapeRead = []string{
	`[-1.5e3, 0, -0, 12.25E-1, "a\"b", "é", "\ud83d\ude00", true, false, null]`,
	`{ "a" : [ 1 , { "\u0062" : "x\ny" } ] , "é" : -0.5 }`,
	"[ \t\n\r[ ] ,{ } , 7 ]",
}

var tapeRefused = []string{
	// numbers
	`[-]`, `[1.]`, `[1.e5]`, `[1e]`, `[1e+]`, `[-x]`, `[0.5,2.]`, `{"a":-}`, `{"a":1e-}`, `[01]`,
	// strings and keys
	`["\x"]`, `["a`, `["\u12"]`, "[\"a\x01\"]", `{"\q":1}`, `{"a`, `["é\"]`, `{"é`,
	// literals, structure
	`[tru]`, `[nul]`, `[falsy]`, `[:]`, `[:1]`, `{"a"::1}`, `[/]`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[1 2]`, `[`, `{"a":[}`, `[]]`,
}

// nest puts inner under n containers, arrays or objects of one member.
func nest(inner string, n int, objects bool) string {
	if objects {
		return strings.Repeat(`{"k": `, n) + inner + strings.Repeat("}", n)
	}
	return strings.Repeat("[ ", n) + inner + strings.Repeat("]", n)
}

// A text the tape's scanner refuses deep down is read by the tree, with
// its error (the byte and position), and one it reads gives the tree's
// value; Lazy, which shares the scanner, accepts what the tree does;
// whether the tape starts at the default depth or at the root (so the
// scanner is first called at the error's container or around it).
func TestJudgeTapeAndTreeAgreeDeepDown(t *testing.T) {
	for n, inner := range append(tapeRead, tapeRefused...) {
		for _, objects := range []bool{false, true} {
			text := nest(inner, jsonjs.DeepFrom()+2, objects)
			tree, terr := parseAt(text, 1<<30)
			var l jsonjs.Lazy
			if l.Scan([]byte(text)) != (terr == nil) {
				t.Errorf("%s: Scan says %v, the tree's error %v", inner, terr != nil, terr)
			}
			if refused := n >= len(tapeRead); (terr != nil) != refused {
				t.Fatalf("%s: the tree's error %v", inner, terr)
			}
			for _, from := range []int{jsonjs.DeepFrom(), 0, 1} {
				v, err := parseAt(text, from)
				if fmt.Sprint(err) != fmt.Sprint(terr) {
					t.Errorf("%s from depth %d: error %v, the tree's %v", inner, from, err, terr)
					continue
				}
				if err != nil {
					continue
				}
				if got, want := string(jsonjs.Marshal(v)), string(jsonjs.Marshal(tree)); got != want {
					t.Errorf("%s from depth %d: %s, the tree's %s", inner, from, got, want)
				}
				if !jsonjs.OnTape(deepAt(v, from)) {
					t.Errorf("%s from depth %d: not on a tape", inner, from)
				}
			}
		}
	}
}

// deepAt is the container from levels down the nesting of nest.
func deepAt(v jsonjs.Value, from int) jsonjs.Value {
	for range from {
		if items, ok := v.Items(); ok {
			v = items[0]
		} else {
			v, _ = v.Get("k")
		}
	}
	return v
}

// A text cut anywhere inside a deep value (a literal, number, string or
// key half written, a container left open) is refused by Lazy and by the
// tape as by the tree, with the tree's error.
func TestJudgeTapeRefusesCutTexts(t *testing.T) {
	for _, inner := range tapeRead {
		for _, objects := range []bool{false, true} {
			text := nest(inner, jsonjs.DeepFrom()+2, objects)
			start := strings.Index(text, inner)
			for k := start + 1; k < start+len(inner); k++ {
				cut := text[:k]
				_, terr := parseAt(cut, 1<<30)
				if terr == nil {
					t.Fatalf("%s: the tree accepts it", cut[start:])
				}
				var l jsonjs.Lazy
				if l.Scan([]byte(cut)) {
					t.Errorf("%s: Scan accepts it", cut[start:])
				}
				for _, from := range []int{jsonjs.DeepFrom(), 0} {
					if _, err := parseAt(cut, from); fmt.Sprint(err) != fmt.Sprint(terr) {
						t.Errorf("%s from depth %d: error %v, the tree's %v", cut[start:], from, err, terr)
					}
				}
			}
		}
	}
}
