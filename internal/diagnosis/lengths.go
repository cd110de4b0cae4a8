package diagnosis

import (
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
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
