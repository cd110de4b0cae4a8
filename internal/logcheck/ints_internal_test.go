package logcheck

import (
	"testing"

	"pgregory.net/rapid"
)

// numberLexeme is a JSON number (short and long integers, -0, fractions,
// exponents) or, now and then, a value of another kind.
var numberLexeme = rapid.OneOf(
	rapid.StringMatching(`-?(0|[1-9][0-9]{0,17})`),
	rapid.StringMatching(`-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,3})?([eE][-+]?[0-9]{1,2})?`),
	rapid.SampledFrom([]string{"-0", "0", "9007199254740991", "9007199254740992", "999999999999999", "-999999999999999",
		"1000000000000000", `"12"`, `"-0"`, "true", "null", "[1]", `{"a":1}`, "1.0", "1e2", "-0.0"}),
)

// The integer fast path of safeInt and nonNegInt gives what the general
// path through Float gives, for every number and every other kind.
func TestPlainIntMatchesFloat(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := raw(numberLexeme.Draw(t, "lexeme"))
		n, ok := safeInt(r)
		wn, wok := floatSafeInt(r)
		if n != wn || ok != wok {
			t.Fatalf("safeInt(%s) = %d, %v; Float gives %d, %v", r, n, ok, wn, wok)
		}
		for _, noNegZero := range []bool{false, true} {
			n, ok := nonNegInt(r, noNegZero)
			wn, wok := floatNonNegInt(r, noNegZero)
			if n != wn || ok != wok {
				t.Fatalf("nonNegInt(%s, %v) = %d, %v; Float gives %d, %v", r, noNegZero, n, ok, wn, wok)
			}
		}
	})
}
