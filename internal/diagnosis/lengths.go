package diagnosis

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// The length models: text measured in another unit than UTF-8 bytes where
// the contract counts bytes. A JavaScript or Java port that measures its
// JSON with String.length counts UTF-16 code units; a Python port's len()
// of a str, Rust's chars().count() and Go's utf8.RuneCountInString count
// code points. The meta's cap measure (SEARCH-JSON-1) is run with that
// unit (reference.Dialect.MetaString).

func lengthModels() []Model {
	return []Model{
		{
			Name:      "length-utf16",
			Behaves:   "the meta's JSON measured in UTF-16 code units, not UTF-8 bytes: é counts 1, 😀 2",
			Functions: []string{"TypeScript: JSON.stringify(meta).length", "Java: String.length()", "C#: string.Length"},
			Fix:       "count the UTF-8 bytes of the JSON text (TypeScript: Buffer.byteLength(text, 'utf8'); Java: text.getBytes(UTF_8).length; C#: Encoding.UTF8.GetByteCount)",
			variants:  lengthVariants(utf16Len),
		},
		{
			Name:      "length-code-points",
			Behaves:   "the meta's JSON measured in code points, not UTF-8 bytes: é and 😀 count 1",
			Functions: []string{"Python: len(str)", "Rust: str::chars().count()", "Go: utf8.RuneCountInString"},
			Fix:       "count the UTF-8 bytes of the JSON text (Python: len(text.encode('utf-8')); Rust: str::len; Go: len(s))",
			variants:  lengthVariants(utf8.RuneCountInString),
		},
	}
}

// lengthVariants measures each meta string's JSON.stringify literal with
// count, where a meta place holds a non-ASCII string.
func lengthVariants(count func(string) int) func(string, jsonjs.Value) []Variant {
	size := func(s string) int { return count(string(jsonjs.AppendString(nil, s))) }
	return stringVariants(nonASCII, reference.Dialect{}, "", reference.Dialect{MetaString: size}, "SEARCH-JSON-1")
}

func nonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// utf16Len is a string's length in UTF-16 code units (a lone surrogate,
// escaped in a literal, never reaches it).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// previewModels cut grep's line previews (SEARCH-PREVIEW-1) in UTF-16
// units or code points where the contract's head retainer counts UTF-8
// bytes: a TypeScript port's line.length and line.slice(0, n), a Python
// port's len(line) and line[:n]. What is kept is decoded as the retainer
// decodes it (a BOM dropped, a split surrogate pair U+FFFD), so that the
// unit is the one difference.
func previewModels() []Model {
	return []Model{
		{
			Name: "preview-utf16", Requirement: "SEARCH-PREVIEW-1",
			Behaves:   "grep's line preview measured and cut in UTF-16 code units, not UTF-8 bytes (a line of 2000 'é' is not cut at maxLineBytes 2000)",
			Functions: []string{"TypeScript: line.length, line.slice(0, n)", "Java: String.length(), substring(0, n)", "C#: string.Length, Substring(0, n)"},
			Fix:       "cut the UTF-8 bytes of the line with a head retainer (TextEncoder, then drop a partial code point at the end)",
			variants:  previewVariant(utf16Cut),
		},
		{
			Name: "preview-code-points", Requirement: "SEARCH-PREVIEW-1",
			Behaves:   "grep's line preview measured and cut in code points, not UTF-8 bytes",
			Functions: []string{"Python: len(line), line[:n]", "Rust: line.chars().take(n)", "Go: []rune(line)[:n]"},
			Fix:       "cut the UTF-8 bytes (Python: line.encode('utf-8')[:n], then drop a partial code point at the end)",
			variants:  previewVariant(codePointCut),
		},
	}
}

// previewVariant cuts grep's previews with cut where some line's UTF-8
// length is over maxLineBytes and it holds non-ASCII: below the budget
// nothing is cut in any unit, and in ASCII the units are bytes.
func previewVariant(cut func(string, int) (string, bool)) func(string, jsonjs.Value) []Variant {
	return func(op string, input jsonjs.Value) []Variant {
		if op != "grep.result" {
			return nil
		}
		limit := float64(search.DefaultGrepMaxLineBytes)
		if v, ok := at(input, []string{"config", "maxLineBytes"}); ok {
			if x, ok := v.Float(); ok {
				limit = x
			}
		}
		if !anyAt(input, []string{"value", "matches", "*", "line"}, func(s string) bool {
			return nonASCII(s) && float64(jsonjs.UTF8Len(s)) > limit
		}) {
			return nil
		}
		return []Variant{{Input: input, Dialect: reference.Dialect{PreviewCut: cut},
			Shows: []string{"content", "spillText", "meta", "view"}}}
	}
}

// codePointCut keeps the first max code points (a lone surrogate is one).
func codePointCut(s string, max int) (string, bool) {
	n, end := 0, len(s)
	eachUnit(s, func(i, _ int, _ rune) {
		if n == max && end == len(s) {
			end = i
		}
		n++
	})
	return s[:end], n > max
}

// utf16Cut keeps the first max UTF-16 code units: a pair the cut splits
// leaves its high surrogate, lone (WTF-8), as String.slice does.
func utf16Cut(s string, max int) (string, bool) {
	units, out := 0, -1
	var high []byte
	eachUnit(s, func(i, _ int, r rune) {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if out < 0 && units+w > max {
			out = i
			if w == 2 && units+1 == max {
				hi, _ := utf16.EncodeRune(r)
				high = []byte{0xED, 0x80 | byte(hi>>6)&0x3F, 0x80 | byte(hi)&0x3F}
			}
		}
		units += w
	})
	if out < 0 {
		return s, false
	}
	return s[:out] + string(high), true
}
