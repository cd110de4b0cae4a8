package diagnosis

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The escaping models: strings written into JSON by another library than
// JSON.stringify, which escapes only ", \, the C0 controls and lone
// surrogates and writes everything else raw (CODE-STR-1, SEARCH-JSON-1).
// The escaping shows where a harness writes JSON that conform compares, a
// run's rendered result (CODE-STR-1), and where it measures it, the search
// meta's byte size for the cap (SEARCH-JSON-1): the reference is run with
// that library's renderer or measure (reference.Dialect).

func escapeModels() []Model {
	return []Model{
		{
			Name:      "escape-ascii",
			Behaves:   "every non-ASCII character and U+007F written as a \\uXXXX escape (lowercase hex, a surrogate pair outside the BMP)",
			Functions: []string{"Python: json.dumps (ensure_ascii=True, the default)"},
			Fix:       "write non-ASCII raw (Python: json.dumps(v, ensure_ascii=False)) and escape only what JSON.stringify escapes",
			variants:  escapeVariants(asciiEscape),
		},
		{
			Name:      "escape-html",
			Behaves:   "<, > and & written as \\u003c, \\u003e, \\u0026 and U+2028, U+2029 as \\u2028, \\u2029 (HTML-safe JSON)",
			Functions: []string{"Go: encoding/json.Marshal, json.MarshalIndent, json.Encoder (SetEscapeHTML(true), the default)"},
			Fix:       "write <, >, &, U+2028 and U+2029 raw (Go: a writer of its own; SetEscapeHTML(false) still escapes U+2028/U+2029)",
			variants:  escapeVariants(htmlEscape),
		},
		{
			Name:      "escape-line-separators",
			Behaves:   "U+2028 and U+2029 written as \\u2028 and \\u2029",
			Functions: []string{"Go: json.Encoder with SetEscapeHTML(false)"},
			Fix:       "write U+2028 and U+2029 raw, as JSON.stringify does",
			variants:  escapeVariants(lineSeparatorEscape),
		},
		{
			Name:      "escape-gson",
			Behaves:   "<, >, &, = and ' written as \\u003c, \\u003e, \\u0026, \\u003d, \\u0027 and U+2028, U+2029 escaped",
			Functions: []string{"Java: Gson.toJson (HTML-safe by default)"},
			Fix:       "write them raw (Java: GsonBuilder().disableHtmlEscaping(), which still escapes U+2028/U+2029)",
			variants:  escapeVariants(gsonEscape),
		},
		{
			Name:      "escape-dotnet",
			Behaves:   "every non-ASCII character, U+007F and \" + ' < > & ` written as \\uXXXX (uppercase hex), a lone surrogate as \\uFFFD",
			Functions: []string{"C#: System.Text.Json JsonSerializer.Serialize, Utf8JsonWriter (JavaScriptEncoder.Default)"},
			Fix:       "use JavaScriptEncoder.UnsafeRelaxedJsonEscaping and write the rest as JSON.stringify does",
			variants:  escapeVariants(dotnetEscape),
		},
		{
			Name:      "surrogates-raw",
			Behaves:   "a lone surrogate written as the code unit itself, not as its \\udxxx escape (measured as 3 bytes in the meta)",
			Functions: []string{"Python: json.dumps(v, ensure_ascii=False), str.encode('utf-8', 'surrogatepass')", "TypeScript: JSON.stringify before ES2019 (Node.js < 12)"},
			Fix:       "escape a lone surrogate as \\udxxx (lowercase hex), as well-formed JSON.stringify does, and count the 6 bytes of that escape",
			variants:  escapeVariants(rawSurrogate),
		},
	}
}

// rawSurrogate writes a lone surrogate as itself (WTF-8).
func rawSurrogate(r rune) (string, bool) {
	if r < 0xD800 || r > 0xDFFF {
		return "", false
	}
	return string([]byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F}), true
}

// An escaper writes one code point of a string literal its own way (ok),
// or leaves it as JSON.stringify writes it. A lone surrogate comes as its
// code unit (0xD800–0xDFFF).
type escaper func(r rune) (string, bool)

func asciiEscape(r rune) (string, bool) {
	if r < 0x7F {
		return "", false
	}
	return unicodeEscape(r, false), true
}

func htmlEscape(r rune) (string, bool) {
	switch r {
	case '<', '>', '&':
		return unicodeEscape(r, false), true
	}
	return lineSeparatorEscape(r)
}

func lineSeparatorEscape(r rune) (string, bool) {
	if r == 0x2028 || r == 0x2029 {
		return unicodeEscape(r, false), true
	}
	return "", false
}

func gsonEscape(r rune) (string, bool) {
	if r == '=' || r == '\'' {
		return unicodeEscape(r, false), true
	}
	return htmlEscape(r)
}

func dotnetEscape(r rune) (string, bool) {
	switch {
	case r >= 0xD800 && r <= 0xDFFF:
		return `\uFFFD`, true
	case r == '"', r == '+', r == '\'', r == '<', r == '>', r == '&', r == '`', r >= 0x7F:
		return unicodeEscape(r, true), true
	case r < 0x20 && !strings.ContainsRune("\b\f\n\r\t", r):
		return unicodeEscape(r, true), true // \u001F where JSON.stringify writes \u001f
	}
	return "", false
}

// unicodeEscape is \uXXXX, a surrogate pair for a code point past the BMP.
func unicodeEscape(r rune, upper bool) string {
	const lower, upperDigits = "0123456789abcdef", "0123456789ABCDEF"
	digits := lower
	if upper {
		digits = upperDigits
	}
	one := func(u rune) string {
		return string([]byte{'\\', 'u', digits[u>>12&0xF], digits[u>>8&0xF], digits[u>>4&0xF], digits[u&0xF]})
	}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return one(hi) + one(lo)
	}
	return one(r)
}

// eachUnit calls f with each code point of a WTF-8 string and its byte
// span; a lone surrogate comes as its code unit.
func eachUnit(s string, f func(i, size int, r rune)) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 && i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			r, size = rune(s[i]&0x0F)<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3
		}
		f(i, size, r)
		i += size
	}
}

// appendEscaped appends s as a JSON string literal written with e.
func appendEscaped(dst []byte, s string, e escaper) []byte {
	plain := func(dst []byte, part string) []byte {
		lit := jsonjs.AppendString(nil, part)
		return append(dst, lit[1:len(lit)-1]...)
	}
	dst = append(dst, '"')
	start := 0
	eachUnit(s, func(i, size int, r rune) {
		if out, ok := e(r); ok {
			dst = append(plain(dst, s[start:i]), out...)
			start = i + size
		}
	})
	return append(plain(dst, s[start:]), '"')
}

// changes reports whether e writes s otherwise than JSON.stringify.
func changes(e escaper) func(string) bool {
	return func(s string) bool {
		changed := false
		eachUnit(s, func(_, _ int, r rune) {
			if _, ok := e(r); ok {
				changed = true
			}
		})
		return changed
	}
}

// reescaped is a JSON.stringify text with each string literal written by e.
func reescaped(text string, e escaper) string {
	var out []byte
	for {
		open := strings.IndexByte(text, '"')
		if open < 0 {
			return string(append(out, text...))
		}
		end := open + 1
		for end < len(text) && text[end] != '"' {
			if text[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(text) { // no literal of JSON.stringify's: leave the rest
			return string(append(out, text...))
		}
		lit, err := jsonjs.Parse([]byte(text[open : end+1]))
		s, ok := lit.Str()
		if err != nil || !ok {
			return string(append(out, text...))
		}
		out = appendEscaped(append(out, text[:open]...), s, e)
		text = text[end+1:]
	}
}

// metaStrings are, per op, the input places whose strings the meta holds.
var metaStrings = map[string][][]string{
	"grep.result": {{"value", "matches", "*", "path"}, {"value", "matches", "*", "line"}},
	"glob.result": {{"value", "paths", "*"}},
}

// escapeVariants renders a run's result with e (CODE-STR-1), or measures
// the meta's strings as e writes them (SEARCH-JSON-1), where e writes a
// string of those places otherwise than JSON.stringify.
func escapeVariants(e escaper) func(string, jsonjs.Value) []Variant {
	render := func(v jsonjs.Value) string {
		if _, ok := v.Str(); ok {
			return codemode.RenderValue(v) // CODE-JSON-1: the text itself, no literal
		}
		return reescaped(codemode.RenderValue(v), e)
	}
	size := func(s string) int { return len(appendEscaped(nil, s, e)) }
	return stringVariants(changes(e),
		reference.Dialect{Render: render}, "CODE-STR-1",
		reference.Dialect{MetaString: size}, "SEARCH-JSON-1")
}

// stringVariants is the one variant of a model that writes (render) or
// measures (meta) strings its own way, where applies finds a string it
// treats so in a run's non-string result or a meta place.
func stringVariants(applies func(string) bool, render reference.Dialect, renderReq string, meta reference.Dialect, metaReq string) func(string, jsonjs.Value) []Variant {
	return func(op string, input jsonjs.Value) []Variant {
		if op == "run_code.result" && renderReq != "" {
			result, ok := at(input, []string{"run", "result"})
			if _, isStr := result.Str(); !ok || isStr || !anyString(result, applies) {
				return nil
			}
			return []Variant{{Input: input, Requirement: renderReq, Dialect: render, Shows: []string{"content"}}}
		}
		for _, p := range metaStrings[op] {
			if anyAt(input, p, applies) { // the cap's decision shows in the meta and the view built from it
				return []Variant{{Input: input, Requirement: metaReq, Dialect: meta, Shows: []string{"meta", "view"}}}
			}
		}
		return nil
	}
}
