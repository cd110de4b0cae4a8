package jsonjs

import (
	"math"
	"strconv"
)

// FormatNumber returns ECMAScript Number::toString(x) in radix 10
// (CODE-NUM-1): the shortest round-tripping digits, plain notation for
// exponents in [-6, 21), exponent notation ("1e+21", "1.5e-7") outside.
// -0 prints as "0". NaN and ±Infinity print as JavaScript's String() does;
// JSON serialization maps them to null instead (see Append).
func FormatNumber(x float64) string {
	return string(AppendNumber(nil, x))
}

// AppendNumber appends FormatNumber(x) to dst.
func AppendNumber(dst []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(dst, "NaN"...)
	case math.IsInf(x, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(x, -1):
		return append(dst, "-Infinity"...)
	case x == 0:
		return append(dst, '0')
	}
	// Integers below 2^53 are the common case (counts, line numbers) and
	// need no digit search.
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.AppendInt(dst, int64(x), 10)
	}
	if x < 0 {
		dst = append(dst, '-')
		x = -x
	}
	// 'e' with precision -1 gives the shortest round-tripping digits s as
	// "d.ddde±XX"; k is the digit count and n-1 the exponent.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], x, 'e', -1, 64)
	mant, exp := e, 0
	for i := range e {
		if e[i] == 'e' {
			mant = e[:i]
			exp, _ = strconv.Atoi(string(e[i+1:]))
			break
		}
	}
	var digits [24]byte
	k := 0
	for _, c := range mant {
		if c != '.' {
			digits[k] = c
			k++
		}
	}
	n := exp + 1
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits[:k]...)
		for i := 0; i < n-k; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:k]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits[:k]...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:k]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

// NumberSize returns len(FormatNumber(x)) for finite x. AppendNumber's own
// integer path makes it cheap for the line numbers and totals meta measures.
func NumberSize(x float64) int {
	var buf [32]byte
	return len(AppendNumber(buf[:0], x))
}
