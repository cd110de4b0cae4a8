package generators

import (
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Spill references of the digest's search examples (search-card.md §6, §7).
const (
	nLocalHint = "Use read with offset/limit, or grep this path to search within it."
	nGrepLoc   = "/spill/session-ab12/x1y2-grep-results.txt"
	nGlobLoc   = "/spill/session-ab12/x1y2-glob-results.txt"
)

// nMatch is one canonical grep match.
func nMatch(path string, lineNumber int, line string) jsonjs.Value {
	return nobj("path", path, "lineNumber", lineNumber, "line", line)
}

// nMatches parses "path:lineNumber:line" specs (the path holds no colon;
// the line may).
func nMatches(specs ...string) jsonjs.Value {
	items := make([]jsonjs.Value, len(specs))
	for i, s := range specs {
		parts := strings.SplitN(s, ":", 3)
		n, err := strconv.Atoi(parts[1])
		if err != nil || len(parts) != 3 {
			panic("generators.nMatches: bad spec " + s)
		}
		items[i] = nMatch(parts[0], n, parts[2])
	}
	return jsonjs.ArrayValue(items...)
}

// nManyMatches returns n matches "hit" in one file, line numbers 1..n.
func nManyMatches(path string, n int, line string) jsonjs.Value {
	items := make([]jsonjs.Value, n)
	for i := range items {
		items[i] = nMatch(path, i+1, line)
	}
	return jsonjs.ArrayValue(items...)
}

// nGrepIn is a grep.result input; extra members are config, spill, nested.
func nGrepIn(args, matches jsonjs.Value, extra ...jsonjs.Member) jsonjs.Value {
	return nwith(nobj("args", args, "value", nobj("matches", matches)), extra...)
}

// nGlobIn is a glob.result input; config must hold sampleOverCap unless the
// case is about its absence.
func nGlobIn(args jsonjs.Value, root string, paths []string, config jsonjs.Value, extra ...jsonjs.Member) jsonjs.Value {
	return nwith(nobj("args", args, "value", nobj("root", root, "paths", paths), "config", config), extra...)
}

// nGlobCfg is a glob config with an explicit inline cap (0 = default) and
// sampling switch.
func nGlobCfg(maxResults int, sample bool, more ...any) jsonjs.Value {
	kv := []any{}
	if maxResults > 0 {
		kv = append(kv, "maxResults", maxResults)
	}
	kv = append(kv, more...)
	kv = append(kv, "sampleOverCap", sample)
	return nobj(kv...)
}

func nConfig(kv ...any) jsonjs.Member { return jsonjs.Member{Key: "config", Value: nobj(kv...)} }

func nSaved(locator, hint string) jsonjs.Member {
	return jsonjs.Member{Key: "spill", Value: nobj("saved", true, "locator", locator, "retrievalHint", hint)}
}

func nSaveFailed() jsonjs.Member {
	return jsonjs.Member{Key: "spill", Value: nobj("saved", false)}
}

func nNested() jsonjs.Member { return jsonjs.Member{Key: "nested", Value: jsonjs.BoolValue(true)} }

func nPattern(p string) jsonjs.Value { return nobj("pattern", p) }

func namedGrep() []Case {
	g := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpGrepResult, name, description, input, reqs...)
	}
	three := nMatches("a.ts:1:one", "a.ts:2:two", "b.ts:3:three")
	// preview builds a one-match case with a line budget (search-card.md §4).
	preview := func(name, description, line string, maxLineBytes int, reqs ...string) Case {
		return g(name, description, nGrepIn(nPattern("a"), narr(nMatch("a.txt", 1, line)), nConfig("maxLineBytes", maxLineBytes)), reqs...)
	}
	emoji := "a\U0001F600b" // 61 F0 9F 98 80 62
	// The cap table of search-card.md §12: three 114-byte groups.
	capThree := nMatches("a.ts:1:"+nrep("x", 60), "b.ts:2:"+nrep("y", 60), "c.ts:3:"+nrep("z", 60))
	capRow := func(name, description string, c int, reqs ...string) Case {
		return g(name, description, nGrepIn(nPattern("."), capThree, nConfig("maxMetaBytes", c)), reqs...)
	}
	zeroCap := func(name, description string, c int, reqs ...string) Case {
		return g(name, description, nGrepIn(nPattern("x"), narr(), nConfig("maxMetaBytes", c)), reqs...)
	}
	throws := func(name, description string, config jsonjs.Member, reqs ...string) Case {
		return g(name, ThrowsPrefix+description, nGrepIn(nPattern("x"), nMatches("a.ts:1:x"), config), reqs...)
	}
	argsCase := func(name, description string, args jsonjs.Value, reqs ...string) Case {
		return g(name, description, nGrepIn(args, nMatches("a.ts:1:x")), reqs...)
	}
	// JSC measure: "<>&" and a raw U+2028 count 3+3 bytes in JSON.stringify
	// but 18+6 in Go's default encoding (search-card.md SEARCH-JSON-2).
	jscMatches := nMatches("a.ts:1:if a<b && c>d", "b.ts:2:x\u2028y")
	return []Case{
		// search-card.md §6 render text examples.
		g("grep-text-zero-matches", "Zero matches render exactly `No matches found` with an empty, untruncated 58-byte meta (§6 row 1, §10 zero-match row).",
			nGrepIn(nPattern("x"), narr()), "SEARCH-GREP-1", "SEARCH-META-1", "SEARCH-META-2", "SEARCH-VAL-1"),
		g("grep-text-one-match", "One match gives the singular header `Found 1 match`, one group and a matches card (§6 row 2).",
			nGrepIn(nPattern("hit"), nMatches("a.ts:1:hit")), "SEARCH-GREP-2", "SEARCH-GREP-4", "SEARCH-PRESENT-1", "SEARCH-PRESENT-4"),
		g("grep-text-groups-first-seen-order", "Matches group by path in first-seen order without sorting, and the 197-byte meta holds the same groups (§6 row 3, §10 row 1).",
			nGrepIn(nPattern("x"), nMatches("b.ts:2:x", "a.ts:1:y", "b.ts:5:z")), "SEARCH-GREP-3", "SEARCH-META-2", "SEARCH-META-6", "SEARCH-VAL-1"),
		g("grep-text-groups-exact-path-equality", "Grouping uses exact, case-sensitive path equality, so a.ts and A.ts are separate groups (§6 row 4).",
			nGrepIn(nPattern("."), nMatches("a.ts:1:p", "b.ts:2:q", "a.ts:3:r", "A.ts:4:s")), "SEARCH-GREP-3", "SEARCH-META-2", "SEARCH-META-4"),
		g("grep-text-empty-line-row", "An empty matched line still renders `Line 7: ` with one space after the colon (§6 row 5).",
			nGrepIn(nPattern("^$"), nMatches("a.ts:7:")), "SEARCH-GREP-3", "SEARCH-GREP-4"),
		g("grep-text-capped-2-of-3-no-store", "Over the inline cap with no spill store the text reads `Found 2 of 3 matches` with the could-not-be-saved footer and the meta keeps the retained group (§6 row 6, §10 row 2).",
			nGrepIn(nPattern("o"), three, nConfig("maxMatches", 2)), "SEARCH-GREP-2", "SEARCH-GREP-4", "SEARCH-GREP-5", "SEARCH-RETAIN-1"),
		g("grep-text-capped-1-of-3-no-store", "A truncated header stays plural even when one match is kept: `Found 1 of 3 matches` (§6 row 7).",
			nGrepIn(nPattern("o"), three, nConfig("maxMatches", 1)), "SEARCH-GREP-2", "SEARCH-GREP-5", "RET-ITEM-2"),
		g("grep-text-capped-saved-ref", "A saved spill ref turns the footer into `Full grep result stored at: <locator>. <hint>`, the store gets every match grouped without a footer, and the meta is unchanged (§6 row 8, SEARCH-SPILL-2 example).",
			nGrepIn(nPattern("o"), three, nConfig("maxMatches", 2), nSaved(nGrepLoc, nLocalHint)), "SEARCH-GREP-5", "SEARCH-SPILL-1", "SEARCH-SPILL-2", "SEARCH-SPILL-5"),
		g("grep-text-capped-save-failed", "A failed save still hands the complete text to the store, and the content keeps the could-not-be-saved wording instead of failing the call.",
			nGrepIn(nPattern("o"), three, nConfig("maxMatches", 2), nSaveFailed()), "SEARCH-SPILL-6", "SEARCH-SPILL-2", "SEARCH-GREP-5"),
		g("grep-nested-over-cap-with-store", "A nested sub-call over the cap with a store loaded saves nothing, computes no meta and gets no cards; its text, the settle content, uses the could-not-be-saved wording.",
			nGrepIn(nPattern("o"), three, nConfig("maxMatches", 2), nSaved(nGrepLoc, nLocalHint), nNested()), "CODE-DISPATCH-6", "CODE-PRESENT-4", "SEARCH-SPILL-1", "CODE-DISPATCH-3"),
		g("grep-nested-fits", "A nested sub-call under the cap renders the normal text but carries no meta, view or call view.",
			nGrepIn(nPattern("hit"), nMatches("a.ts:1:hit", "b.ts:4:hit"), nNested()), "SEARCH-META-1", "CODE-DISPATCH-6", "CODE-PRESENT-4"),
		g("grep-nested-zero-matches", "A nested sub-call with zero matches renders `No matches found` and still gets no meta.",
			nGrepIn(nPattern("x"), narr(), nNested()), "SEARCH-META-1", "CODE-DISPATCH-6", "SEARCH-GREP-1"),
		g("grep-nested-args-error", "A nested sub-call with an empty pattern is an error result without meta or cards.",
			nGrepIn(nPattern(""), narr(), nNested()), "SEARCH-ERR-1", "CODE-PRESENT-4", "CODE-DISPATCH-3"),

		// search-card.md §4 preview table, one match each.
		preview("grep-preview-cut-keeps-whole-codepoints", "A 7-byte budget over `aéaéaéaé` keeps `aéaéa` and drops the split é before the marker (§4 row 1).", "aéaéaéaé", 7, "SEARCH-PREVIEW-1", "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-exact-budget-not-marked", "A line of exactly maxLineBytes bytes is not marked (§4 row 2).", "abcdef", 6, "SEARCH-PREVIEW-2"),
		preview("grep-preview-one-byte-over-budget", "A line one byte over maxLineBytes is cut and marked ` (line truncated)` (§4 row 3).", "abcdefg", 6, "SEARCH-PREVIEW-1"),
		preview("grep-preview-euro-budget-2", "A 2-byte budget over `a€b` keeps only `a` (§4 row 4).", "a€b", 2, "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-euro-budget-3", "A 3-byte budget over `a€b` still keeps only `a` because € needs 3 bytes (§4 row 5).", "a€b", 3, "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-euro-budget-4", "A 4-byte budget over `a€b` keeps `a€` (§4 row 6).", "a€b", 4, "SEARCH-PREVIEW-1"),
		preview("grep-preview-trailing-euro-budget-3", "A 3-byte budget over `ab€` keeps `ab` (§4 row 7).", "ab€", 3, "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-nothing-kept-marker-only", "A cut that keeps no bytes yields just ` (line truncated)` (§4 row 8).", "€", 2, "SEARCH-PREVIEW-2"),
		preview("grep-preview-emoji-budget-5", "A 5-byte budget over two emoji keeps one whole emoji (§4 row 9).", "\U0001F600\U0001F600", 5, "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-empty-line-budget-1", "An empty line under a 1-byte budget previews as the empty string (§4 row 10).", "", 1, "SEARCH-PREVIEW-1"),
		preview("grep-preview-bom-dropped-untruncated", "A leading U+FEFF is dropped from the preview even when nothing is cut (§4 row 11).", "\uFEFFabc", 2000, "SEARCH-PREVIEW-3", "RET-UTF8-3"),
		preview("grep-preview-bom-dropped-truncated", "A leading U+FEFF counts toward the 5-byte budget but is dropped, leaving `xx (line truncated)` (§4 row 12).", "\uFEFF"+nrep("x", 10), 5, "SEARCH-PREVIEW-3", "RET-UTF8-4"),
		preview("grep-preview-lone-surrogate-replaced", "A lone surrogate in a JS line becomes U+FFFD in the preview (§4 row 13).", "a\xed\xa0\x80b", 2000, "SEARCH-PREVIEW-3", "RET-UTF8-3"),
		// A 4-byte code point at every cut position.
		preview("grep-preview-emoji-cut-before", "A 1-byte budget over `a😀b` cuts before the emoji and keeps `a`.", emoji, 1, "SEARCH-PREVIEW-1", "RET-UTF8-1"),
		preview("grep-preview-emoji-cut-after-1-byte", "A 2-byte budget over `a😀b` cuts one byte into the emoji; the partial sequence is dropped.", emoji, 2, "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-emoji-cut-after-2-bytes", "A 3-byte budget over `a😀b` cuts two bytes into the emoji; the partial sequence is dropped.", emoji, 3, "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-emoji-cut-after-3-bytes", "A 4-byte budget over `a😀b` cuts three bytes into the emoji; the partial sequence is dropped.", emoji, 4, "SEARCH-PREVIEW-2", "RET-UTF8-1"),
		preview("grep-preview-emoji-cut-after-whole", "A 5-byte budget over `a😀b` keeps the whole emoji and marks the cut.", emoji, 5, "SEARCH-PREVIEW-1", "RET-UTF8-1"),
		preview("grep-preview-emoji-fits-exactly", "A 6-byte budget over the 6-byte `a😀b` keeps it unmarked.", emoji, 6, "SEARCH-PREVIEW-2"),
		g("grep-meta-previewed-line", "The meta carries the previewed line `aéaéa (line truncated)`, not the full line (§10 last row).",
			nGrepIn(nPattern("a"), nMatches("a.txt:1:aéaéaéaé"), nConfig("maxLineBytes", 7)), "SEARCH-META-2", "SEARCH-RETAIN-1", "SEARCH-PREVIEW-1"),

		// search-card.md §12 cap table: C = 402 … 170.
		capRow("meta-cap-c-402-fits-unchanged", "At C = 402 the 402-byte meta fits and stays `truncated:false` with all three groups (§12 cap table row 1).", 402, "SEARCH-CAP-1", "SEARCH-JSON-1", "SEARCH-META-5"),
		capRow("meta-cap-c-401-nothing-dropped", "At C = 401 nothing is dropped but `truncated` becomes true, which saves the one byte (§12 cap table row 2, case c).", 401, "SEARCH-CAP-3", "SEARCH-CAP-4"),
		capRow("meta-cap-c-400-drops-one-group", "At C = 400 the last group is dropped, leaving a and b in 286 bytes (§12 cap table row 3).", 400, "SEARCH-CAP-1", "SEARCH-CAP-2", "SEARCH-CAP-5", "SEARCH-META-6"),
		capRow("meta-cap-c-286-two-groups-exact", "At C = 286 two groups fit exactly (§12 cap table row 4).", 286, "SEARCH-CAP-2", "SEARCH-CAP-5"),
		capRow("meta-cap-c-285-one-group", "At C = 285 only group a fits, 171 bytes (§12 cap table row 5).", 285, "SEARCH-CAP-1", "SEARCH-CAP-2"),
		capRow("meta-cap-c-171-one-group-exact", "At C = 171 one group fits exactly (§12 cap table row 6).", 171, "SEARCH-CAP-2", "SEARCH-CAP-4"),
		capRow("meta-cap-c-170-oversized-single-group", "At C = 170 the single remaining group is kept although 171 bytes exceed the cap (§12 cap table row 7, case a).", 170, "SEARCH-CAP-3", "SEARCH-CAP-5"),
		capRow("meta-cap-c-1-minimum-keeps-one-group", "The smallest valid cap, 1, still keeps one group with `truncated:true`.", 1, "SEARCH-CAP-3", "SEARCH-CFG-2"),
		g("meta-cap-c-168-two-files-one-byte-shrink", "Two 1-match files measure 169 bytes; at C = 168 both are kept with `truncated:true` in 168 bytes (§12 other verified cases).",
			nGrepIn(nPattern("."), nMatches("a.ts:1:q", "b.ts:2:r"), nConfig("maxMetaBytes", 168)), "SEARCH-CAP-3", "SEARCH-CAP-2"),
		g("meta-cap-c-50-one-500-byte-line", "One 500-byte line at C = 50 keeps its single group, `truncated:true`, 611 bytes (§12 other verified cases).",
			nGrepIn(nPattern("w"), narr(nMatch("a.ts", 1, nrep("w", 500))), nConfig("maxMetaBytes", 50)), "SEARCH-CAP-3", "SEARCH-CAP-5", "SEARCH-JSON-1"),
		zeroCap("meta-cap-c-10-zero-matches", "A zero-match meta at C = 10 keeps its empty list and becomes `truncated:true`, 57 bytes (§12 other verified cases, case b).", 10, "SEARCH-CAP-3", "SEARCH-CAP-2"),
		g("meta-cap-c-150-prefix-of-text", "With maxMatches 2 and C = 150 the meta keeps only the first of the two groups the text shows (§12 other verified cases).",
			nGrepIn(nPattern("."), nMatches("a.ts:1:"+nrep("q", 50), "b.ts:2:"+nrep("r", 50), "c.ts:3:s", "d.ts:4:t"), nConfig("maxMatches", 2, "maxMetaBytes", 150)), "SEARCH-META-6", "SEARCH-META-5", "SEARCH-CAP-1"),
		zeroCap("meta-cap-zero-matches-c-58-fits", "The 58-byte zero-match meta fits C = 58 exactly and stays untruncated.", 58, "SEARCH-CAP-1", "SEARCH-CAP-2"),
		zeroCap("meta-cap-zero-matches-c-57-one-byte-shrink", "At C = 57 the zero-match meta fits only with `truncated:true` (57 bytes).", 57, "SEARCH-CAP-3"),
		zeroCap("meta-cap-zero-matches-c-56-envelope-over-cap", "At C = 56 even the empty envelope exceeds the cap; it is kept with `truncated:true` (case b).", 56, "SEARCH-CAP-3", "SEARCH-CAP-5"),
		g("meta-cap-jsc-measure-html-and-line-separator", "`<`, `>`, `&` and U+2028 are measured raw (JSON.stringify), so the 185-byte meta fits C = 185 unchanged where Go's default encoding would measure 208.",
			nGrepIn(nPattern("."), jscMatches, nConfig("maxMetaBytes", 185)), "SEARCH-JSON-1", "SEARCH-JSON-2"),
		g("meta-cap-jsc-measure-html-and-line-separator-c-184", "The same raw-measured meta at C = 184 keeps both groups with `truncated:true` (184 bytes).",
			nGrepIn(nPattern("."), jscMatches, nConfig("maxMetaBytes", 184)), "SEARCH-JSON-1", "SEARCH-JSON-2", "SEARCH-CAP-3"),
		g("meta-cap-jsc-measure-control-escapes", "Control characters are measured as JSON.stringify escapes (`\\u0001` 6 bytes, `\\t` and `\\b` 2, U+007F raw 1), so the 123-byte meta fits C = 123 exactly.",
			nGrepIn(nPattern("."), narr(nMatch("a.ts", 1, "\x01\t\x7f\b")), nConfig("maxMetaBytes", 123)), "SEARCH-JSON-1", "SEARCH-JSON-2"),

		// Inline cap edges.
		g("grep-cap-exactly-at-max-matches-with-store", "N equal to maxMatches fits: no truncation, no footer and no save even with a store loaded.",
			nGrepIn(nPattern("o"), three, nConfig("maxMatches", 3), nSaved(nGrepLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-RETAIN-1", "SEARCH-GREP-2"),
		g("grep-cap-one-over-max-matches-with-store", "N one over maxMatches is truncated and saved: `Found 3 of 4 matches` with the stored-at footer.",
			nGrepIn(nPattern("o"), nMatches("a.ts:1:one", "a.ts:2:two", "b.ts:3:three", "c.ts:4:four"), nConfig("maxMatches", 3), nSaved(nGrepLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-SPILL-2", "SEARCH-GREP-4"),
		g("grep-cap-max-matches-1-one-match", "maxMatches 1 with one match renders the singular header untruncated.",
			nGrepIn(nPattern("hit"), nMatches("a.ts:9:hit"), nConfig("maxMatches", 1)), "SEARCH-GREP-2", "RET-ITEM-2"),
		g("grep-cap-max-matches-1-two-matches-saved", "maxMatches 1 with two matches in one file keeps the first and saves both.",
			nGrepIn(nPattern("hit"), nMatches("a.ts:1:hit", "a.ts:2:hit"), nConfig("maxMatches", 1), nSaved("/s/g.txt", "Read it.")), "SEARCH-GREP-2", "SEARCH-SPILL-2", "RET-ITEM-3"),
		g("grep-spill-text-previews-every-line", "The spill text previews every line with maxLineBytes, including the matches the inline cap dropped.",
			nGrepIn(nPattern("l"), nMatches("a.ts:1:long line one", "b.ts:2:long line two", "b.ts:3:ok"), nConfig("maxMatches", 1, "maxLineBytes", 4), nSaved(nGrepLoc, nLocalHint)), "SEARCH-SPILL-2", "SEARCH-RETAIN-1", "SEARCH-PREVIEW-1"),
		g("grep-spill-text-groups-all-matches", "The spill text groups all N matches by first-seen path while the inline text groups only the retained ones.",
			nGrepIn(nPattern("."), nMatches("a.ts:1:a1", "b.ts:2:b2", "a.ts:3:a3", "c.ts:4:c4", "b.ts:5:b5"), nConfig("maxMatches", 2), nSaved(nGrepLoc, nLocalHint)), "SEARCH-SPILL-2", "SEARCH-GREP-3"),
		g("grep-zero-matches-with-store-no-spill", "Zero matches with a store loaded save nothing.",
			nGrepIn(nPattern("x"), narr(), nSaved(nGrepLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-GREP-1"),
		g("grep-args-error-over-cap-no-spill", "An argument error over the cap with a store loaded saves nothing and carries no meta.",
			nGrepIn(nPattern(""), three, nConfig("maxMatches", 1), nSaved(nGrepLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-META-1", "SEARCH-ERR-1"),
		g("grep-line-number-decimal", "Line numbers print as plain decimal integers, also when large.",
			nGrepIn(nPattern("x"), nMatches("big.log:1234567:x")), "SEARCH-GREP-3", "SEARCH-META-2"),

		// SEARCH-CFG-1 defaults.
		g("grep-default-cap-250-fits", "Without config 250 matches fit the default grepMaxMatches of 250.",
			nGrepIn(nPattern("hit"), nManyMatches("f.ts", 250, "hit")), "SEARCH-CFG-1", "SEARCH-GREP-2"),
		g("grep-default-cap-251-capped", "Without config 251 matches exceed the default cap: `Found 250 of 251 matches`.",
			nGrepIn(nPattern("hit"), nManyMatches("f.ts", 251, "hit")), "SEARCH-CFG-1", "SEARCH-GREP-2", "SEARCH-GREP-5"),
		g("grep-default-preview-2000-byte-line", "Without config a 2000-byte line fits the default grepMaxLineBytes unmarked.",
			nGrepIn(nPattern("x"), narr(nMatch("a.ts", 1, nrep("x", 2000)))), "SEARCH-CFG-1", "SEARCH-PREVIEW-2"),
		g("grep-default-preview-2001-byte-line", "Without config a 2001-byte line is cut to 2000 bytes and marked.",
			nGrepIn(nPattern("x"), narr(nMatch("a.ts", 1, nrep("x", 2001)))), "SEARCH-CFG-1", "SEARCH-PREVIEW-1"),
		g("grep-default-meta-cap-65536", "Without config forty 1990-byte lines in forty files exceed the default searchMetaMaxBytes of 65536, so the meta drops trailing groups.",
			nGrepIn(nPattern("x"), nFortyLongFiles()), "SEARCH-CFG-1", "SEARCH-CAP-1", "SEARCH-CAP-5"),

		// SEARCH-CFG-2 configuration errors (thrown).
		throws("grep-config-max-matches-zero", "maxMatches 0 is not a positive integer, so loading fails with the grepMaxMatches message.", nConfig("maxMatches", 0), "SEARCH-CFG-2"),
		throws("grep-config-max-matches-fraction", "maxMatches 2.5 is not an integer, so loading fails.", nConfig("maxMatches", 2.5), "SEARCH-CFG-2"),
		throws("grep-config-max-matches-negative", "maxMatches -3 fails validation.", nConfig("maxMatches", -3), "SEARCH-CFG-2"),
		throws("grep-config-max-matches-string", "maxMatches given as the string \"10\" fails the config schema: `expected number but got 10`.", nConfig("maxMatches", "10"), "SEARCH-CFG-2"),
		throws("grep-config-max-line-bytes-zero", "maxLineBytes 0 fails with the grepMaxLineBytes message.", nConfig("maxLineBytes", 0), "SEARCH-CFG-2"),
		throws("grep-config-max-line-bytes-fraction", "maxLineBytes 0.5 fails with the grepMaxLineBytes message.", nConfig("maxLineBytes", 0.5), "SEARCH-CFG-2"),
		throws("grep-config-max-meta-bytes-zero", "maxMetaBytes 0 fails with the searchMetaMaxBytes message.", nConfig("maxMetaBytes", 0), "SEARCH-CFG-2"),
		g("grep-config-max-meta-bytes-null", "maxMetaBytes null counts as absent: upstream's config schema substitutes the default 65536 (found by running the npm package).", nGrepIn(nPattern("x"), nMatches("a.ts:1:x"), nConfig("maxMetaBytes", nil)), "SEARCH-CFG-2", "SEARCH-CFG-1"),

		// search-card.md §3 argument errors.
		argsCase("grep-args-empty-pattern", "An empty pattern fails with `Error: pattern must be a non-empty string`, a plain error without error info or meta.", nPattern(""), "SEARCH-ARGS-1", "SEARCH-ERR-1", "SEARCH-META-1", "SEARCH-PRESENT-1"),
		argsCase("grep-args-whitespace-pattern-allowed", "A whitespace-only grep pattern is allowed and searches normally.", nPattern("  "), "SEARCH-ARGS-1", "SEARCH-CALL-1"),
		argsCase("grep-args-blank-path", "A path of spaces fails with `path must be a non-empty string when given`.", nobj("pattern", "x", "path", "   "), "SEARCH-ARGS-1", "SEARCH-ERR-1"),
		argsCase("grep-args-path-nbsp-is-blank", "A path of U+00A0 is blank under ECMAScript trim.", nobj("pattern", "x", "path", "\u00a0"), "SEARCH-ARGS-3", "SEARCH-ARGS-1"),
		argsCase("grep-args-path-bom-is-blank", "A path of U+FEFF is blank under ECMAScript trim (Go's TrimSpace keeps it).", nobj("pattern", "x", "path", "\ufeff"), "SEARCH-ARGS-3"),
		argsCase("grep-args-path-ideographic-space-is-blank", "A path of U+3000 and U+2000–U+200A spaces is blank.", nobj("pattern", "x", "path", "\u3000\u2000\u200a"), "SEARCH-ARGS-3"),
		argsCase("grep-args-path-nel-not-blank", "A path of U+0085 is not blank under ECMAScript trim (Go's TrimSpace would trim it), so the search runs.", nobj("pattern", "x", "path", "\u0085"), "SEARCH-ARGS-3", "SEARCH-CALL-1"),
		argsCase("grep-args-path-zwsp-not-blank", "A path of U+200B is not blank, so the search runs.", nobj("pattern", "x", "path", "\u200b"), "SEARCH-ARGS-3"),
		argsCase("grep-args-path-mvs-not-blank", "A path of U+180E is not blank, so the search runs.", nobj("pattern", "x", "path", "\u180e"), "SEARCH-ARGS-3"),
		argsCase("grep-args-blank-include", "A blank include fails with `include must be a non-empty glob when given`.", nobj("pattern", "x", "include", "\t"), "SEARCH-ARGS-1", "SEARCH-ERR-1"),
		argsCase("grep-args-include-line-separators-blank", "An include of U+2028 and U+2029 is blank.", nobj("pattern", "x", "include", "\u2028\u2029"), "SEARCH-ARGS-3", "SEARCH-ARGS-1"),
		argsCase("grep-args-include-negated", "An include starting with `!` fails with the negated-pattern message (with U+2026).", nobj("pattern", "x", "include", "!*.test.ts"), "SEARCH-ARGS-1"),
		argsCase("grep-args-include-comma-list", "`*.ts,*.js` is a comma-separated list and is rejected.", nobj("pattern", "x", "include", "*.ts,*.js"), "SEARCH-ARGS-1"),
		argsCase("grep-args-include-brace-alternation-accepted", "`*.{ts,tsx}` has its comma inside braces and is accepted.", nobj("pattern", "x", "include", "*.{ts,tsx}"), "SEARCH-ARGS-1", "SEARCH-CALL-1"),
		argsCase("grep-args-include-nested-braces-accepted", "`{a,{b,c}}` keeps every comma inside braces and is accepted.", nobj("pattern", "x", "include", "{a,{b,c}}"), "SEARCH-ARGS-1"),
		argsCase("grep-args-include-comma-after-stray-close-brace", "Brace depth never goes below 0, so the comma in `}a,b` is at depth 0 and rejected.", nobj("pattern", "x", "include", "}a,b"), "SEARCH-ARGS-1"),
		argsCase("grep-args-order-pattern-first", "With every argument invalid the pattern error is reported first.", nobj("pattern", "", "path", " ", "include", "!x"), "SEARCH-ARGS-1"),
		argsCase("grep-args-order-path-before-include", "A blank path is reported before a negated include.", nobj("pattern", "x", "path", " ", "include", "!x"), "SEARCH-ARGS-1"),
		argsCase("grep-args-order-negated-before-comma", "`!a,b` reports the negated-pattern message before the comma-list one.", nobj("pattern", "x", "include", "!a,b"), "SEARCH-ARGS-1"),
		argsCase("grep-args-schema-pattern-number", "A numeric pattern is a schema violation: `invalid arguments: \"pattern\" must be a string` with ToolArgsError/INVALID_ARGS and no cards.", nobj("pattern", 1), "SEARCH-ERR-1", "SEARCH-PRESENT-3", "SEARCH-CALL-3"),
		argsCase("grep-args-schema-missing-pattern", "Arguments without pattern fail with `missing required property \"pattern\"`.", nobj("path", "src"), "SEARCH-ERR-1", "SEARCH-CALL-3"),
		argsCase("grep-args-schema-not-object", "A string instead of an arguments object fails with `\"arguments\" must be an object`.", nv("todo"), "SEARCH-ERR-1", "SEARCH-PRESENT-3"),
		argsCase("grep-args-schema-null", "null arguments fail the schema and get no call view.", nv(nil), "SEARCH-ERR-1", "SEARCH-CALL-3"),
		argsCase("grep-args-schema-path-number", "A numeric path is a schema violation.", nobj("pattern", "x", "path", 3), "SEARCH-ERR-1", "SEARCH-PRESENT-3"),
		argsCase("grep-args-schema-three-violations", "Several violations are joined by `; ` in parameter order.", nobj("path", 1, "include", true), "SEARCH-ERR-1"),
		argsCase("grep-args-extra-members-allowed", "Extra argument members pass the schema; the call view ignores them.", nobj("pattern", "x", "context", 3, "path", "src"), "SEARCH-PRESENT-3", "SEARCH-CALL-1"),

		// search-card.md §14 call views.
		argsCase("grep-call-view-pattern-only", "The call view title is `Grep todo` with kind search and the pattern as rawInput (SEARCH-CALL-1 example 1).", nPattern("todo"), "SEARCH-CALL-1"),
		argsCase("grep-call-view-path-and-include", "The call view title is `Grep todo in src (*.ts)` (SEARCH-CALL-1 example 2).", nobj("pattern", "todo", "path", "src", "include", "*.ts"), "SEARCH-CALL-1"),
		argsCase("grep-call-view-include-only", "The call view title is `Grep x (*.md)` (SEARCH-CALL-1 example 3).", nobj("pattern", "x", "include", "*.md"), "SEARCH-CALL-1"),
		argsCase("grep-call-view-all-empty-strings", "Empty strings count as given: the title is `Grep  in  ()` although the call itself fails its argument check (SEARCH-CALL-1 example 4).", nobj("pattern", "", "path", "", "include", ""), "SEARCH-CALL-1", "SEARCH-CALL-3"),
		argsCase("grep-call-view-member-order-irrelevant", "The title puts path before include whatever the argument member order.", nobj("include", "*.go", "pattern", "func", "path", "cmd"), "SEARCH-CALL-1"),
	}
}

// nFortyLongFiles returns forty matches in forty files, each line 1990 bytes.
func nFortyLongFiles() jsonjs.Value {
	items := make([]jsonjs.Value, 40)
	for i := range items {
		items[i] = nMatch("f"+strconv.Itoa(100+i)+".ts", i+1, nrep("x", 1990))
	}
	return jsonjs.ArrayValue(items...)
}

func namedGlob() []Case {
	g := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpGlobResult, name, description, input, reqs...)
	}
	star := nPattern("*")
	five := []string{"vendor/a.ts", "vendor/b.ts", "vendor/c.ts", "src/d.ts", "guide/e.md"}
	six := append(append([]string(nil), five...), "top.txt")
	tree := []string{"tree/z/1", "tree/z/2", "tree/y/1", "tree/x/1", "tree/x/2", "tree/w.txt", "tree/z/3"}
	// sample builds a §8 row: sampling on, maxResults = maxItems.
	sample := func(name, description, root string, paths []string, maxItems int, reqs ...string) Case {
		args := star
		if root != "." {
			args = nobj("pattern", "*", "path", root)
		}
		return g(name, description, nGlobIn(args, root, paths, nGlobCfg(maxItems, true)), reqs...)
	}
	// The SEARCH-JSON-2 example: 100 bytes in JSON.stringify, 118 in Go.
	jscPaths := []string{"日本/ファイル.ts", "a<b>&c.ts", "x\u2028y"}
	long := []string{"p/" + nrep("a", 101), "p/" + nrep("b", 101), "p/" + nrep("c", 101)}
	throws := func(name, description string, config jsonjs.Value, reqs ...string) Case {
		return g(name, ThrowsPrefix+description, nGlobIn(star, ".", []string{"a.ts"}, config), reqs...)
	}
	argsCase := func(name, description string, args jsonjs.Value, reqs ...string) Case {
		return g(name, description, nGlobIn(args, ".", []string{"a.ts"}, nGlobCfg(0, false)), reqs...)
	}
	return []Case{
		// search-card.md §7 render text examples.
		g("glob-text-zero-paths-sampling-off", "Zero paths render exactly `No files found` with an empty, untruncated 56-byte meta (§7 row 1, §10 zero-path row).",
			nGlobIn(star, ".", []string{}, nGlobCfg(100, false)), "SEARCH-GLOB-1", "SEARCH-META-1", "SEARCH-META-3", "SEARCH-VAL-2"),
		g("glob-text-zero-paths-sampling-on", "Zero paths render `No files found` with sampling on too (§7 row 1, sampling any).",
			nGlobIn(star, ".", []string{}, nGlobCfg(100, true)), "SEARCH-GLOB-1", "SEARCH-META-3", "SEARCH-META-4"),
		g("glob-text-fits-no-footer", "Paths within the cap are joined by LF with no header or footer, even with sampling on (§7 row 2).",
			nGlobIn(star, ".", []string{"vendor/a.ts", "vendor/b.ts", "src/c.ts"}, nGlobCfg(4, true)), "SEARCH-GLOB-2", "SEARCH-RETAIN-2", "SEARCH-PRESENT-2"),
		g("glob-text-head-page-no-store", "Over the cap with sampling off the page is the modification-time head with basis `.` and the could-not-be-saved recovery (§7 row 3).",
			nGlobIn(star, ".", five, nGlobCfg(3, false)), "SEARCH-GLOB-3", "SEARCH-GLOB-4", "SEARCH-GLOB-5", "SEARCH-RETAIN-2"),
		g("glob-text-head-page-saved-ref", "A saved ref gives `Full sorted result stored at: <locator>. <hint>` and the store gets all five paths (§7 row 4).",
			nGlobIn(star, ".", five, nGlobCfg(3, false), nSaved(nGlobLoc, nLocalHint)), "SEARCH-GLOB-5", "SEARCH-SPILL-3", "SEARCH-SPILL-5", "SEARCH-SPILL-1"),
		g("glob-text-sampled-narrow-hint-no-store", "A sampled page of 3 of 4 top-level entries gets the sampled basis with the narrow-path hint, and the meta lists the sampled page (§7 row 5, §10 sampled row).",
			nGlobIn(star, ".", six, nGlobCfg(3, true)), "SEARCH-GLOB-4", "SEARCH-SAMPLE-4", "SEARCH-META-3", "SEARCH-META-6"),
		g("glob-text-sampled-narrow-hint-saved-ref", "The sampled page with a saved ref ends with the stored-at recovery, and the store gets the canonical order, not the sample (§7 row 6).",
			nGlobIn(star, ".", six, nGlobCfg(3, true), nSaved(nGlobLoc, nLocalHint)), "SEARCH-GLOB-5", "SEARCH-SPILL-3", "SEARCH-GLOB-3"),
		g("glob-text-sampled-all-entries-shown", "When every top-level entry is shown the sampled basis has no narrow-path hint (§7 row 7).",
			nGlobIn(star, ".", []string{"vendor/a.ts", "vendor/b.ts", "vendor/c.ts", "src/d.ts"}, nGlobCfg(3, true)), "SEARCH-GLOB-4", "SEARCH-SAMPLE-4", "SEARCH-SAMPLE-5"),
		g("glob-text-flat-sample-reads-as-head", "Flat paths are each their own top-level entry, so the sample equals the head and the basis is `.` (§7 row 8, §8 row 7).",
			nGlobIn(star, ".", []string{"a.ts", "b.ts", "c.ts"}, nGlobCfg(2, true)), "SEARCH-GLOB-4", "SEARCH-SAMPLE-2"),
		g("glob-text-sampled-root-tree", "With root `tree` the keys are z, y, x and w.txt, so 5 paths sample 4 of 4 entries (§7 row 9).",
			nGlobIn(nobj("pattern", "**/*", "path", "tree"), "tree", tree, nGlobCfg(5, true)), "SEARCH-SAMPLE-1", "SEARCH-SAMPLE-2", "SEARCH-GLOB-4", "SEARCH-VAL-2"),
		g("glob-text-sampled-root-dot-single-entry", "With root `.` the same paths share the key tree, so the page is the head and the basis says 1 of the 1 entries (§7 row 10).",
			nGlobIn(nPattern("**/*"), ".", tree, nGlobCfg(5, true)), "SEARCH-SAMPLE-2", "SEARCH-GLOB-4"),
		g("glob-meta-head-page-sampling-off", "With sampling off the 96-byte meta lists the head page (§10 glob row 'same, sampling off').",
			nGlobIn(star, ".", six, nGlobCfg(3, false)), "SEARCH-META-3", "SEARCH-RETAIN-2"),
		g("glob-meta-fits-cap-10", "Within a cap of 10 the 131-byte meta lists all six paths untruncated (§10 glob row 'same, cap 10').",
			nGlobIn(star, ".", six, nGlobCfg(10, true)), "SEARCH-META-3", "SEARCH-GLOB-2", "SEARCH-META-4"),

		// search-card.md §8 sampling rows, sampling on, maxResults = maxItems.
		sample("glob-sample-one-per-group-first-round", "Three groups and maxItems 3 take one path from each group (§8 row 1).", ".", []string{"v/a", "v/b", "v/c", "v/d", "src/e", "guide/f"}, 3, "SEARCH-SAMPLE-3", "SEARCH-SAMPLE-4"),
		sample("glob-sample-exhausted-groups-drop-out", "Exhausted groups drop out and later rounds give their slots to v (§8 row 2).", ".", []string{"v/a", "v/b", "v/c", "v/d", "src/e", "guide/f"}, 5, "SEARCH-SAMPLE-4", "SEARCH-SAMPLE-5"),
		sample("glob-sample-solo-group-then-many", "A one-path group drops out after the first round (§8 row 3).", ".", []string{"solo/a", "many/b", "many/c", "many/d"}, 3, "SEARCH-SAMPLE-4"),
		sample("glob-sample-stops-mid-round", "The take stops in the middle of the first round at a/1 b/1 (§8 row 4); every path is its own entry, so the text reads like the head with basis `.`.", ".", []string{"a/1", "b/1", "c/1", "d/1"}, 2, "SEARCH-SAMPLE-4", "SEARCH-GLOB-4"),
		sample("glob-sample-regrouped-not-interleaved", "Taken paths are regrouped by first take, each group in input order, not interleaved (§8 row 5).", ".", []string{"a/1", "b/1", "a/2", "c/1", "a/3", "b/2", "a/4"}, 6, "SEARCH-SAMPLE-5", "SEARCH-SAMPLE-3"),
		sample("glob-sample-absolute-paths-root-dot", "Leading separators are stripped before taking the key, so /out and /away are the groups (§8 row 6).", ".", []string{"/out/a", "/out/b", "/away/c", "/away/d"}, 2, "SEARCH-SAMPLE-2"),
		sample("glob-sample-dot-slash-prefix-stripped", "With root `.` a leading `./` is stripped for grouping but kept in the display (§8 row 8).", ".", []string{"./vendor/a.ts", "./vendor/b.ts", "./src/b.ts"}, 2, "SEARCH-SAMPLE-1", "SEARCH-SAMPLE-2"),
		sample("glob-sample-dot-slash-same-key-cap-1", "`./a/1` and `a/2` share the key a (§8 row 9); that row's two paths fit its maxItems 2, so maxResults is 1 here to force sampling.", ".", []string{"./a/1", "a/2"}, 1, "SEARCH-SAMPLE-1", "SEARCH-SAMPLE-5"),
		sample("glob-sample-root-slash", "Root `/` strips every leading separator, giving keys vendor and src (§8 row 10).", "/", []string{"/vendor/a.ts", "/vendor/b.ts", "/src/b.ts"}, 2, "SEARCH-SAMPLE-1"),
		sample("glob-sample-root-equal-path-empty-key", "A path equal to the root gets the empty key, beside keys a and b, so the page is src src/a with basis `.` (§8 row 11).", "src", []string{"src", "src/a", "src/b/c"}, 2, "SEARCH-SAMPLE-1", "SEARCH-SAMPLE-2"),
		sample("glob-sample-root-trailing-separator", "A root with a trailing separator is trimmed before relativizing (§8 row 12).", "src/", []string{"src/a/1", "src/a/2", "src/b/1"}, 2, "SEARCH-SAMPLE-1"),
		sample("glob-sample-path-outside-root-unchanged", "A path outside the root keeps its own first segment as key (§8 row 13).", "src", []string{"other/a.ts", "other/b.ts", "src/x/y"}, 2, "SEARCH-SAMPLE-1"),
		sample("glob-sample-root-dot-slash-tree", "Root `./tree` relativizes `./tree/...` paths to keys a and b (§8 row 14).", "./tree", []string{"./tree/a/1", "./tree/a/2", "./tree/b/1"}, 2, "SEARCH-SAMPLE-1"),
		sample("glob-sample-leading-separators-one-key", "`//x/1`, `x/2` and `/x/3` all have key x (§8 row 15); that row's three paths fit its maxItems 3, so maxResults is 2 here to force sampling.", ".", []string{"//x/1", "x/2", "/x/3"}, 2, "SEARCH-SAMPLE-2", "SEARCH-GLOB-4"),
		sample("glob-sample-backslash-ordinary-char", "On POSIX a backslash is an ordinary character, so `old\\one` and `old\\two` are separate keys and the page reads like the head (§8 row 16).", ".", []string{`old\one`, `old\two`, "src/a"}, 2, "SEARCH-SAMPLE-2"),

		// search-card.md §11 and §12 glob examples.
		g("glob-meta-jsc-measure-100-bytes", "The §11 example measures 100 bytes in JSON.stringify and fits C = 100 unchanged (Go's default encoding would measure 118).",
			nGlobIn(star, ".", jscPaths, nGlobCfg(0, false, "maxMetaBytes", 100)), "SEARCH-JSON-1", "SEARCH-JSON-2", "SEARCH-CAP-1"),
		g("glob-meta-jsc-measure-c-99-one-byte-shrink", "The §11 example at C = 99 keeps all three paths with `truncated:true` (99 bytes).",
			nGlobIn(star, ".", jscPaths, nGlobCfg(0, false, "maxMetaBytes", 99)), "SEARCH-JSON-1", "SEARCH-CAP-3"),
		g("glob-meta-cap-c-40-zero-paths", "A zero-path meta at C = 40 keeps its empty list with `truncated:true` (§12 other verified cases).",
			nGlobIn(star, ".", []string{}, nGlobCfg(0, false, "maxMetaBytes", 40)), "SEARCH-CAP-3", "SEARCH-CAP-2"),
		g("glob-meta-cap-c-180-three-long-paths", "Three 103-character paths (373 bytes) at C = 180 keep one path, `truncated:true`, 160 bytes (§12 other verified cases).",
			nGlobIn(star, ".", long, nGlobCfg(0, false, "maxMetaBytes", 180)), "SEARCH-CAP-1", "SEARCH-CAP-2", "SEARCH-CAP-5"),
		g("glob-meta-cap-c-373-fits", "The same three long paths fit C = 373 exactly, untruncated.",
			nGlobIn(star, ".", long, nGlobCfg(0, false, "maxMetaBytes", 373)), "SEARCH-CAP-1"),
		g("glob-meta-cap-c-372-one-byte-shrink", "At C = 372 all three long paths stay with `truncated:true`.",
			nGlobIn(star, ".", long, nGlobCfg(0, false, "maxMetaBytes", 372)), "SEARCH-CAP-3", "SEARCH-CAP-4"),
		g("glob-meta-cap-c-266-two-paths-exact", "At C = 266 two long paths fit exactly with `truncated:true`.",
			nGlobIn(star, ".", long, nGlobCfg(0, false, "maxMetaBytes", 266)), "SEARCH-CAP-2", "SEARCH-CAP-5"),
		g("glob-meta-cap-c-265-one-path", "At C = 265 only one long path fits.",
			nGlobIn(star, ".", long, nGlobCfg(0, false, "maxMetaBytes", 265)), "SEARCH-CAP-2"),
		g("glob-meta-cap-zero-paths-c-56-fits", "The 56-byte zero-path meta fits C = 56 exactly.",
			nGlobIn(star, ".", []string{}, nGlobCfg(0, false, "maxMetaBytes", 56)), "SEARCH-CAP-1"),
		g("glob-meta-cap-zero-paths-c-55-one-byte-shrink", "At C = 55 the zero-path meta fits only with `truncated:true`.",
			nGlobIn(star, ".", []string{}, nGlobCfg(0, false, "maxMetaBytes", 55)), "SEARCH-CAP-3"),
		g("glob-meta-cap-zero-paths-c-54-envelope-over-cap", "At C = 54 even the empty envelope exceeds the cap and is kept with `truncated:true`.",
			nGlobIn(star, ".", []string{}, nGlobCfg(0, false, "maxMetaBytes", 54)), "SEARCH-CAP-3", "SEARCH-CAP-5"),
		g("glob-meta-cap-on-sampled-page", "The byte cap drops trailing paths of the sampled page, so the meta stays a prefix of the page lines.",
			nGlobIn(star, ".", six, nGlobCfg(3, true, "maxMetaBytes", 70)), "SEARCH-META-5", "SEARCH-META-6", "SEARCH-CAP-1"),

		// Inline cap edges.
		g("glob-cap-exactly-at-max-results-with-store", "N equal to maxResults fits: no footer and no save even with a store loaded.",
			nGlobIn(star, ".", []string{"a.ts", "b.ts", "c.ts"}, nGlobCfg(3, false), nSaved(nGlobLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-GLOB-2", "SEARCH-RETAIN-2"),
		g("glob-cap-one-over-max-results-saved-head", "N one over maxResults with sampling off shows the head and saves every path (SEARCH-SPILL-3 example).",
			nGlobIn(star, ".", []string{"a.ts", "b.ts", "c.ts", "d.ts"}, nGlobCfg(3, false), nSaved(nGlobLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-SPILL-3", "SEARCH-GLOB-3"),
		g("glob-cap-one-over-max-results-sampled-saved", "N one over maxResults with sampling on shows the sample while the store gets the canonical order.",
			nGlobIn(star, ".", []string{"a/1", "a/2", "a/3", "b/1"}, nGlobCfg(3, true), nSaved(nGlobLoc, nLocalHint)), "SEARCH-SPILL-3", "SEARCH-RETAIN-2", "SEARCH-GLOB-4"),
		g("glob-cap-max-results-1-one-path", "maxResults 1 with one path fits.",
			nGlobIn(star, ".", []string{"only.ts"}, nGlobCfg(1, true)), "SEARCH-GLOB-2", "SEARCH-META-3"),
		g("glob-cap-max-results-1-sampled", "maxResults 1 over three paths in two entries samples 1 of the 2 entries with the narrow hint.",
			nGlobIn(star, ".", []string{"a/1", "a/2", "b/1"}, nGlobCfg(1, true)), "SEARCH-GLOB-3", "SEARCH-GLOB-4", "SEARCH-SAMPLE-4"),
		g("glob-spill-save-failed-sampled", "A failed save keeps the could-not-be-saved wording and still reports the complete text handed to the store.",
			nGlobIn(star, ".", six, nGlobCfg(3, true), nSaveFailed()), "SEARCH-SPILL-6", "SEARCH-GLOB-5"),
		g("glob-nested-over-cap-with-store", "A nested sub-call over the cap with a store loaded saves nothing, computes no meta and gets no cards.",
			nGlobIn(star, ".", five, nGlobCfg(3, false), nSaved(nGlobLoc, nLocalHint), nNested()), "CODE-DISPATCH-6", "CODE-PRESENT-4", "SEARCH-SPILL-1", "SEARCH-META-1"),
		g("glob-nested-sampled-over-cap", "A nested sub-call renders the same sampled page as a top-level call, as its settle content.",
			nGlobIn(star, ".", six, nGlobCfg(3, true), nNested()), "CODE-DISPATCH-3", "CODE-DISPATCH-6"),
		g("glob-zero-paths-with-store-no-spill", "Zero paths with a store loaded save nothing.",
			nGlobIn(star, ".", []string{}, nGlobCfg(0, false), nSaved(nGlobLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-GLOB-1"),
		g("glob-args-error-over-cap-no-spill", "An argument error over the cap with a store loaded saves nothing and carries no meta.",
			nGlobIn(nPattern(" "), ".", five, nGlobCfg(2, false), nSaved(nGlobLoc, nLocalHint)), "SEARCH-SPILL-1", "SEARCH-META-1", "SEARCH-ERR-1"),
		g("glob-text-keeps-modification-time-order", "Paths are shown in canonical (modification-time) order, never sorted.",
			nGlobIn(star, ".", []string{"z.ts", "a.ts", "m.ts"}, nGlobCfg(0, false)), "SEARCH-VAL-2", "SEARCH-GLOB-2"),

		// SEARCH-CFG-1 defaults.
		g("glob-default-cap-100-fits", "With maxResults absent 100 paths fit the default globMaxResults of 100.",
			nGlobIn(star, ".", nnumbered("f", 1, 100, 3, ".ts"), nGlobCfg(0, false)), "SEARCH-CFG-1", "SEARCH-GLOB-2"),
		g("glob-default-cap-101-capped", "With maxResults absent 101 paths exceed the default cap: `Showing 100 of 101 paths.`.",
			nGlobIn(star, ".", nnumbered("f", 1, 101, 3, ".ts"), nGlobCfg(0, false)), "SEARCH-CFG-1", "SEARCH-GLOB-3"),
		g("glob-default-meta-cap-65536", "700 paths of 100 characters inside maxResults 1000 exceed the default searchMetaMaxBytes of 65536, so the meta drops trailing paths.",
			nGlobIn(star, ".", nnumbered("dir/"+nrep("p", 92)+"-", 1, 700, 3, ""), nGlobCfg(1000, false)), "SEARCH-CFG-1", "SEARCH-CAP-1", "SEARCH-CAP-5"),

		// SEARCH-CFG-2 configuration errors (thrown).
		throws("glob-config-sample-over-cap-missing", "A config without sampleOverCap fails to load: the setting has no default.", nobj("maxResults", 5), "SEARCH-CFG-2"),
		throws("glob-config-sample-over-cap-not-boolean", "sampleOverCap given as the string \"true\" fails to load.", nobj("sampleOverCap", "true"), "SEARCH-CFG-2"),
		throws("glob-config-max-results-zero", "maxResults 0 fails with the globMaxResults message.", nGlobCfg(0, false, "maxResults", 0), "SEARCH-CFG-2"),
		throws("glob-config-max-results-fraction", "maxResults 2.5 fails with the globMaxResults message.", nGlobCfg(0, true, "maxResults", 2.5), "SEARCH-CFG-2"),
		throws("glob-config-max-results-string", "maxResults given as the string \"5\" fails the config schema: `expected number but got 5`.", nGlobCfg(0, true, "maxResults", "5"), "SEARCH-CFG-2"),
		throws("glob-config-max-meta-bytes-negative", "maxMetaBytes -1 fails with the searchMetaMaxBytes message.", nGlobCfg(0, false, "maxMetaBytes", -1), "SEARCH-CFG-2"),

		// search-card.md §3 argument errors.
		argsCase("glob-args-whitespace-pattern-rejected", "Unlike grep, glob rejects a whitespace-only pattern with `pattern must be a non-empty string`.", nPattern("   "), "SEARCH-ARGS-2", "SEARCH-ERR-1", "SEARCH-PRESENT-2"),
		argsCase("glob-args-empty-pattern", "An empty glob pattern is rejected.", nPattern(""), "SEARCH-ARGS-2"),
		argsCase("glob-args-pattern-ideographic-space-blank", "A pattern of U+3000 is blank under ECMAScript trim.", nPattern("\u3000"), "SEARCH-ARGS-3", "SEARCH-ARGS-2"),
		argsCase("glob-args-pattern-bom-blank", "A pattern of U+FEFF is blank under ECMAScript trim.", nPattern("\ufeff"), "SEARCH-ARGS-3"),
		argsCase("glob-args-pattern-zwsp-not-blank", "A pattern of U+200B is not blank, so the search runs.", nPattern("\u200b"), "SEARCH-ARGS-3"),
		argsCase("glob-args-pattern-nel-not-blank", "A pattern of U+0085 is not blank under ECMAScript trim, so the search runs.", nPattern("\u0085"), "SEARCH-ARGS-3"),
		argsCase("glob-args-blank-path", "A path of TAB and LF fails with `path must be a non-empty string when given`.", nobj("pattern", "*", "path", "\t\n"), "SEARCH-ARGS-2", "SEARCH-ERR-1"),
		argsCase("glob-args-order-pattern-before-path", "A blank pattern is reported before a blank path.", nobj("pattern", " ", "path", " "), "SEARCH-ARGS-2"),
		argsCase("glob-args-schema-pattern-number", "A numeric pattern is a schema violation with ToolArgsError and no cards.", nPattern1(), "SEARCH-ERR-1", "SEARCH-PRESENT-3", "SEARCH-CALL-3"),
		argsCase("glob-args-schema-missing-pattern", "Arguments without pattern fail with `missing required property \"pattern\"`.", nobj(), "SEARCH-ERR-1", "SEARCH-CALL-3"),
		argsCase("glob-args-schema-array-arguments", "An array instead of an arguments object fails the schema.", narr("*"), "SEARCH-ERR-1", "SEARCH-PRESENT-3"),
		argsCase("glob-args-schema-path-bool", "A boolean path is a schema violation.", nobj("pattern", "*", "path", true), "SEARCH-ERR-1"),
		argsCase("glob-args-include-member-ignored", "glob has no include parameter, so a non-string include is just an extra member and passes.", nobj("pattern", "*", "include", 5), "SEARCH-PRESENT-3", "SEARCH-CALL-2"),

		// search-card.md §14 call views.
		argsCase("glob-call-view-pattern-only", "The call view title is `Glob **/*.ts` with kind search (SEARCH-CALL-2 example 1).", nPattern("**/*.ts"), "SEARCH-CALL-2"),
		argsCase("glob-call-view-pattern-in-path", "The call view title is `Glob *.md in docs` (SEARCH-CALL-2 example 2).", nobj("pattern", "*.md", "path", "docs"), "SEARCH-CALL-2"),
		argsCase("glob-call-view-empty-path", "An empty path counts as given: the title is `Glob * in ` although the call fails its argument check (SEARCH-CALL-2 example 3).", nobj("pattern", "*", "path", ""), "SEARCH-CALL-2", "SEARCH-CALL-3"),
	}
}

func nPattern1() jsonjs.Value { return nobj("pattern", 1) }
