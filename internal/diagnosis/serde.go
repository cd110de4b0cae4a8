package diagnosis

import (
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The serde_json models: a port that holds its values as serde_json::Value
// reads each number of JSON.stringify's text into a u64, an i64 or an f64
// and writes it back its own way. As observed of serde_json 1.0.154 with
// default features (a probe crate printing serde_json::to_string of
// serde_json::from_str of each token):
//   - a token without fraction or exponent that fits a u64 (or, negative,
//     an i64) stays an integer and is written as it came: 18446744073709551615;
//   - any other token is an f64, read without correct rounding: the digits
//     gather in a u64 until the next one would overflow it (the rest only
//     count as a power of ten), the u64 becomes an f64 and is multiplied or
//     divided by one power of ten. 4503599627370495.5 reads as
//     4503599627370495.0 and 123456789012345680000 as 1.2345678901234567e+20;
//   - an f64 is written with the shortest round-trip digits, positionally
//     for decimal exponents -5 to 15 with ".0" when integral (1e15 is
//     1000000000000000.0, 0.00001 stays), otherwise as d[.ddd]e±X (1e+16,
//     1e-6, 1.234e-6).
// JavaScript writes the first and last by Number::toString (CODE-NUM-1).

func serdeModels() []Model {
	return []Model{
		{
			Name: "number-serde", Requirement: "CODE-NUM-1", Scoped: true, // 1e20 is 1e+20 in Go's %g too
			Behaves:   "numbers of a rendered result as serde_json reads and writes them: an integer token beyond u64 or any fractional one read as an f64 without correct rounding (4503599627370495.5 is 4503599627370495.0), an f64 written with \".0\" when integral and an exponent from 1e16 and below 1e-5 (100000000000000000000 is 1e+20, 0.000001 is 1e-6)",
			Functions: []string{"Rust: serde_json::from_str then serde_json::to_string of a Value (default features: no float_roundtrip)"},
			Fix:       "keep the double the text denotes (serde_json's float_roundtrip feature) and write it with Number::toString: shortest digits, positional from 1e-6 up to 1e21, no \".0\"",
			variants:  serdeRenderVariant,
		},
		{
			Name: "meta-measure-f64", Requirement: "SEARCH-JSON-1", Scoped: true, // a kept count any longer measure gives
			Behaves:   "grep's meta measured with each line number written as an f64 is: 1 as 1.0, 1e16 as 1e+16 (the meta emitted still says 1), so the byte cap drops groups or sets truncated early",
			Functions: []string{`Rust: serde_json::to_string of json!({"lineNumber": f64, …}) (a line number held as f64)`, "Python: len(json.dumps(meta)) with float line numbers"},
			Fix:       "measure the meta as JSON.stringify writes it: a line number as an integer (Number::toString), e.g. hold it as i64/u64 or write the f64 with Number::toString",
			variants:  metaMeasureVariant,
		},
	}
}

// serdeRenderVariant runs run_code with numbers of the rendered result
// rewritten as serde_json reads and writes them, where that changes one.
func serdeRenderVariant(op string, input jsonjs.Value) []Variant {
	if op != "run_code.result" {
		return nil
	}
	result, ok := at(input, []string{"run", "result"})
	if !ok || !jsonjs.AnyNumber(result, func(x float64) bool { return serdeNumber(jsonjs.FormatNumber(x)) != jsonjs.FormatNumber(x) }) {
		return nil
	}
	return []Variant{{Input: input, Numbers: serdeNumber}}
}

// Plain reports whether the variant is computed with JavaScript's
// primitives: its answer is the reference's (reference.Run) on its input.
// conform fuzz compares harnesses with such answers only.
func (v Variant) Plain() bool {
	d := v.Dialect
	return d.Decode == nil && d.GrepNumber == nil && d.Render == nil && d.MetaNumber == nil && v.Numbers == nil
}

// dialect is the variant's Dialect with its number rewrite, if any, over
// the rendered result (after whichever renderer: member order and number
// text are two deviations that combine).
func (v Variant) dialect() reference.Dialect {
	d := v.Dialect
	if v.Numbers == nil {
		return d
	}
	render, numbers := d.Render, v.Numbers
	if render == nil {
		render = codemode.RenderValue
	}
	d.Render = func(x jsonjs.Value) string {
		if _, ok := x.Str(); ok {
			return render(x) // CODE-JSON-1: a string result is its text
		}
		return rewriteNumbers(render(x), numbers)
	}
	return d
}

// metaMeasureVariant runs grep measuring its meta's line numbers as
// serde_json writes the f64 it read each one into.
func metaMeasureVariant(op string, input jsonjs.Value) []Variant {
	measure := func(x float64) string { return serdeWrite(serdeRead(jsonjs.FormatNumber(x)).float()) }
	if op != "grep.result" || !anyNumberAt(input, []string{"value", "matches", "*", "lineNumber"}, func(x float64) bool {
		return len(measure(x)) != jsonjs.NumberSize(x)
	}) {
		return nil
	}
	return []Variant{{Input: input, Dialect: reference.Dialect{MetaNumber: measure}}}
}

// serdeNumber is a JSON number token as serde_json writes what it reads.
func serdeNumber(token string) string {
	n := serdeRead(token)
	switch {
	case n.kind == serdeU64:
		return strconv.FormatUint(n.u, 10)
	case n.kind == serdeI64:
		return strconv.FormatInt(n.i, 10)
	case math.IsInf(n.f, 0):
		return token // serde_json refuses it ("number out of range"): no answer to model
	}
	return serdeWrite(n.f)
}

type serdeKind int

const (
	serdeU64 serdeKind = iota
	serdeI64
	serdeF64
)

// serdeNum is a number as serde_json::Value holds it.
type serdeNum struct {
	kind serdeKind
	u    uint64
	i    int64
	f    float64
}

// float is Value::as_f64: an integer converted with `as f64`.
func (n serdeNum) float() float64 {
	switch n.kind {
	case serdeU64:
		return float64(n.u)
	case serdeI64:
		return float64(n.i)
	}
	return n.f
}

// serdeRead reads a valid JSON number token as serde_json does without its
// float_roundtrip feature (see the top of the file).
func serdeRead(token string) serdeNum {
	neg := strings.HasPrefix(token, "-")
	s := strings.TrimPrefix(token, "-")
	digit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	// overflows is whether sig*10+d passes u64::MAX
	overflows := func(sig, d uint64) bool {
		return sig >= math.MaxUint64/10 && (sig > math.MaxUint64/10 || d > math.MaxUint64%10)
	}
	var sig uint64
	exp, i, float := 0, 0, false
	if s != "" && s[0] == '0' {
		i = 1 // one leading zero, no other digit
	} else {
		for ; digit(i); i++ {
			d := uint64(s[i] - '0')
			if overflows(sig, d) { // the rest of the integer only scales it
				float = true
				for ; digit(i); i++ {
					exp++
				}
				break
			}
			sig = sig*10 + d
		}
	}
	if i < len(s) && s[i] == '.' {
		float = true
		for i++; digit(i); i++ {
			d := uint64(s[i] - '0')
			if overflows(sig, d) { // further digits are dropped
				for ; digit(i); i++ {
				}
				break
			}
			sig = sig*10 + d
			exp--
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		float = true
		i++
		eneg := i < len(s) && s[i] == '-'
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		e := 0
		for ; digit(i); i++ {
			e = min(e*10+int(s[i]-'0'), 1<<20) // JavaScript's exponents have three digits
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	switch {
	case float:
	case !neg:
		return serdeNum{kind: serdeU64, u: sig}
	case sig != 0 && sig <= 1<<63: // -0 and what underflows i64 become f64
		return serdeNum{kind: serdeI64, i: int64(-sig)}
	}
	f := float64(sig)
	for {
		if a := abs(exp); a < len(pow10()) {
			if exp >= 0 {
				f *= pow10()[a]
			} else {
				f /= pow10()[a]
			}
			break
		}
		if f == 0 {
			break
		}
		if exp >= 0 {
			f = math.Inf(1) // "number out of range"
			break
		}
		f /= 1e308
		exp += 308
	}
	if neg {
		f = -f
	}
	return serdeNum{kind: serdeF64, f: f}
}

// pow10 is serde_json's table: 1e0 … 1e308, each the double nearest it.
var pow10 = sync.OnceValue(func() []float64 {
	t := make([]float64, 309)
	for i := range t {
		t[i], _ = strconv.ParseFloat("1e"+strconv.Itoa(i), 64)
	}
	return t
})

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// serdeWrite is an f64 as serde_json writes it (see the top of the file).
func serdeWrite(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "null"
	}
	return floatText(x, -5, 15, 1)
}

// rewriteNumbers is a JSON text with each number token replaced by
// number(token); strings are copied as they are.
func rewriteNumbers(text string, number func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(text[i:min(j+1, len(text))])
			i = j + 1
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(text) && strings.IndexByte("0123456789.eE+-", text[j]) >= 0 {
				j++
			}
			b.WriteString(number(text[i:j]))
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}
