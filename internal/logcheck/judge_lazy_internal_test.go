package logcheck

import "testing"

// safeInt is Number.isSafeInteger of a number (|n| <= 2^53-1, an
// integer), also for lexemes the integer fast path leaves to Float (more
// than 15 digits, a fraction part, an exponent): lazy.go:85:46 `>` -> `>=`
// refused 2^53-1 itself.
func TestJudgeSafeIntBounds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"9007199254740991", 9007199254740991, true},
		{"-9007199254740991", -9007199254740991, true},
		{"9007199254740991.0", 9007199254740991, true},
		{"9.007199254740991e15", 9007199254740991, true},
		{"9007199254740992", 0, false},
		{"-9007199254740992", 0, false},
		{"9007199254740990", 9007199254740990, true},
		{"1e15", 1000000000000000, true},
		{"1.5", 0, false},
	} {
		n, ok := safeInt(raw(c.in))
		if ok != c.ok || ok && n != c.want {
			t.Errorf("safeInt(%s) = %d %v, want %d %v", c.in, n, ok, c.want, c.ok)
		}
	}
}
