package fuzz

import (
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// rare-text: characters the typed generators' string atoms never hold,
// put into the free-text members of an input (issue 22, item 6: three
// mutants golden-killed but missed by 14,000 fuzz cases wanted them):
//
//   - astral characters U+10000–U+103FF, whose escaped surrogate pair
//     starts with \uD800 exactly (the respelled writing below escapes
//     them at times);
//   - ECMAScript whitespace beyond ASCII (U+2000 EN QUAD and its
//     neighbours, U+FEFF, …) and U+0085, which ECMAScript keeps: argument
//     blankness (SEARCH-ARGS-3) and trims;
//   - a lone surrogate right before a multi-byte character, where a UTF-8
//     encoder must write U+FFFD and go on in step (RET-UTF8-3,
//     SPILL-RES-2).
//
// The input stays valid: only strings the op takes as free text change.

// textPaths are those members of each op input, by path of member names
// ("*": every element of an array).
var textPaths = map[string][][]string{
	"grep.result": {
		{"value", "matches", "*", "line"}, {"value", "matches", "*", "path"},
		{"args", "pattern"}, {"args", "path"}, {"args", "include"},
	},
	"glob.result":     {{"value", "paths", "*"}, {"args", "pattern"}, {"args", "path"}},
	"search.present":  {{"args", "pattern"}, {"args", "path"}, {"args", "include"}},
	"run_code.result": {{"run", "logs", "*"}, {"run", "result"}, {"run", "error", "message"}, {"args", "description"}},
	"retain.items":    {{"items", "*"}},
	"retain.text":     {{"chunks", "*"}},
	"spill.preview":   {{"text"}, {"blocks", "*", "text"}},
}

// esSpace is whitespace ECMAScript's trim strips beyond ASCII, and U+0085,
// which it keeps (Python's and Unicode's sets strip it).
var esSpace = []rune{
	0x00A0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
	0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
	0x0085,
}

// multiByte follows a lone surrogate: two, three and four UTF-8 bytes.
var multiByte = []string{"é", "€", "\U0001F600", "\U00010000"}

// rareAtom draws one rare piece of text (WTF-8).
func rareAtom(t *rapid.T) string {
	switch rapid.IntRange(0, 2).Draw(t, "rareKind") {
	case 0:
		return string(rune(rapid.IntRange(0x10000, 0x103FF).Draw(t, "astral")))
	case 1:
		return string(rapid.SampledFrom(esSpace).Draw(t, "space"))
	default:
		u := rapid.IntRange(0xD800, 0xDFFF).Draw(t, "surrogate")
		lone := string([]byte{0xED, byte(0x80 | u>>6&0x3F), byte(0x80 | u&0x3F)})
		return lone + rapid.SampledFrom(multiByte).Draw(t, "after")
	}
}

// rareText puts rare atoms into some free-text strings of the input, at
// least one, and writes it as respelled does (escapes drawn).
func rareText(op string) func(t *rapid.T, in any) any {
	return func(t *rapid.T, in any) any {
		typed, v, ok := unshape(in)
		if !ok {
			return in
		}
		changed := false
		for _, p := range textPaths[op] {
			v = withRareText(t, v, p, &changed, false)
		}
		for i := 0; !changed && i < len(textPaths[op]); i++ {
			v = withRareText(t, v, textPaths[op][i], &changed, true)
		}
		if !changed {
			return in
		}
		return shaped{typed: typed, text: appendRespelled(t, nil, v)}
	}
}

// withRareText changes the strings at path below v, each at times (always
// with force).
func withRareText(t *rapid.T, v jsonjs.Value, path []string, changed *bool, force bool) jsonjs.Value {
	if len(path) == 0 {
		s, ok := v.Str()
		if !ok || !(force || rapid.IntRange(0, 3).Draw(t, "rare") == 0) {
			return v
		}
		*changed = true
		return jsonjs.StringValue(rarer(t, s))
	}
	if path[0] == "*" {
		items, ok := v.Items()
		if !ok {
			return v
		}
		out := make([]jsonjs.Value, len(items))
		for i, it := range items {
			out[i] = withRareText(t, it, path[1:], changed, force && i == 0)
		}
		return jsonjs.ArrayValue(out...)
	}
	child, ok := v.Get(path[0])
	if !ok {
		return v
	}
	return v.With(path[0], withRareText(t, child, path[1:], changed, force))
}

// rarer is s with one to three atoms inserted at character boundaries, or
// replaced by whitespace atoms alone (a blank argument), one time in four.
func rarer(t *rapid.T, s string) string {
	if rapid.IntRange(0, 3).Draw(t, "blank") == 0 {
		out := ""
		for range rapid.IntRange(1, 3).Draw(t, "spaces") {
			out += string(rapid.SampledFrom(esSpace).Draw(t, "space"))
		}
		return out
	}
	for range rapid.IntRange(1, 3).Draw(t, "atoms") {
		at := boundaries(s)
		i := at[rapid.IntRange(0, len(at)-1).Draw(t, "at")]
		s = s[:i] + rareAtom(t) + s[i:]
	}
	return s
}

// boundaries are the offsets of s between characters, a lone surrogate
// (WTF-8: ED A0–BF xx) being one character.
func boundaries(s string) []int {
	at := []int{0}
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		if size <= 1 && i+3 <= len(s) && s[i] == 0xED && s[i+1] >= 0xA0 {
			size = 3
		}
		i += size
		at = append(at, i)
	}
	return at
}
