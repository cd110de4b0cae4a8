package runner

import (
	"math"
	"slices"
	"testing"
	"time"
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

// A number's one-step simplifications are 0, 1, the number truncated and
// half of it truncated, each kept only where it is strictly simpler (an
// integer where the number is none, or smaller in magnitude) and new, in
// that order: two failing numbers never alternate.
func TestJudgeExplainNumberCandidates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.SampledFrom([]float64{0, 1, -1, 0.5, -0.5, 1.5, 2, 3, -3, 7.25, -7.25, 100, 1e300, -2.5, 0.25, 4}).Draw(t, "n")
		isInt := func(x float64) bool { return x == math.Trunc(x) }
		var want []float64
		for _, x := range []float64{0, 1, math.Trunc(f), math.Trunc(f / 2)} {
			simpler := isInt(x) && !isInt(f) || math.Abs(x) < math.Abs(f)
			if x != f && simpler && !slices.Contains(want, x) {
				want = append(want, x)
			}
		}
		var got []float64
		for _, c := range simpler(jsonjs.NumberValue(f)) {
			x, ok := c().Float()
			if !ok {
				t.Fatalf("a candidate of %v is no number", f)
			}
			got = append(got, x)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("simpler(%v) = %v, want %v", f, got, want)
		}
	})
}

// One round's shares (explain.go shares): the case taken at now ends at
// now + (deadline - now) * sessions / cases not yet taken, capped at the
// deadline. A model on whole milliseconds, with the clock moving between
// takes as the cases finish.
func TestJudgeExplainSharesOfARound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		t0 := time.Unix(1_000_000, 0)
		budget := rapid.IntRange(1, 60_000).Draw(t, "budgetMs")
		sessions := rapid.IntRange(1, 4).Draw(t, "sessions")
		cases := rapid.IntRange(1, 12).Draw(t, "cases")
		deadline := t0.Add(time.Duration(budget) * time.Millisecond)
		s := &shares{deadline: deadline, sessions: sessions, left: cases}
		now := t0
		for k := range cases {
			left := time.Duration(cases - k)
			want := now.Add(deadline.Sub(now) * time.Duration(sessions) / left)
			if want.After(deadline) {
				want = deadline
			}
			if got := s.next(now); !got.Equal(want) {
				t.Fatalf("case %d of %d on %d sessions, %v before the deadline: ends %v before it, want %v",
					k+1, cases, sessions, deadline.Sub(now), deadline.Sub(got), deadline.Sub(want))
			}
			now = now.Add(time.Duration(rapid.IntRange(0, budget/cases).Draw(t, "elapsedMs")) * time.Millisecond)
		}
	})
}

// The shares by hand: 12 s for 4 cases on 2 sessions give 6 s, then 8 s
// of what is left, then the rest twice.
func TestJudgeExplainSharesByHand(t *testing.T) {
	t0 := time.Unix(0, 0)
	s := &shares{deadline: t0.Add(12 * time.Second), sessions: 2, left: 4}
	var got []time.Duration
	for range 4 {
		got = append(got, s.next(t0).Sub(t0))
	}
	want := []time.Duration{6 * time.Second, 8 * time.Second, 12 * time.Second, 12 * time.Second}
	if !slices.Equal(got, want) {
		t.Fatalf("shares %v, want %v", got, want)
	}
}
