package diagnosis

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The decoder models: the bytes a harness retains turned into text by
// another library's UTF-8 decoder than TextDecoder's (RET-UTF8-3: one
// leading BOM removed, each maximal ill-formed subsequence one U+FFFD).
// The reference is run with that decoder (reference.Dialect); the rule
// broken is the one that decodes in the op the case runs.

// decodeRule is, per op, the rule that makes its text with the retainer's
// decoder.
var decodeRule = map[string]string{
	"retain.text":   "RET-UTF8-3",
	"grep.result":   "SEARCH-PREVIEW-3", // each line's preview
	"spill.preview": "SPILL-PREV-3",     // the preview is a headTail retainer over the text
}

func decoderModels() []Model {
	return []Model{
		{
			Name:      "utf8-bom-kept",
			Behaves:   "a UTF-8 decoder that keeps a leading BOM: U+FEFF stays at the start of each decoded buffer (the whole text, a head or a tail cut)",
			Functions: []string{"Python: bytes.decode('utf-8', errors='replace'), codecs 'utf-8'", "Rust: String::from_utf8_lossy, str::from_utf8", "C#: Encoding.UTF8.GetString", "Java: new String(bytes, UTF_8)"},
			Fix:       "drop one leading EF BB BF of each buffer before decoding (Python: decode('utf-8-sig', 'replace'); Rust: strip_prefix('\\u{feff}')); it still counts as kept",
			variants:  dialectVariant(withBOM, reference.Dialect{Decode: jsonjs.DecodeUTF8}),
		},
		{
			Name:      "utf8-replace-per-byte",
			Behaves:   "a UTF-8 decoder that writes one U+FFFD per invalid byte, not per maximal ill-formed subsequence, and keeps a leading BOM",
			Functions: []string{"Go: for range over a string, []rune(s), utf8.DecodeRune"},
			Fix:       "decode as WHATWG does: one U+FFFD per maximal subpart of an ill-formed sequence (E2 82 then an end is one U+FFFD)",
			variants:  dialectVariant(withInvalidUTF8, reference.Dialect{Decode: decodePerByte}),
		},
		{
			Name:        "utf8-strict",
			Requirement: "RET-UTF8-3",
			Behaves:     "a strict UTF-8 decoder: bytes that are not UTF-8 are refused (a thrown error or an error result)",
			Functions:   []string{"Python: bytes.decode('utf-8')", "Rust: String::from_utf8, str::from_utf8", "Java: CharsetDecoder with CodingErrorAction.REPORT", "C#: new UTF8Encoding(false, true)"},
			Fix:         "decode with replacement: Python errors='replace', Rust String::from_utf8_lossy",
			place: func(op string, input jsonjs.Value) (string, bool) {
				return "RET-UTF8-3", op == "retain.text" && withInvalidUTF8(op, input)
			},
			fails: func(string, jsonjs.Value) bool { return true },
			says:  regexp.MustCompile(`(?i)utf-?8|unicode|decod|invalid|byte|codec`),
		},
	}
}

// dialectVariant is a model's one variant: the input as given, the
// reference run in dialect d, where applies finds the input can tell.
func dialectVariant(applies func(string, jsonjs.Value) bool, d reference.Dialect) func(string, jsonjs.Value) []Variant {
	return func(op string, input jsonjs.Value) []Variant {
		req, ok := decodeRule[op]
		if !ok || !applies(op, input) {
			return nil
		}
		return []Variant{{Input: input, Requirement: req, Dialect: d}}
	}
}

// decodedTexts are the places of each op whose bytes the retainer decodes.
var decodedTexts = map[string][][]string{
	"retain.text":   {{"chunks", "*"}},
	"grep.result":   {{"value", "matches", "*", "line"}},
	"spill.preview": {{"text"}, {"blocks", "*", "text"}},
}

// withBOM reports whether a decoded place holds U+FEFF (a cut may start
// there) or retain.text's raw chunks hold EF BB BF.
func withBOM(op string, input jsonjs.Value) bool {
	return inDecoded(op, input, func(s string) bool { return strings.Contains(s, "\uFEFF") }, "\xEF\xBB\xBF")
}

// withInvalidUTF8 reports whether retain.text's raw chunks are not UTF-8:
// strings encode to valid UTF-8, and cuts are trimmed to whole sequences.
func withInvalidUTF8(op string, input jsonjs.Value) bool {
	return op == "retain.text" && inDecoded(op, input, func(string) bool { return false }, "")
}

// inDecoded reports whether a decoded string place satisfies pred, or the
// bytes of retain.text's chunksBase64 hold raw (or, raw "", are not UTF-8).
func inDecoded(op string, input jsonjs.Value, pred func(string) bool, raw string) bool {
	for _, p := range decodedTexts[op] {
		if anyAt(input, p, pred) {
			return true
		}
	}
	if op != "retain.text" {
		return false
	}
	chunks, _ := input.Get("chunksBase64")
	items, _ := chunks.Items()
	var all []byte
	for _, c := range items {
		s, _ := c.Str()
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return false
		}
		all = append(all, b...)
	}
	if raw == "" {
		return !utf8.Valid(all)
	}
	return strings.Contains(string(all), raw)
}

// decodePerByte is Go's decoding by ranging over a string: each byte that
// starts no valid sequence is one U+FFFD; a BOM is kept.
func decodePerByte(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var out strings.Builder
	for _, r := range string(b) {
		out.WriteRune(r)
	}
	return out.String()
}
