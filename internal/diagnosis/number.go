package diagnosis

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The number models: a number written as text by another language's
// formatter than Number::toString (shortest round-trip digits; an exponent
// from 1e21 up and below 1e-6). The reference is run with that formatter
// (reference.Dialect) where the op writes numbers into text: grep's
// `Line N` rows (SEARCH-GREP-3).

func numberModels() []Model {
	return []Model{
		{
			Name: "number-python", Requirement: "SEARCH-GREP-3",
			Behaves:   "Python's number formatting: an integral value as every digit of the integer (2**60 is 1152921504606846976), others by repr (1e-05, 1e+16)",
			Functions: []string{"Python: str(), f-strings, json.dumps, repr()"},
			Fix:       "format as JavaScript does: an integral float below 1e21 by its shortest round-trip digits (repr(float(n)) less its '.0'), an exponent from 1e21 and below 1e-6",
			variants:  numberVariant(pythonNumber),
		},
		{
			Name: "number-plain", Requirement: "SEARCH-GREP-3",
			Behaves:   "shortest round-trip digits never written with an exponent: 1e21 is 1000000000000000000000, 1e-7 is 0.0000001",
			Functions: []string{"Rust: f64 Display ({}), to_string()", "Go: strconv.FormatFloat(x, 'f', -1, 64)"},
			Fix:       "switch to exponent form where Number::toString does: from 1e21 up and below 1e-6",
			variants:  numberVariant(plainNumber),
		},
	}
}

// numberVariant runs grep with format where it writes a line number
// differently from Number::toString on this input.
func numberVariant(format func(float64) string) func(string, jsonjs.Value) []Variant {
	return func(op string, input jsonjs.Value) []Variant {
		if op != "grep.result" || !anyNumberAt(input, []string{"value", "matches", "*", "lineNumber"}, func(x float64) bool {
			return format(x) != jsonjs.FormatNumber(x)
		}) {
			return nil
		}
		return []Variant{{Input: input, Dialect: reference.Dialect{GrepNumber: format}}}
	}
}

// anyNumberAt reports whether a number reached by path satisfies pred.
func anyNumberAt(v jsonjs.Value, path []string, pred func(float64) bool) bool {
	if len(path) == 0 {
		x, ok := v.Float()
		return ok && pred(x)
	}
	if path[0] == "*" {
		items, _ := v.Items()
		for _, it := range items {
			if anyNumberAt(it, path[1:], pred) {
				return true
			}
		}
		return false
	}
	m, ok := v.Get(path[0])
	return ok && anyNumberAt(m, path[1:], pred)
}

// pythonNumber is how a Python port writes a JSON number it read: the
// adapter kits read an integral number as an int, which str() writes in
// full; a float goes by repr.
func pythonNumber(x float64) string {
	if math.IsNaN(x) {
		return "nan"
	}
	if math.IsInf(x, 0) {
		return map[bool]string{true: "inf", false: "-inf"}[x > 0]
	}
	if x == math.Trunc(x) && !(x == 0 && math.Signbit(x)) {
		return new(big.Float).SetFloat64(x).Text('f', 0)
	}
	// repr: shortest digits, positional for exponents -4..15, else
	// d.ddde±XX with at least two exponent digits.
	return floatText(x, -4, 15, 2)
}

// floatText writes x with its shortest round-trip digits: positional, with
// ".0" when integral, for decimal exponents lo..hi, else d.ddde±X with at
// least expDigits exponent digits (Python's repr, serde_json's writer).
func floatText(x float64, lo, hi, expDigits int) string {
	sign := ""
	if math.Signbit(x) {
		sign = "-"
	}
	digits, exp := shortest(x)
	if exp >= lo && exp <= hi {
		s := strconv.FormatFloat(math.Abs(x), 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return sign + s
	}
	m := digits[:1]
	if len(digits) > 1 {
		m += "." + digits[1:]
	}
	es := "+"
	if exp < 0 {
		es, exp = "-", -exp
	}
	e := strconv.Itoa(exp)
	for len(e) < expDigits {
		e = "0" + e
	}
	return sign + m + "e" + es + e
}

// plainNumber is Rust's f64 Display and Go's 'f' with precision -1: the
// shortest round-trip digits, positional always.
func plainNumber(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	if math.IsInf(x, 0) {
		return map[bool]string{true: "inf", false: "-inf"}[x > 0]
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// shortest is |x|'s shortest round-trip digits and decimal exponent of the
// first digit (x = 0.d1d2… × 10^(exp+1)).
func shortest(x float64) (digits string, exp int) {
	s := strconv.FormatFloat(math.Abs(x), 'e', -1, 64)
	mant, e, _ := strings.Cut(s, "e")
	exp, _ = strconv.Atoi(e)
	return strings.Replace(mant, ".", "", 1), exp
}
