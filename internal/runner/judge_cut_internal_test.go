package runner

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// cutPieces are the pieces drawn texts are made of: ASCII, two-, three-
// and four-byte characters, a lone surrogate (WTF-8), a byte that is not
// UTF-8 at all (a continuation byte alone), newlines and spaces.
var cutPieces = []string{"x", "é", "€", "😀", "\xed\xa0\x80", "\x80", "\n", " "}

func drawCutText(t *rapid.T, label string) string {
	n := rapid.IntRange(0, 90).Draw(t, label+"-n")
	var b strings.Builder
	for range n {
		b.WriteString(rapid.SampledFrom(cutPieces).Draw(t, label))
	}
	if rapid.IntRange(0, 4).Draw(t, label+"-bad") == 0 {
		// A run of bytes that are not UTF-8 long enough to span a cut.
		return strings.Repeat("\x80", rapid.IntRange(0, 400).Draw(t, label+"-badn")) + b.String()
	}
	return b.String()
}

// pieceStart is the plain model of a code point boundary: the ends of s,
// or a byte that is not a UTF-8 continuation byte (10xxxxxx).
func pieceStart(s string, i int) bool {
	return i <= 0 || i >= len(s) || s[i]&0xC0 != 0x80
}

// lastStartAtOrBefore is the largest i <= n that is a code point boundary
// of s (0 at worst).
func lastStartAtOrBefore(s string, n int) int {
	for i := n; i > 0; i-- {
		if pieceStart(s, i) {
			return i
		}
	}
	return 0
}

// excerptText cuts a text over excerptBytes at the last code point
// boundary at or before excerptBytes, shows it made visible (its spaces
// before the cut are no trailing ones: the text goes on) and marks the cut;
// a text that fits is shown whole (compare.go 362-371). Besides the drawn
// text, its prefixes of exactly excerptBytes and one more bytes (padded
// as needed): a random length seldom lands on the boundary.
func TestJudgeExcerptTextCut(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		drawn := drawCutText(t, "text")
		padded := drawn + strings.Repeat("x", max(0, excerptBytes+1-len(drawn)))
		for _, s := range []string{drawn, padded[:excerptBytes], padded[:excerptBytes+1]} {
			want := visible(s)
			if len(s) > excerptBytes {
				want = visibleAt(s[:lastStartAtOrBefore(s, excerptBytes)], false) + "…"
			}
			if got := excerptText(s); got != want {
				t.Fatalf("excerptText(%q) = %q, want %q", s, got, want)
			}
		}
	})
}

// oneLine writes each LF as `\n` and cuts what is then over n bytes at the
// last code point boundary at or before n, marked "…" (compare.go 374-383).
// Besides the drawn n, the flat text's own length and one less: a random n
// seldom lands on the boundary.
func TestJudgeOneLineCut(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawCutText(t, "text")
		flat := strings.ReplaceAll(s, "\n", `\n`)
		for _, n := range []int{rapid.IntRange(0, 300).Draw(t, "n"), len(flat), max(0, len(flat)-1)} {
			want := flat
			if len(flat) > n {
				want = flat[:lastStartAtOrBefore(flat, n)] + "…"
			}
			got := oneLine(s, n)
			if got != want {
				t.Fatalf("oneLine(%q, %d) = %q, want %q", s, n, got, want)
			}
			if strings.Contains(got, "\n") {
				t.Fatalf("oneLine(%q, %d) holds a newline", s, n)
			}
		}
	})
}

// Excerpt shows s from contextBytes before at to contextBytes after it,
// each end moved out to a code point boundary (never past the text),
// marked "…" where the text goes on and "⟨end⟩" where it ends, made
// visible (compare.go 454-477).
func TestJudgeExcerptAround(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := drawCutText(t, "text")
		at := rapid.IntRange(0, len(s)).Draw(t, "at")
		if rapid.Bool().Draw(t, "nearAnEnd") {
			// at where a context reaches one of the text's ends, or just
			// misses it: the first bytes and the last ones.
			near := []int{contextBytes - 1, contextBytes, contextBytes + 1, contextBytes + 2,
				len(s) - contextBytes - 1, len(s) - contextBytes, len(s) - contextBytes + 1}
			at = min(len(s), max(0, rapid.SampledFrom(near).Draw(t, "near")))
		}
		start := lastStartAtOrBefore(s, max(0, at-contextBytes))
		end := min(len(s), at+contextBytes)
		for !pieceStart(s, end) {
			end++
		}
		want := visibleAt(s[start:end], end == len(s))
		if start > 0 {
			want = "…" + want
		}
		if end < len(s) {
			want += "…"
		} else {
			want += "⟨end⟩"
		}
		if got := Excerpt(s, at); got != want {
			t.Fatalf("Excerpt(%q, %d) = %q, want %q", s, at, got, want)
		}
	})
}
