package generators

import (
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// namedJudge pins what issue 22's audit found: five mutants of the
// reference that were listed as equivalent although valid inputs observe
// them, JavaScript's join of a surrogate pair split across spill blocks, and
// the one reading of a null optional member (docs/ops.md, "null and absent
// members"). Each answer is the published npm packages' (make
// conform-upstream).
func namedJudge() []Case {
	raw := func(op, name, description, text string, reqs ...string) Case {
		v, b := InRaw(text)
		return Case{Name: name, Op: op, Requirements: reqs, Description: description, Input: v, RawInput: b}
	}
	pathsMeta := nobj("shape", "paths", "paths", []string{"a"}, "truncated", false, "total", 1)
	one := narr(nMatch("a.ts", 1, "one"))
	two := narr(nMatch("a.ts", 1, "one"), nMatch("a.ts", 2, "two"))
	null := jsonjs.NullValue()
	member := func(key string, v any) jsonjs.Member { return jsonjs.Member{Key: key, Value: nv(v)} }
	// 103 arrays of 40 zeros: 4,120 elements, past the parser's presized
	// 4,096-element slab, so the last containers get carved blocks.
	rows := make([]jsonjs.Value, 103)
	for i := range rows {
		items := make([]jsonjs.Value, 40)
		for j := range items {
			items[j] = jsonjs.IntValue(0)
		}
		rows[i] = jsonjs.ArrayValue(items...)
	}
	return []Case{
		// The five observable "equivalents" (spec/equivalent-mutants.yaml no longer lists them).
		namedCase(reference.OpSearchPresent, "present-glob-is-error-absent-is-false", "A result without isError is not an error result: the paths meta becomes the view (`isError?: boolean`, absent = false).",
			nPresentIn("glob", nobj("meta", pathsMeta)), "SEARCH-PRESENT-2"),
		namedCase(reference.OpSpillPreview, "spill-ref-null-is-no-ref", "A null ref is no ref: the save is requested and fails, so the 12-byte original is kept over a 10-byte cap.",
			nSpillIn("aaaaaaaaaaaa", 10, member("ref", nil)), "SPILL-REF-1", "SPILL-CAP-1"),
		raw(reference.OpRunCodeResult, "run-code-duplicate-empty-key-last-wins", "Two members named \"\" (a key whose signature is 0 mod 64): the later one wins, one member is rendered.",
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":{"":1,"":2}}}`, "CODE-KEYS-2"),
		namedCase(reference.OpRetainItems, "items-past-the-parsers-presized-slab", "103 arrays of 40 zeros (4,120 elements, more than the parser presizes) with maxItems 1: the first array is kept whole.",
			nobj("strategy", nobj("kind", "head", "maxItems", 1), "items", rows), "RET-ITEM-2", "RET-ITEM-3"),
		// JavaScript's string concatenation joins a split surrogate pair.
		namedCase(reference.OpSpillPreview, "spill-blocks-split-surrogate-pair-joined", "Blocks \"\\ud800\" and \"\\udc00\" concatenate to U+10000, 4 bytes: under the 5-byte cap, so the policy does not apply.",
			nSpillBlocks(narr(nTextBlock(nLoneHigh), nTextBlock(nLoneLow)), 5, nRef("L", "H")), "SPILL-RES-3", "SPILL-RES-2"),
		namedCase(reference.OpSpillPreview, "spill-blocks-split-surrogate-pair-joined-over-cap", "The same pair over a 3-byte cap is spilled as one 4-byte code point: the save text holds U+10000, not two lone halves.",
			nSpillBlocks(narr(nTextBlock("a"+nLoneHigh), nTextBlock(nLoneLow+"b")), 3, nRef("L", "H")), "SPILL-RES-3", "SPILL-RES-4"),
		namedCase(reference.OpSpillPreview, "spill-blocks-split-pair-d800-dc00-under-cap", "The issue's blocks \"\\ud800\" and \"\\udc00\": U+10000 is 4 bytes, under the 5-byte cap, so nothing is saved (their lone halves would be 6).",
			nSpillBlocks(narr(nTextBlock("\xed\xa0\x80"), nTextBlock("\xed\xb0\x80")), 5, nRef("L", "H")), "SPILL-RES-3", "SPILL-RES-2"),
		namedCase(reference.OpSpillPreview, "spill-blocks-split-pair-dbff-dc00", "\"x\\udbff\" and \"\\udc00y\" join to U+10FC00 (the lead's bits count): the save text holds that one code point.",
			nSpillBlocks(narr(nTextBlock("x\xed\xaf\xbf"), nTextBlock("\xed\xb0\x80y")), 3, nRef("L", "H")), "SPILL-RES-3", "SPILL-RES-4"),
		namedCase(reference.OpSpillPreview, "spill-blocks-two-trail-surrogates-stay-lone", "A trail surrogate then a trail surrogate are no pair: the save text keeps both lone halves.",
			nSpillBlocks(narr(nTextBlock("x\xed\xb0\x80"), nTextBlock("\xed\xb0\x80y")), 3, nRef("L", "H")), "SPILL-RES-3", "SPILL-RES-4"),
		namedCase(reference.OpSpillPreview, "spill-blocks-text-then-trail-surrogate-stays-lone", "\"xyz\" then \"\\udc00\": no lead before the trail, so the trail stays lone.",
			nSpillBlocks(narr(nTextBlock("xyz"), nTextBlock("\xed\xb0\x80")), 3, nRef("L", "H")), "SPILL-RES-3", "SPILL-RES-4"),
		namedCase(reference.OpSpillPreview, "spill-blocks-lead-then-private-use-stays-lone", "\"x\\ud800\" then U+E000: a character after the lead that is no trail surrogate leaves the lead lone.",
			nSpillBlocks(narr(nTextBlock("x\xed\xa0\x80"), nTextBlock("\ue000y")), 3, nRef("L", "H")), "SPILL-RES-3", "SPILL-RES-4"),
		// A null optional member reads as an absent one.
		namedCase(reference.OpSearchPresent, "present-is-error-null-is-false", "isError null is no error, as absent: the paths meta becomes the view.",
			nPresentIn("glob", nobj("isError", nil, "meta", pathsMeta)), "SEARCH-PRESENT-2"),
		namedCase(reference.OpSearchPresent, "present-args-null-is-checked", "args null is given arguments (unlike absent ones): they fail glob's soft argument check, so there is no view.",
			nPresentIn("glob", nobj("meta", pathsMeta), null), "SEARCH-PRESENT-2", "SEARCH-CALL-3"),
		namedCase(reference.OpGrepResult, "grep-nested-null-is-top-level", "nested null is a top-level call: meta, view and call view are all there.",
			nGrepIn(nPattern("o"), one, member("nested", nil)), "SEARCH-META-1", "SEARCH-CALL-1"),
		namedCase(reference.OpGrepResult, "grep-config-max-matches-null-is-default", "maxMatches null is the default 250: both matches are shown.",
			nGrepIn(nPattern("o"), two, nConfig("maxMatches", nil)), "SEARCH-CFG-1", "SEARCH-GREP-1"),
		namedCase(reference.OpGrepResult, "grep-spill-saved-null-is-failed-save", "spill.saved null is a failed save: the text says the result could not be saved.",
			nGrepIn(nPattern("o"), two, nConfig("maxMatches", 1), member("spill", nobj("saved", nil, "locator", "L", "retrievalHint", "H"))), "SEARCH-SPILL-1", "SEARCH-GREP-5"),
		namedCase(reference.OpGrepResult, "grep-spill-locator-and-hint-null-are-empty", "A saved spill whose locator and retrievalHint are null prints them as absent ones: empty.",
			nGrepIn(nPattern("o"), two, nConfig("maxMatches", 1), member("spill", nobj("saved", true, "locator", nil, "retrievalHint", nil))), "SEARCH-SPILL-1", "SEARCH-GREP-5"),
		namedCase(reference.OpGlobResult, "glob-config-max-results-null-is-default", "maxResults null is the default 100: both paths are shown.",
			nGlobIn(nPattern("*"), ".", []string{"a", "b"}, nobj("maxResults", nil, "sampleOverCap", false)), "SEARCH-CFG-1", "SEARCH-GLOB-1"),
		namedCase(reference.OpSpillPreview, "spill-text-null-uses-blocks", "text null is no text: the blocks are the content.",
			nSpillBlocks(narr(nTextBlock("aaaaaaaaaaaa")), 10, member("text", nil), nRef("L", "H")), "SPILL-RES-2"),
		namedCase(reference.OpSpillPreview, "spill-blocks-null-uses-text", "blocks null is no blocks: the text is the content.",
			nSpillIn("aaaaaaaaaaaa", 10, member("blocks", nil), nRef("L", "H")), "SPILL-RES-2"),
		namedCase(reference.OpSpillPreview, "spill-block-text-null-concatenates-null", "A text block whose text is null contributes \"null\" to the concatenation, as an absent text contributes \"undefined\".",
			nSpillBlocks(narr(nobj("type", "text", "text", nil), nTextBlock("a")), 3, nRef("L", "H")), "SPILL-RES-3"),
	}
}
