package generators

import (
	"math"
	"strings"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// This file holds the JSON building blocks of the generators: tricky JS
// numbers, tricky strings, object keys and whole JSON values.
//
// Every generator here and in the other gen_*.go files is a pure function of
// rapid's bit stream (no map iteration, no clock, no global state), so
// Generator.Example(seed) is deterministic and the fixtures drawn from it are
// stable.

// genTrickyNumbers are finite doubles whose JavaScript Number-to-String form is
// easy to get wrong (CODE-NUM-1): the contract's table, the formatting
// boundaries 1e21 / 1e-6 / 1e-7 and their neighbours, the integers around
// 2^53, subnormals and the extremes. Go float literals round to nearest like
// JavaScript's parser, so each literal is the double JS prints that way; the
// ones computed by arithmetic (0.1+0.2) are given by their bits. The values
// come from reference/jsonjs/testdata/numbers.json. -0 is not in the table:
// JSNumber adds it separately so that lossless generators can leave it out.
var genTrickyNumbers = []float64{
	0, 1, -1, 2, 10, 100, 0.5, -0.5,
	0.1, math.Float64frombits(0x3fd3333333333334), // 0.1 + 0.2 = 0.30000000000000004
	0.3333333333333333, 123.456, 4.35,
	1e20, 1e21, -1e21, 999999999999999900000, 999999999999999700000,
	1.0000000000000001e21, 1.0000000000000003e21,
	99999999999999980000, 123456789012345680000, 12345678901234567890123,
	9.999999999999998e21,
	9007199254740992, 9007199254740991, -9007199254740991, 9007199254740993, // 2^53, 2^53-1, 2^53+1 (rounds to 2^53)
	9007199254740994, -9007199254740992, 18014398509481984, 4503599627370497, 4503599627370496.5,
	1000000000000000.2, 1e15 + 0.3,
	0.000001, -0.000001, 0.0000010000000000000002, 9.999999999999997e-7,
	0.000001234, 9.9e-7, 1e-7, -1e-7, 1.0000000000000001e-7, 1.5e-7,
	-2.5e-10, 1.23e-18, 0.000009999999999999999,
	5e-324, -5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308,
	1e100, 1e300, 1e308, -1e308, 1.7976931348623157e308, -1.7976931348623157e308,
	4294967295, 4294967296, 2147483647, -2147483648,
}

// JSNumber draws a finite number: mostly from the tricky table, sometimes -0,
// a small integer or an arbitrary finite double. It never draws NaN or ±Inf,
// which JSON text cannot hold as such.
func JSNumber() *rapid.Generator[float64] { return genJSNumber(true) }

// LosslessNumber is JSNumber without -0: the numbers a run_code result can
// hold (CODE-LOSSLESS-1).
func LosslessNumber() *rapid.Generator[float64] { return genJSNumber(false) }

func genJSNumber(negZero bool) *rapid.Generator[float64] {
	return rapid.Custom(func(t *rapid.T) float64 {
		var x float64
		switch genChoice(t, "numberKind", 10) {
		case 0, 1, 2, 3, 4:
			x = rapid.SampledFrom(genTrickyNumbers).Draw(t, "tricky")
		case 5:
			if negZero {
				return math.Copysign(0, -1)
			}
			x = 0
		case 6, 7:
			x = float64(rapid.IntRange(-1000, 100000).Draw(t, "int"))
		default:
			x = rapid.Float64().Draw(t, "float")
		}
		if !negZero && x == 0 {
			x = 0 // clears the sign of a drawn -0
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 0
		}
		return x
	})
}

// genStringAtoms are the pieces strings are built from: ASCII, characters that
// JSON.stringify escapes or deliberately does not escape (SEARCH-JSON-1,
// CODE-STR-1), multi-byte UTF-8 of every length, U+FEFF (the BOM the
// retention decoder strips, RET-UTF8-3) and ECMAScript whitespace
// (SEARCH-ARGS-3).
var genStringAtoms = []string{
	"a", "b", "x", "Z", "0", "7", " ", "-", ".", "/", "_", "*",
	"é", "ß", "€", "日", "本", "😀", "𝄞", "\U0010FFFF", "\u0300", "\uFFFD",
	"\uFEFF", "\u2028", "\u2029", "\u00A0", "\u0085", "\u200B", "\u3000",
	"\"", "\\", "<", ">", "&", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f", "\u0080", "\u009f",
	"\n", "\r",
}

// genPlainAtoms are the atoms without "\n", for grep lines and paths (ripgrep
// lines never hold "\n", SEARCH-EXEC-4, and the text properties split on it).
var genPlainAtoms = func() []string {
	var out []string
	for _, a := range genStringAtoms {
		if a != "\n" {
			out = append(out, a)
		}
	}
	return out
}()

// genLoneSurrogates are WTF-8 encodings of lone UTF-16 surrogates. A high
// surrogate is always followed by "x" so that no high/low pair forms, which
// would not be a lone surrogate any more.
var genLoneSurrogates = []string{"\xed\xa0\x80x", "\xed\xaf\xbfx", "\xed\xb0\x80", "\xed\xbf\xbf"}

// UnicodeString draws a valid UTF-8 string built from tricky atoms, with an
// occasional arbitrary rune; it may be empty and may start with U+FEFF.
func UnicodeString() *rapid.Generator[string] { return genAtomString(genStringAtoms, false, 16) }

// WTF8String is UnicodeString that may also hold lone surrogates (WTF-8, see
// package jsonjs). Use it only inside jsonjs.Value fields: a Go string field
// marshalled by encoding/json would turn them into U+FFFD.
func WTF8String() *rapid.Generator[string] { return genAtomString(genStringAtoms, true, 16) }

// PlainString is UnicodeString without "\n".
func PlainString() *rapid.Generator[string] { return genAtomString(genPlainAtoms, false, 16) }

func genAtomString(atoms []string, surrogates bool, maxAtoms int) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, maxAtoms).Draw(t, "atoms")
		var b strings.Builder
		for i := 0; i < n; i++ {
			switch k := genChoice(t, "atomKind", 20); {
			case k == 0:
				r := rapid.Rune().Draw(t, "rune")
				if r < 0 || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF) || (r == '\n' && !genContainsAtom(atoms, "\n")) {
					r = 'r'
				}
				b.WriteRune(r)
			case k == 1 && surrogates:
				b.WriteString(rapid.SampledFrom(genLoneSurrogates).Draw(t, "surrogate"))
			case k < 10:
				b.WriteString(atoms[rapid.IntRange(0, 11).Draw(t, "ascii")]) // the ASCII head of the table
			default:
				b.WriteString(rapid.SampledFrom(atoms).Draw(t, "atom"))
			}
		}
		return b.String()
	})
}

func genContainsAtom(atoms []string, a string) bool {
	for _, x := range atoms {
		if x == a {
			return true
		}
	}
	return false
}

// genIntegerLikeKeys are object keys around the ECMAScript array-index rule
// (CODE-KEYS-1): canonical indexes sort first in numeric order, the others
// keep insertion order.
var genIntegerLikeKeys = []string{"0", "1", "2", "9", "10", "4294967294", "4294967295", "01", "-1", "1.5", "1e3", " 1", "00"}

// ObjectKey draws an object key: integer-like keys, __proto__, the empty key,
// short names and arbitrary WTF-8 strings.
func ObjectKey() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		switch genChoice(t, "keyKind", 6) {
		case 0, 1:
			return rapid.SampledFrom(genIntegerLikeKeys).Draw(t, "indexKey")
		case 2:
			return rapid.SampledFrom([]string{"a", "b", "k", "name", "__proto__", "", "a\"b", "é", "\n"}).Draw(t, "nameKey")
		default:
			return genAtomString(genStringAtoms, true, 4).Draw(t, "key")
		}
	})
}

// JSONValue draws any JSON value of nesting depth at most maxDepth (the root
// is depth 0): null, booleans, tricky numbers (-0 included, never NaN or
// ±Inf), WTF-8 strings, arrays and objects with integer-like keys. With
// maxDepth >= 6 it sometimes draws a deep spine, so depths of 6 and more,
// where run_code rendering turns compact (CODE-JSON-2), are reached.
func JSONValue(maxDepth int) *rapid.Generator[jsonjs.Value] { return genJSONValue(maxDepth, true) }

// LosslessJSONValue is JSONValue without -0: the values a successful
// run_code completion can carry (CODE-LOSSLESS-1).
func LosslessJSONValue(maxDepth int) *rapid.Generator[jsonjs.Value] {
	return genJSONValue(maxDepth, false)
}

func genJSONValue(maxDepth int, negZero bool) *rapid.Generator[jsonjs.Value] {
	return rapid.Custom(func(t *rapid.T) jsonjs.Value {
		budget := rapid.IntRange(1, 40).Draw(t, "nodes")
		if maxDepth >= 6 && genChoice(t, "spine", 4) == 0 {
			return genDrawSpine(t, maxDepth, negZero, &budget)
		}
		return genDrawValue(t, 0, maxDepth, negZero, &budget)
	})
}

// genDrawSpine draws a chain of containers at least 6 deep, each level with a
// few siblings, so that the compact/pretty boundary is crossed at every
// position.
func genDrawSpine(t *rapid.T, maxDepth int, negZero bool, budget *int) jsonjs.Value {
	depth := rapid.IntRange(6, maxDepth).Draw(t, "spineDepth")
	v := genDrawScalar(t, negZero)
	if rapid.Bool().Draw(t, "spineLeafContainer") {
		v = genDrawValue(t, depth, depth+1, negZero, budget)
	}
	for d := depth - 1; d >= 0; d-- {
		before := rapid.IntRange(0, 1).Draw(t, "before")
		after := rapid.IntRange(0, 1).Draw(t, "after")
		if rapid.Bool().Draw(t, "spineArray") {
			var items []jsonjs.Value
			for i := 0; i < before; i++ {
				items = append(items, genDrawValue(t, d+1, maxDepth, negZero, budget))
			}
			items = append(items, v)
			for i := 0; i < after; i++ {
				items = append(items, genDrawValue(t, d+1, maxDepth, negZero, budget))
			}
			v = jsonjs.ArrayValue(items...)
			continue
		}
		var members []jsonjs.Member
		for i := 0; i < before; i++ {
			members = append(members, jsonjs.Member{Key: ObjectKey().Draw(t, "key"), Value: genDrawValue(t, d+1, maxDepth, negZero, budget)})
		}
		members = append(members, jsonjs.Member{Key: ObjectKey().Draw(t, "spineKey"), Value: v})
		for i := 0; i < after; i++ {
			members = append(members, jsonjs.Member{Key: ObjectKey().Draw(t, "key"), Value: genDrawValue(t, d+1, maxDepth, negZero, budget)})
		}
		v = jsonjs.ObjectValue(members...)
	}
	return v
}

func genDrawValue(t *rapid.T, depth, maxDepth int, negZero bool, budget *int) jsonjs.Value {
	*budget--
	if depth >= maxDepth || *budget <= 0 {
		return genDrawScalar(t, negZero)
	}
	kind := genChoice(t, "valueKind", 10)
	if depth == 0 && kind < 3 {
		kind += 5 // roots are mostly containers
	}
	switch {
	case kind < 5:
		return genDrawScalar(t, negZero)
	case kind < 7:
		n := rapid.IntRange(0, min(4, max(0, *budget))).Draw(t, "arrayLen")
		items := make([]jsonjs.Value, n)
		for i := range items {
			items[i] = genDrawValue(t, depth+1, maxDepth, negZero, budget)
		}
		return jsonjs.ArrayValue(items...)
	default:
		n := rapid.IntRange(0, min(5, max(0, *budget))).Draw(t, "objectLen")
		members := make([]jsonjs.Member, n)
		for i := range members {
			members[i] = jsonjs.Member{Key: ObjectKey().Draw(t, "key"), Value: genDrawValue(t, depth+1, maxDepth, negZero, budget)}
		}
		return jsonjs.ObjectValue(members...)
	}
}

func genDrawScalar(t *rapid.T, negZero bool) jsonjs.Value {
	switch genChoice(t, "scalarKind", 7) {
	case 0:
		return jsonjs.NullValue()
	case 1:
		return jsonjs.BoolValue(rapid.Bool().Draw(t, "bool"))
	case 2, 3:
		return jsonjs.NumberValue(genJSNumber(negZero).Draw(t, "number"))
	default:
		return jsonjs.StringValue(WTF8String().Draw(t, "string"))
	}
}

// genSizeNear draws a budget relative to a size n: exactly n, n±1, the small
// values 0..3, a value in [0, n], or a large one. The result is at least lo.
// Budgets at these points reach every boundary of a cap (exactly at the
// input size, one below, one above) as well as the degenerate ones.
func genSizeNear(t *rapid.T, label string, n, lo int) int {
	var v int
	switch genChoice(t, label+"Kind", 10) {
	case 0, 1:
		v = n
	case 2:
		v = n - 1
	case 3:
		v = n + 1
	case 4:
		v = rapid.IntRange(0, 3).Draw(t, label+"Small")
	case 5:
		v = rapid.SampledFrom([]int{1000, 65536, 1 << 20}).Draw(t, label+"Large")
	default:
		v = rapid.IntRange(0, max(n, 0)).Draw(t, label+"Within")
	}
	return max(v, lo)
}

// genChoice draws one of n alternatives uniformly. rapid's integer
// generators lean towards small values (good for sizes, which then shrink
// well), which would make the first branch of every switch two to three
// times likelier than intended; choices between kinds use this instead.
func genChoice(t *rapid.T, label string, n int) int {
	v := 0
	for i := 0; i < 16; i++ {
		v <<= 1
		if rapid.Bool().Draw(t, label) {
			v |= 1
		}
	}
	return v % n
}
