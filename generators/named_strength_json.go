package generators

import (
	"strings"

	"github.com/dsh-conform/conform/reference"
)

// nEDLead is U+D000, U+D55C and U+D7FF: characters whose UTF-8 starts with
// the byte ED like a lone surrogate's WTF-8 (ED A0..BF), but whose second
// byte (80..9F) makes them ordinary code points.
const nEDLead = "\ud000\ud55c\ud7ff"

// namedStrengthJSON pins the JSON.stringify writing and sizing of strings
// where a harness meets them outside run_code's number and escape tables
// (named_strength_codemode.go): characters that share a lone surrogate's
// lead byte, and every escape class inside meta paths, which the meta byte
// cap measures and views pass through (CODE-STR-1, SEARCH-JSON-1,
// SEARCH-NARROW-7, RET-UTF8-3). Found by mutation testing of the reference
// (docs/mutation.md).
func namedStrengthJSON() []Case {
	args := nCodeArgs("return value;", "Render the value")
	grepCap := func(name, description, path, line string, c int, reqs ...string) Case {
		return namedCase(reference.OpGrepResult, name, description,
			nGrepIn(nPattern("."), narr(nMatch(path, 1, line)), nConfig("maxMetaBytes", c)), reqs...)
	}
	globCap := func(name, description, path string, c int, reqs ...string) Case {
		return namedCase(reference.OpGlobResult, name, description,
			nGlobIn(nPattern("*"), ".", []string{path}, nGlobCfg(0, false, "maxMetaBytes", c)), reqs...)
	}
	// Every class of code unit JSON.stringify escapes or keeps, in a path.
	escapes := "p\"\\\x01\n\x1f\x7f\u2028\u2029é" + nEDLead + nLoneLow + nLoneHigh + "\U0001f600"
	// A glob path cannot hold a line feed (ripgrep --files lists paths one a
	// line), so it has a backspace, the same 2-byte escape.
	globPath := strings.Replace(escapes, "\n", "\b", 1)
	return []Case{
		namedCase(reference.OpRunCodeResult, "run-code-escape-ed-lead-characters-raw", "U+D000, U+D55C and U+D7FF begin with the byte ED like a lone surrogate but are ordinary characters: they stay raw, while the lone U+D800 and U+DFFF beside them are escaped.",
			nRunIn(args, nRunValue(nil, nobj("s", nEDLead+"\ue000", "lone", nLoneHigh+"\ud7ff"+nLoneLow))), "CODE-STR-1"),
		grepCap("meta-cap-measures-ed-lead-characters", "U+D000, U+D55C and U+D7FF in a path measure 3 bytes each, raw, beside the 6-byte escape of a lone surrogate; in the line they stay too, and only its lone surrogate becomes U+FFFD: the 136-byte meta fits C = 136 unchanged.",
			"a"+nEDLead+nLoneHigh, nEDLead+nLoneHigh, 136, "SEARCH-JSON-1", "SEARCH-CAP-1"),
		grepCap("meta-cap-measures-ed-lead-characters-one-under", "The same meta at C = 135 needs `truncated:true`.",
			"a"+nEDLead+nLoneHigh, nEDLead+nLoneHigh, 135, "SEARCH-JSON-1", "SEARCH-CAP-3"),
		grepCap("meta-cap-measures-every-escape-class-in-path", "A path holding `\"`, `\\`, U+0001, LF, U+001F (escaped: 2, 2, 6, 2, 6 bytes), DEL, U+2028, U+2029, é, U+D000..U+D7FF, an emoji (raw) and a low then a high lone surrogate (6 bytes each) is measured by its JSON.stringify bytes: the 162-byte meta fits C = 162 unchanged.",
			escapes, "x", 162, "SEARCH-JSON-1", "SEARCH-JSON-2", "SEARCH-CAP-1"),
		grepCap("meta-cap-measures-every-escape-class-in-path-one-under", "The same meta at C = 161 needs `truncated:true`.",
			escapes, "x", 161, "SEARCH-JSON-1", "SEARCH-JSON-2", "SEARCH-CAP-3"),
		globCap("glob-meta-cap-measures-every-escape-class-in-path", "The same path, with a backspace for its line feed, in a glob paths meta is measured by the same JSON.stringify bytes: the 111-byte meta fits C = 111 unchanged.",
			globPath, 111, "SEARCH-JSON-1", "SEARCH-JSON-2", "SEARCH-CAP-1"),
		globCap("glob-meta-cap-measures-every-escape-class-in-path-one-under", "The same meta at C = 110 needs `truncated:true`.",
			globPath, 110, "SEARCH-JSON-1", "SEARCH-JSON-2", "SEARCH-CAP-3"),
		namedCase(reference.OpSearchPresent, "presenter-view-keeps-every-escape-class", "A path and a line holding every escape class pass into the view unchanged: controls, `\"`, `\\`, DEL, U+2028, U+2029, U+D000..U+D7FF, an emoji and lone surrogates.",
			nPresentIn("grep", nResult(false, nobj("shape", "matches", "files", narr(nobj("path", escapes, "matches", narr(nobj("lineNumber", 1, "line", escapes)))), "truncated", false, "total", 1))), "SEARCH-NARROW-5", "SEARCH-NARROW-7"),
		namedCase(reference.OpSpillPreview, "spill-preview-ed-lead-characters-not-replaced", "A preview keeps U+D000, U+D55C and U+D7FF as they are: only the lone surrogate between them is encoded as U+FFFD.",
			nSpillIn(nEDLead+nLoneHigh+nEDLead+nrep("a", 1000), 300, nRefA()), "SPILL-PREV-3", "RET-UTF8-3"),
	}
}
