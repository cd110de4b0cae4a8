package generators

import (
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// namedStrengthRunCode pins what the JS number table and the string escape
// table look like once they reach a harness through run_code: each case is
// one branch family of Number::toString (CODE-NUM-1) or one class of code
// units JSON.stringify escapes or keeps (CODE-STR-1). Found by mutation
// testing of the reference (docs/mutation.md).
func namedStrengthRunCode() []Case {
	args := nCodeArgs("return value;", "Render the value")
	value := func(name, description string, result jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpRunCodeResult, name, description, nRunIn(args, nRunValue(nil, result)), reqs...)
	}
	raw := func(name, description, result string, reqs ...string) Case {
		v, b := InRaw(`{"args":{"code":"return value;","description":"Render the value"},"run":{"logs":[],"result":` + result + `}}`)
		return Case{Name: name, Op: reference.OpRunCodeResult, Requirements: reqs, Description: description, Input: v, RawInput: b}
	}
	return []Case{
		// Number::toString, one branch family per case (CODE-NUM-1).
		value("run-code-numbers-integer-digit-counts", "Integers with 1 to 21 decimal digits print every digit (k <= n <= 21), the 18- to 21-digit ones as the shortest round-trip digits padded with zeros.",
			In(`[1,12,123,1234,12345,123456,1234567,12345678,123456789,1234567890,12345678901,123456789012,1234567890123,12345678901234,123456789012345,1234567890123456,12345678901234567,123456789012345678,1234567890123456789,12345678901234567890,123456789012345678901]`), "CODE-NUM-1"),
		value("run-code-numbers-powers-of-ten-to-1e21", "10^0 to 10^20 print as integers and 10^21 switches to `1e+21`: the exponent boundary n = 21.",
			In(`[1,10,100,1000,10000,100000,1000000,10000000,100000000,1000000000,10000000000,100000000000,1000000000000,10000000000000,100000000000000,1000000000000000,10000000000000000,100000000000000000,1000000000000000000,10000000000000000000,100000000000000000000,1000000000000000000000]`), "CODE-NUM-1"),
		value("run-code-numbers-fraction-digit-counts", "Numbers with a fraction and 2 to 17 significant digits keep the point inside the digits (0 < n <= 21), with 1 to 16 integer digits.",
			In(`[1.5,1.25,1.125,12.5,123.25,1234.125,12345.5,123456.75,1234567.5,12345678.25,123456789.5,1234567890.5,12345678901.5,123456789012.5,1234567890123.5,12345678901234.5,123456789012345.6,1.2345678901234567]`), "CODE-NUM-1"),
		value("run-code-numbers-small-decimals-to-1e-7", "0.5 down to 0.000001 print as decimals with up to five leading zeros (-6 < n <= 0); 1e-7 and 9.99e-7 switch to exponent form.",
			In(`[0.5,0.05,0.005,0.0005,0.00005,0.000005,0.000001,0.0000015,0.00000123456789,0.000009999999999999999,0.000000999,0.0000001,0.00000001,0.000000123]`), "CODE-NUM-1"),
		value("run-code-numbers-exponent-form", "Exponent form: one digit alone (`1e+21`, `2e-7`) or a point after the first digit, with `+` only for non-negative exponents, up to 17 significant digits and three exponent digits.",
			In(`[1e21,2e21,1.5e21,1.2345678901234567e25,1e100,1e-7,2e-8,1.5e-10,1.2345678901234567e-8,1e-100,1.7976931348623157e308,-1e21,-1.5e-7]`), "CODE-NUM-1"),
		value("run-code-numbers-subnormals", "Subnormal doubles print as their shortest digits: `5e-324`, `1e-323`, the largest subnormal `2.225073858507201e-308` and the smallest normal `2.2250738585072014e-308`.",
			In(`[5e-324,1e-323,1.5e-323,4.9406564584124654e-324,2.225073858507201e-308,2.2250738585072014e-308,1e-310,-5e-324]`), "CODE-NUM-1"),
		value("run-code-numbers-around-2-pow-53", "Integers around 2^53 and 2^54: below 2^53 every digit, above it the double's own value (9007199254740993 is 9007199254740992), negatives alike.",
			In(`[9007199254740990,9007199254740991,9007199254740992,9007199254740993,9007199254740994,9007199254740995,18014398509481984,18014398509481985,18014398509481988,4503599627370495.5,4503599627370496.5,-9007199254740991,-9007199254740992,-9007199254740993,999999999999999,1000000000000000,1000000000000001]`), "CODE-NUM-1"),
		value("run-code-numbers-negative-every-branch", "Negative numbers take the same branches with a leading `-`: integer, long integer, fraction, small decimal and exponent form.",
			In(`[-1,-12345678901234567890,-1.5,-0.001,-0.000001,-1e-7,-1e21,-123456789012345680000]`), "CODE-NUM-1"),
		value("run-code-number-root-fraction", "A fractional number root renders through the same Number::toString as numbers in containers.",
			In(`0.000123`), "CODE-NUM-1", "CODE-JSON-2"),
		raw("run-code-negative-zero-inside-containers-raw-text", "-0 nested in an array and an object is not lossless JSON either: the whole completion is rejected (CODE-LOSSLESS-1).",
			`{"a":[0,-0],"b":{"c":-0}}`, "CODE-LOSSLESS-1"),

		// JSON.parse of number lexemes and escapes, as the output shows them.
		raw("run-code-result-negative-overflow-invalid-raw-text", "-1e400 parses to -Infinity, which is not lossless JSON either: the completion is rejected (CODE-LOSSLESS-1).",
			`{"n":[-1e400]}`, "CODE-LOSSLESS-1"),
		raw("run-code-parse-number-lexemes-raw-text", "Number lexemes with an uppercase or signed exponent, a fraction with trailing zeros or a big exponent parse to the same doubles JSON.parse gives: 1E5, 1e+5, 1E-5, 2.50, 0.5e1, 100e-2, 0e10, 12345678901234567890.",
			`[1E5,1e+5,1E+5,1E-5,1e-5,2.50,0.5e1,100e-2,0e10,0.0e-3,12345678901234567890,1.0000000000000001,123456789e-9]`, "CODE-NUM-1"),
		raw("run-code-parse-escapes-raw-text", "Escapes in the result text: uppercase and mixed-case hex (`\\u00E9`, `\\uD83D\\uDE00`), a \\u-escaped surrogate pair, `\\/`, and every short escape parse to the code units they name.",
			`{"upper":"\u00E9\u00C9","pair":"\ud83d\ude00","pairUpper":"\uD83D\uDE00","mixed":"\uDbFf\uDFfF","slash":"a\/b","short":"\"\\\b\f\n\r\t","astral":"\u10FFx"}`, "CODE-STR-1"),
		raw("run-code-parse-hex-digit-boundaries-raw-text", "Every end of the three \\u hex digit ranges parses: `0` and `9`, `a` and `f`, `A` and `F` (`\\u00A9` is ©, `\\u00aF` is ¯, `\\u090f` is ए).",
			`{"A":"\u00A9\u00AA","a":"\u00a9\u00aa","F":"\u00AF\u00FF","f":"\u00af\u00ff","digits":"\u0090\u0909\u090f","mixed":"\u00aF\u00Fa"}`, "CODE-STR-1"),
		raw("run-code-parse-lone-surrogates-raw-text", "Escaped lone surrogates from the middle of both ranges (`\\ud834`, `\\udd1e`), a high surrogate before a non-surrogate escape, two highs, and low-then-high stay lone and are written back as lowercase `\\uXXXX`.",
			`{"mid":"\ud834","low":"\udd1e","beforeA":"\ud834\u0041","twoHigh":"\ud834\ud834\udd1e","lowHigh":"\udd1e\ud834","edges":"\ud800\udbff\udc00\udfff","tail":"x\ud834"}`, "CODE-STR-1"),
		raw("run-code-parse-high-surrogate-before-lookalike-raw-text", "A high surrogate escape followed by text that only looks like a low one (`xudd1e`, or an escaped quote then `dd1e`) stays lone: only `\\u` after it starts a pair.",
			`{"a":"\ud834xudd1e","b":"\ud834\"dd1e"}`, "CODE-STR-1"),
		raw("run-code-parse-duplicate-keys-every-level-raw-text", "Duplicate keys at every nesting level keep the first position and the last value, and an integer-like duplicate moves to the index block.",
			`{"a":1,"b":{"x":1,"y":2,"x":{"p":1,"q":2,"p":[{"m":1,"n":2,"m":3}]}},"a":{"k":1,"k":2},"3":1,"3":2}`, "CODE-KEYS-2", "CODE-KEYS-1"),
		value("run-code-keys-index-order-every-level", "Own-property order at nesting depths 1 to 7, across the pretty/compact switch: index keys first ascending, then the others in insertion order.",
			In(`{"z":1,"10":2,"2":{"y":1,"1":2,"0":{"x":1,"5":2,"4":{"w":1,"7":2,"6":{"v":1,"9":2,"8":{"u":1,"11":2,"10":{"t":1,"4294967294":2,"4294967295":3}}}}}}}`), "CODE-KEYS-1", "CODE-JSON-2"),
		value("run-code-keys-only-index-keys", "An object whose keys are all array indices, written out of order, is still reordered ascending.",
			In(`{"10":1,"2":2,"1":3,"0":4}`), "CODE-KEYS-1"),
		value("run-code-keys-not-array-index", "Keys that only look like indices keep insertion order: a sign, leading zeros, a fraction, an exponent, spaces, 2^32-1 and beyond; only `0` and canonical indices below 2^32-1 move first.",
			In(`{"b":1,"+1":2,"00":3,"1e3":4," 1":5,"1 ":6,"4294967295":7,"99999999999":8,"0":9,"-0":10,"4294967294":11,"07":12,"a":13}`), "CODE-KEYS-1"),

		// JSON.stringify escaping by code unit class (CODE-STR-1).
		value("run-code-escape-every-control-character", "Every C0 control U+0000..U+001F is escaped: `\\b \\t \\n \\f \\r` short, the rest as lowercase `\\u00XX`; U+007F and U+0080..U+009F stay raw.",
			nobj("s", everyControl()+"\x7f\u0080\u009f"), "CODE-STR-1"),
		value("run-code-escape-quote-backslash-slash", "`\"` and `\\` are escaped, `/` is not, in keys and in values.",
			nobj("\"/\\", "\"/\\\"\\\\"), "CODE-STR-1"),
		value("run-code-escape-raw-non-ascii-every-length", "Non-ASCII code points of every UTF-8 length stay raw: U+0080, U+07FF, U+0800, U+FFFD, U+FFFF, U+10000 and U+10FFFF, and U+2028/U+2029 too.",
			nobj("s", "\u0080\u07ff\u0800\ufffd\uffff\U00010000\U0010ffff\u2028\u2029"), "CODE-STR-1"),
		value("run-code-escape-lone-surrogates-in-logs-and-keys", "A lone surrogate in a key and in an array value is escaped in the rendered JSON, paired surrogates stay raw.",
			jsonjs.ObjectValue(jsonjs.Member{Key: "k\xed\xa0\x80", Value: narr("\xed\xb0\x80", "\U0001f600")}), "CODE-STR-1"),
		namedCase(reference.OpRunCodeResult, "run-code-string-result-lone-surrogate-verbatim", "A string result is shown verbatim, so its lone surrogate reaches the content unescaped (the content string holds the code unit).",
			nRunIn(args, nRunValue([]string{"log \xed\xa4\xb4"}, nv("r \xed\xb4\x9e"))), "CODE-JSON-1", "CODE-STR-1"),
	}
}

// everyControl is U+0000..U+001F in order.
func everyControl() string {
	var b strings.Builder
	for c := byte(0); c < 0x20; c++ {
		b.WriteByte(c)
	}
	return b.String()
}
