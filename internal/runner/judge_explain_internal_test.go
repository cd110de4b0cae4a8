package runner

import (
	"slices"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A string's one-step simplifications (explain.go simpler, docs/diagnosis.md
// "Minimization"): the empty string, the second half and the first half
// (cut at the middle character), and the string without each of its first
// 16 characters; cuts fall on character boundaries, so each is as valid
// UTF-8 as the string. A plain model on the string's runes.
func TestJudgeExplainStringCandidates(t *testing.T) {
	chars := []rune{'a', 'b', 'é', '日', '😀', ' ', '\n', 'ÿ'}
	rapid.Check(t, func(t *rapid.T) {
		rs := rapid.SliceOfN(rapid.SampledFrom(chars), 0, 40).Draw(t, "runes")
		s := string(rs)
		var want []string
		if n := len(rs); n > 0 {
			want = append(want, "")
			if n > 1 {
				want = append(want, string(rs[n/2:]), string(rs[:n/2]))
				for j := 0; j < n && j < 16; j++ {
					want = append(want, string(slices.Concat(rs[:j:j], rs[j+1:])))
				}
			}
		}
		var got []string
		for _, f := range simpler(jsonjs.StringValue(s)) {
			c, ok := f().Str()
			if !ok {
				t.Fatalf("a candidate of %q is no string", s)
			}
			if !utf8.ValidString(c) {
				t.Fatalf("candidate %q of %q is cut inside a character", c, s)
			}
			got = append(got, c)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("simpler(%q) = %q, want %q", s, got, want)
		}
	})
}
