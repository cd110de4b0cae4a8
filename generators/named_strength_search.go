package generators

import (
	"strconv"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// namedStrengthSearch pins the meta byte cap where only generated cases
// reached it: one file group holding several matches over the cap, every
// boundary (size - 1, size, size + 1) for both shapes, the default cap met
// exactly, and huge settings clamped (SEARCH-CAP-*, SEARCH-CFG-2).
func namedStrengthSearch() []Case {
	g := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpGrepResult, name, description, input, reqs...)
	}
	gl := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpGlobResult, name, description, input, reqs...)
	}
	// a.ts with one match, then b.ts with five: the uncapped meta is 340
	// bytes; a.ts alone with truncated:true is 116.
	var specs []string
	specs = append(specs, "a.ts:1:first")
	for i := 2; i <= 6; i++ {
		specs = append(specs, "b.ts:"+strconv.Itoa(i)+":hit number "+strconv.Itoa(i))
	}
	two := nMatches(specs...)
	five := nMatches(specs[1:]...) // b.ts alone: 280 bytes
	grepCap := func(name, description string, m jsonjs.Value, c int, reqs ...string) Case {
		return g(name, description, nGrepIn(nPattern("."), m, nConfig("maxMetaBytes", c)), reqs...)
	}
	// Three paths: 91 bytes uncapped, the first two with truncated:true 77.
	paths := []string{"src/a.ts", "src/bb.ts", "src/ccc.ts"}
	globCap := func(name, description string, c int, reqs ...string) Case {
		return gl(name, description, nGlobIn(nobj("pattern", "src/*"), ".", paths, nGlobCfg(0, false, "maxMetaBytes", c)), reqs...)
	}
	return []Case{
		grepCap("meta-cap-group-of-five-size-plus-one", "The 340-byte meta of a 1-match group and a 5-match group fits C = 341 unchanged.", two, 341, "SEARCH-CAP-1"),
		grepCap("meta-cap-group-of-five-size", "At C = 340 the meta fits exactly and stays `truncated:false`.", two, 340, "SEARCH-CAP-1", "SEARCH-CAP-2"),
		grepCap("meta-cap-group-of-five-size-minus-one", "At C = 339 `truncated:true` saves the one byte: both groups kept, all five matches of the last one.", two, 339, "SEARCH-CAP-3", "SEARCH-CAP-4"),
		grepCap("meta-cap-group-of-five-dropped-whole", "At C = 338 the five-match group is dropped whole, never trimmed to the matches that would fit.", two, 338, "SEARCH-CAP-1", "SEARCH-CAP-2", "SEARCH-CAP-5"),
		grepCap("meta-cap-group-of-five-room-for-some-matches", "At C = 250 there is room for a.ts and three of b.ts's matches, but groups are kept or dropped whole, so only a.ts remains.", two, 250, "SEARCH-CAP-2", "SEARCH-CAP-5"),
		grepCap("meta-cap-single-group-of-five-over-cap", "One 280-byte group of five matches at C = 200 is kept whole with `truncated:true`: the card is never empty and the group is not trimmed.", five, 200, "SEARCH-CAP-3", "SEARCH-CAP-5"),
		globCap("glob-meta-cap-size-plus-one", "The 91-byte paths meta fits C = 92 unchanged.", 92, "SEARCH-CAP-1"),
		globCap("glob-meta-cap-size", "At C = 91 the paths meta fits exactly.", 91, "SEARCH-CAP-1", "SEARCH-CAP-2"),
		globCap("glob-meta-cap-size-minus-one", "At C = 90 `truncated:true` saves the byte and every path is kept.", 90, "SEARCH-CAP-3", "SEARCH-CAP-4"),
		globCap("glob-meta-cap-size-minus-two", "At C = 89 the last path is dropped: two paths with `truncated:true` are 77 bytes.", 89, "SEARCH-CAP-1", "SEARCH-CAP-2"),
		globCap("glob-meta-cap-first-path-exact", "At C = 77 two paths fit exactly with `truncated:true`.", 77, "SEARCH-CAP-2"),
		globCap("glob-meta-cap-first-path-one-under", "At C = 76 only the first path remains.", 76, "SEARCH-CAP-2", "SEARCH-CAP-5"),
		g("meta-cap-measures-negative-and-huge-line-numbers", "Line numbers -12 and 1e15 are measured by their JSON.stringify digits: the 159-byte meta fits C = 159 unchanged.",
			nGrepIn(nPattern("."), narr(nMatch("a.ts", -12, "xy"), nMatch("a.ts", 1000000000000000, "z")), nConfig("maxMetaBytes", 159)), "SEARCH-JSON-1", "SEARCH-CAP-1"),
		g("meta-cap-measures-line-numbers-one-under", "The same meta at C = 158 needs `truncated:true`.",
			nGrepIn(nPattern("."), narr(nMatch("a.ts", -12, "xy"), nMatch("a.ts", 1000000000000000, "z")), nConfig("maxMetaBytes", 158)), "SEARCH-JSON-1", "SEARCH-CAP-3"),
		g("grep-args-include-comma-after-brace-group", "In `{a,b},c` the first comma is inside braces and the second at depth 0 after the group closes, so the include is a rejected list.",
			nGrepIn(nobj("pattern", "x", "include", "{a,b},c"), nMatches("a.ts:1:x")), "SEARCH-ARGS-1"),
		g("meta-cap-control-escapes-one-under", "A line of U+0001, TAB, DEL and BS measures 123 bytes with its JSON.stringify escapes; at C = 122 the meta needs `truncated:true`.",
			nGrepIn(nPattern("."), narr(nMatch("a.ts", 1, "\x01\t\x7f\b")), nConfig("maxMetaBytes", 122)), "SEARCH-JSON-1", "SEARCH-JSON-2", "SEARCH-CAP-3"),
		g("meta-cap-measures-quote-and-backslash", "`\"` and `\\` in a line are measured as their 2-byte escapes: the 119-byte meta of `a\"b\\c` fits C = 119 unchanged.",
			nGrepIn(nPattern("."), narr(nMatch("a.ts", 1, "a\"b\\c")), nConfig("maxMetaBytes", 119)), "SEARCH-JSON-1", "SEARCH-CAP-1"),
		g("meta-cap-measures-quote-and-backslash-one-under", "The same meta at C = 118 needs `truncated:true`.",
			nGrepIn(nPattern("."), narr(nMatch("a.ts", 1, "a\"b\\c")), nConfig("maxMetaBytes", 118)), "SEARCH-JSON-1", "SEARCH-CAP-3"),
		g("grep-default-meta-cap-exactly-65536", "Without config a meta of exactly 65536 bytes (34 files, 33 lines of 1900 bytes and one of 781) fits the default searchMetaMaxBytes unchanged.",
			nGrepIn(nPattern("x"), nLongFiles(34, 1900, 781)), "SEARCH-CFG-1", "SEARCH-CAP-1"),
		g("grep-default-meta-cap-65537", "One byte more (a last line of 782) no longer fits the default cap: `truncated:true` saves the byte and every group is kept.",
			nGrepIn(nPattern("x"), nLongFiles(34, 1900, 782)), "SEARCH-CFG-1", "SEARCH-CAP-3"),
		g("grep-config-huge-max-matches", "maxMatches 1e300 is a positive integer: every one of 300 matches is kept, past the default 250.",
			nGrepIn(nPattern("hit"), nManyMatches("a.ts", 300, "hit"), nConfig("maxMatches", 1e300)), "SEARCH-CFG-2", "SEARCH-CFG-1"),
		g("grep-config-huge-max-meta-and-line-bytes", "maxMetaBytes and maxLineBytes of 2^53 are positive integers that never cut a 3000-byte line or its meta.",
			nGrepIn(nPattern("x"), narr(nMatch("a.ts", 1, nrep("x", 3000))), nConfig("maxLineBytes", 9007199254740992.0, "maxMetaBytes", 9007199254740992.0)), "SEARCH-CFG-2", "SEARCH-PREVIEW-2"),
		gl("glob-config-sample-over-cap-null", ThrowsPrefix+"sampleOverCap null counts as missing: the config fails with the missing-value message, not the boolean one.",
			nGlobIn(nobj("pattern", "*"), ".", []string{"a"}, nobj("sampleOverCap", nil)), "SEARCH-CFG-2"),
		gl("glob-config-huge-max-results", "maxResults 1e300 keeps all 120 paths inline, past the default 100.",
			nGlobIn(nobj("pattern", "*"), ".", nnumbered("f", 1, 120, 3, ".ts"), nGlobCfg(0, false, "maxResults", 1e300)), "SEARCH-CFG-2", "SEARCH-GLOB-2"),
		g("grep-value-match-without-line-number-invalid-output", "A match without lineNumber breaks grep's output schema: lineNumber is required like path and line.",
			nGrepIn(nPattern("x"), narr(nobj("path", "a", "line", "x"))), "SEARCH-VAL-1"),
	}
}

// nLongFiles is n one-match files f100.ts…: n-1 lines of width bytes, then
// one of last bytes.
func nLongFiles(n, width, last int) jsonjs.Value {
	items := make([]jsonjs.Value, n)
	for i := range items {
		w := width
		if i == n-1 {
			w = last
		}
		items[i] = nMatch("f"+strconv.Itoa(100+i)+".ts", i+1, nrep("x", w))
	}
	return jsonjs.ArrayValue(items...)
}
