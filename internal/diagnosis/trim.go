package diagnosis

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The trim models (SEARCH-ARGS-3): "blank after trim" with another
// language's whitespace set than ECMAScript's. A model decides blankness of
// the arguments each op trims its own way; where it differs from
// ECMAScript's, the reference is given the argument its decision implies:
// "" where the model finds blank what JavaScript keeps, a non-blank stand-in
// where it keeps what JavaScript finds blank.

// trimmed are the string arguments each op tests for blankness.
var trimmed = map[string][]string{
	"grep.result":     {"path", "include"},
	"glob.result":     {"pattern", "path"},
	"run_code.result": {"description"},
}

// standIn is what a kept argument becomes: not blank in any language. It
// shows in the call view, which the models therefore mark as perturbed.
const standIn = "x"

func trimModels() []Model {
	unicodeWS := func(r rune) bool { // Unicode White_Space
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
			return true
		}
		return r >= 0x2000 && r <= 0x200A
	}
	return []Model{
		{
			Name: "trim-python", Requirement: "SEARCH-ARGS-3",
			Behaves:   "Python's whitespace set (str.strip): U+0085 and U+001C–U+001F stripped, U+FEFF kept",
			Functions: []string{"Python: str.strip(), str.isspace()"},
			Fix:       "strip exactly ECMAScript's set: s.strip(' \\t\\n\\v\\f\\r\\xa0\\u1680\\u2000…\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff')",
			variants: one(trimRewrite(func(r rune) bool {
				return unicodeWS(r) || (r >= 0x1C && r <= 0x1F)
			}), "callView"),
		},
		{
			Name: "trim-unicode", Requirement: "SEARCH-ARGS-3",
			Behaves:   "the Unicode White_Space set: U+0085 stripped, U+FEFF kept",
			Functions: []string{"Go: strings.TrimSpace, unicode.IsSpace", "Rust: str::trim, char::is_whitespace", "C#: String.Trim(), char.IsWhiteSpace"},
			Fix:       "trim with ECMAScript's set: TAB, LF, VT, FF, CR, SPACE, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF",
			variants:  one(trimRewrite(unicodeWS), "callView"),
		},
		{
			Name: "trim-java-trim", Requirement: "SEARCH-ARGS-3",
			Behaves:   "Java's String.trim: every code point up to U+0020 stripped, no other",
			Functions: []string{"Java: String.trim()"},
			Fix:       "test each code point against ECMAScript's whitespace set instead of c <= ' '",
			variants:  one(trimRewrite(func(r rune) bool { return r <= 0x20 }), "callView"),
		},
		{
			Name: "trim-java-strip", Requirement: "SEARCH-ARGS-3",
			Behaves:   "Java's Character.isWhitespace (String.strip): U+001C–U+001F stripped; U+00A0, U+2007, U+202F and U+FEFF kept",
			Functions: []string{"Java: String.strip(), String.isBlank(), Character.isWhitespace"},
			Fix:       "test each code point against ECMAScript's whitespace set",
			variants: one(trimRewrite(func(r rune) bool {
				switch r {
				case 0xA0, 0x2007, 0x202F, 0x85:
					return false
				}
				return unicodeWS(r) || (r >= 0x1C && r <= 0x1F)
			}), "callView"),
		},
	}
}

// trimRewrite is a trim model's rewrite for a whitespace set.
func trimRewrite(space func(rune) bool) func(string, jsonjs.Value) (jsonjs.Value, bool) {
	blank := func(s string) bool {
		for _, r := range s {
			if !space(r) {
				return false
			}
		}
		return true
	}
	return func(op string, input jsonjs.Value) (jsonjs.Value, bool) {
		args, ok := input.Get("args")
		if !ok {
			return input, false
		}
		changed := false
		for _, key := range trimmed[op] {
			v, ok := args.Get(key)
			s, isStr := v.Str()
			if !ok || !isStr {
				continue
			}
			switch model, js := blank(s), jsonjs.IsBlank(s); {
			case model && !js:
				args, changed = args.With(key, jsonjs.StringValue("")), true
			case js && !model:
				args, changed = args.With(key, jsonjs.StringValue(standIn)), true
			}
		}
		if !changed {
			return input, false
		}
		return input.With("args", args), true
	}
}
