package logcheck

import (
	"strconv"
	"strings"
	"testing"
)

// Issue 22: survivors of the judge's run in structure.go's unexported
// helpers (docs/mutation.md "The judge").

// keysFine keeps the required keys seen in a 64-bit set: it answers for up
// to 64 required keys, and beyond that it gives up (false), so keySet
// still reports through the general walk. Either way keySet reports a
// missing key and only a missing key.
func TestJudgeKeysFineWidth(t *testing.T) {
	for _, n := range []int{63, 64, 65, 70} {
		required := make([]string, n)
		all := make([]member, n)
		for i := range required {
			required[i] = "k" + strconv.Itoa(i)
			// The members in reverse order: no positional hit.
			all[n-1-i] = member{Key: []byte(required[i])}
		}
		// Every member present.
		var p problems
		keySet(all, required, nil, &p, "data")
		if len(p) != 0 {
			t.Fatalf("%d keys all present: %q", n, p)
		}
		if fine := keysFine(all, required, nil); fine != (n <= 64) {
			t.Fatalf("%d keys all present: keysFine %v, want %v", n, fine, n <= 64)
		}
		// Each one missing in turn (the first, the 64th and the last).
		for _, gone := range []int{0, 63, n - 1} {
			if gone >= n {
				continue
			}
			ms := make([]member, 0, n-1)
			for _, m := range all {
				if string(m.Key) != required[gone] {
					ms = append(ms, m)
				}
			}
			if keysFine(ms, required, nil) {
				t.Fatalf("%d keys, %s missing: keysFine says fine", n, required[gone])
			}
			var p problems
			keySet(ms, required, nil, &p, "data")
			if want := "data lacks " + required[gone]; p.String() != want {
				t.Fatalf("%d keys, %s missing: %q, want %q", n, required[gone], p, want)
			}
		}
	}
}

// clip cuts a long value at a character boundary at or before byte 40.
func TestJudgeClipCutsAtARuneStart(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// '€' is 3 bytes: bytes 39..41; byte 40 is inside it, so the cut is at 39.
		{`"` + strings.Repeat("a", 38) + "€" + `bc"`, `"` + strings.Repeat("a", 38) + "…"},
		// '€' at bytes 38..40: byte 40 is its last byte.
		{`"` + strings.Repeat("a", 37) + "€" + `bc"`, `"` + strings.Repeat("a", 37) + "…"},
		// '€' at bytes 40..42: the cut is at 40, before it.
		{`"` + strings.Repeat("a", 39) + "€" + `bc"`, `"` + strings.Repeat("a", 39) + "…"},
		// Exactly 40 bytes: whole, no mark.
		{`"` + strings.Repeat("a", 38) + `"`, `"` + strings.Repeat("a", 38) + `"`},
		// 41 bytes: cut to 40, the 40 bytes before byte 40.
		{`"` + strings.Repeat("a", 39) + `"`, `"` + strings.Repeat("a", 39) + "…"},
		// No rune starts after the quote: the only boundary left is 0.
		{`"` + strings.Repeat("\x80", 45) + `"`, "…"},
		// A rune start at 1, then none: the cut is at 1.
		{`"` + "\xe2" + strings.Repeat("\x80", 45) + `"`, `"…`},
		// Invalid UTF-8 in what is kept is replaced.
		{"\"a\xffb\"", "\"a\uFFFDb\""},
		{`"` + strings.Repeat("a", 30) + "\xff" + strings.Repeat("b", 20) + `"`, `"` + strings.Repeat("a", 30) + "\uFFFD" + strings.Repeat("b", 8) + "…"},
	} {
		if got := clip(raw(c.in)); got != c.want {
			t.Errorf("clip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
