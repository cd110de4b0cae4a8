package generators

import (
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Spill references of spill.md §5.
const (
	nRefALocator = "/spill/big.txt"
	nRefAHint    = "Use the stub retrieval path."
	nRefBLocator = "/srv/spill/session-3f2a91c04b7e/9c1d2e3f4a5b-run_code.txt"
	// nRealLocator stands in for the elided locator of the bash-spill
	// snapshot; its 70 characters give the logged 193-byte notice.
	nRealLocator = "/tmp/dsh-acp-snapshot/spill/session-5e0c71b4a9d2/2ce9d7a31a38-bash.txt"
)

// nSpillIn is a spill.preview input for one text block.
func nSpillIn(text string, maxInlineBytes any, extra ...jsonjs.Member) jsonjs.Value {
	return nwith(nobj("text", text, "maxInlineBytes", maxInlineBytes), extra...)
}

// nSpillBlocks is a spill.preview input for a list of content blocks.
func nSpillBlocks(blocks jsonjs.Value, maxInlineBytes any, extra ...jsonjs.Member) jsonjs.Value {
	return nwith(nobj("blocks", blocks, "maxInlineBytes", maxInlineBytes), extra...)
}

func nTextBlock(text string) jsonjs.Value { return nobj("type", "text", "text", text) }

func nRef(locator, hint string) jsonjs.Member {
	return jsonjs.Member{Key: "ref", Value: nobj("locator", locator, "retrievalHint", hint)}
}

func nRefA() jsonjs.Member { return nRef(nRefALocator, nRefAHint) }
func nRefB() jsonjs.Member { return nRef(nRefBLocator, nLocalHint) }

func nToolName(name string) jsonjs.Member {
	return jsonjs.Member{Key: "toolName", Value: jsonjs.StringValue(name)}
}

func nArm(arm string) jsonjs.Member { return jsonjs.Member{Key: "arm", Value: jsonjs.StringValue(arm)} }

// nLines is "line 001\n…\nline 100" (899 bytes).
func nLines() string { return strings.Join(nnumbered("line ", 1, 100, 3, ""), "\n") }

func namedSpill() []Case {
	s := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpSpillPreview, name, description, input, reqs...)
	}
	throws := func(name, description string, maxInlineBytes any) Case {
		return s(name, ThrowsPrefix+description, nSpillIn("x", maxInlineBytes, nRefA()), "SPILL-CFG-1")
	}
	a1000 := nrep("a", 1000)
	digits := nrep("0123456789", 30)
	emoji := nrep("\U0001F600", 100)
	// The text grep hands on after its tool-owned spill (search-card.md §6 row 8).
	grepSpilled := "Found 2 of 3 matches\n\na.ts\nLine 1: one\nLine 2: two\n\n(Full grep result stored at: " + nGrepLoc + ". " + nLocalHint + ")"
	globSpilled := "vendor/a.ts\nsrc/d.ts\nguide/e.md\n\n(Showing 3 of 6 paths, sampled across 3 of the 4 top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. Full sorted result stored at: " + nGlobLoc + ". " + nLocalHint + ")"
	longFailure := "Error: code run failed (output-limit): outer output exceeded 8 bytes\nCaptured output:\n" + nrep("captured line\n", 20)
	return []Case{
		// spill.md §5 reference A.
		s("spill-ref-a-head-tail-gap", "HEAD×200 + TAIL×200 at C = 200: reserve 101, budget 99 split 50/49, joined with no marker (`HE`+`L`), exactly 200 bytes (§5 reference A row 1).",
			nSpillIn(nrep("HEAD", 200)+nrep("TAIL", 200), 200, nRefA()), "SPILL-PREV-3", "SPILL-PREV-4", "SPILL-PREV-1", "RET-OMIT-2"),
		s("spill-ref-a-lines-1-to-100", "899 bytes of numbered lines at C = 300: budget 200 split 100/100, preview joined mid-line, 300 bytes (§5 reference A row 2).",
			nSpillIn(nLines(), 300, nRefA()), "SPILL-PREV-3", "SPILL-PREV-4", "SPILL-RES-5"),
		s("spill-ref-a-one-byte-slack", "a×1000 at C = 300: the reserve prices the notice at count 1000, the real count 801 has one digit less, so the result is 299 bytes (§5 reference A row 3).",
			nSpillIn(a1000, 300, nRefA()), "SPILL-PREV-2", "SPILL-PREV-5", "RET-OMIT-3"),
		s("spill-ref-a-budget-1", "a×1000 at C = 102: budget 1 gives head 1, tail 0 (§5 reference A row 4).",
			nSpillIn(a1000, 102, nRefA()), "SPILL-PREV-3", "SPILL-PREV-5"),
		s("spill-ref-a-notice-only", "a×1000 at C = 100: budget 0, the 99-byte notice alone fits and replaces the content (§5 reference A row 5).",
			nSpillIn(a1000, 100, nRefA()), "SPILL-PREV-4", "SPILL-CAP-1", "SPILL-PREV-1"),
		s("spill-ref-a-notice-too-big-original-kept", "a×1000 at C = 98: the 99-byte notice does not fit, so the original is kept while the save was still requested (§5 reference A row 6).",
			nSpillIn(a1000, 98, nRefA()), "SPILL-CAP-1"),
		s("spill-ref-a-euro-cuts-trimmed", "€×100 at C = 120: budget 20 split 10/10, both cuts trimmed to whole € (9 bytes each), omitted 282 (§5 reference A row 7).",
			nSpillIn(nrep("€", 100), 120, nRefA()), "SPILL-PREV-5", "RET-TEXT-7", "RET-UTF8-1"),
		s("spill-ref-a-euro-cuts-empty-notice-only", "€×400 at C = 103: budget 2 split 1/1, both cuts trim to nothing, so the notice alone with count 1200 is the replacement (§5 reference A row 8).",
			nSpillIn(nrep("€", 400), 103, nRefA()), "SPILL-PREV-4", "SPILL-PREV-5", "RET-UTF8-2", "RET-OMIT-3"),
		s("spill-ref-a-tiny-cap-original-kept", "xxxxx at C = 4: the 96-byte notice exceeds the cap, so the original is kept (§5 reference A row 9).",
			nSpillIn("xxxxx", 4, nRefA()), "SPILL-CAP-1"),
		s("spill-ref-a-under-cap-not-applicable", "a×9 at C = 85 is under the cap: no save, content kept (§5 reference A row 10).",
			nSpillIn(nrep("a", 9), 85, nRefA()), "SPILL-RES-2"),

		// spill.md §5 reference B (local backend locator).
		s("spill-ref-b-c-150-original-kept", "0123456789×30 at C = 150: the 179-byte notice exceeds the cap, so the original is kept (§5 reference B row 1).",
			nSpillIn(digits, 150, nRefB(), nToolName("run_code")), "SPILL-CAP-1", "SPILL-REF-1"),
		s("spill-ref-b-c-180-notice-only", "At C = 180 the budget is 0 and the 179-byte notice alone replaces the content (§5 reference B row 2).",
			nSpillIn(digits, 180, nRefB(), nToolName("run_code")), "SPILL-PREV-4", "SPILL-REF-1", "SPILL-RES-4"),
		s("spill-ref-b-c-200-head-tail", "At C = 200 the budget 19 splits 10/9: `0123456789` + `123456789` with no marker, 200 bytes (§5 reference B row 3).",
			nSpillIn(digits, 200, nRefB(), nToolName("run_code")), "SPILL-PREV-3", "SPILL-PREV-4", "SPILL-REF-1", "SPILL-PREV-1"),
		s("spill-ref-b-c-260-head-tail", "At C = 260 the budget 79 splits 40/39, 260 bytes (§5 reference B row 4).",
			nSpillIn(digits, 260, nRefB(), nToolName("run_code")), "SPILL-PREV-3", "SPILL-REF-1", "SPILL-PREV-2", "RET-OMIT-2"),
		s("spill-real-log-bash-800", "The bash-spill snapshot shape: a 2022-byte text at C = 800 with a 70-character locator gives reserve 195, budget 605 split 303/302 and an 800-byte result with a 193-byte notice (§5 real log).",
			nSpillIn("SPILL_START-"+nrep("x", 2000)+"-SPILL_END", 800, nRef(nRealLocator, nLocalHint), nToolName("bash")), "SPILL-PREV-2", "SPILL-PREV-3", "SPILL-RES-4"),

		// SPILL-RES-2 applicability and SPILL-RES-3 flattening.
		s("spill-read-exempt-on-result-arm", "A read result over the cap is exempt from the result arm: no save, content kept.",
			nSpillIn(a1000, 300, nRefA(), nToolName("read"), nArm("result")), "SPILL-RES-2"),
		s("spill-read-bounded-on-dispatch-arm", "The dispatch-log arm bounds read results too, with label dispatch and name read.txt.",
			nSpillIn(a1000, 300, nRefA(), nToolName("read"), nArm("dispatch")), "SPILL-LOG-1", "SPILL-LOG-2", "SPILL-LOG-3"),
		s("spill-non-text-block-not-applicable", "A content with a non-text block is not bounded: no save, content kept.",
			nSpillBlocks(narr(nTextBlock(a1000), nobj("type", "image")), 300, nRefA()), "SPILL-RES-2"),
		s("spill-non-text-block-dispatch-not-applicable", "The dispatch arm also skips content with a non-text block.",
			nSpillBlocks(narr(nobj("type", "image"), nTextBlock(a1000)), 300, nRefA(), nArm("dispatch")), "SPILL-LOG-2"),
		s("spill-exactly-at-cap-not-applicable", "A text of exactly maxInlineBytes bytes is not over the cap.",
			nSpillIn(nrep("a", 300), 300, nRefA()), "SPILL-RES-2"),
		s("spill-one-over-cap-applies", "A text one byte over maxInlineBytes is spilled.",
			nSpillIn(nrep("a", 300), 299, nRefA()), "SPILL-RES-2", "SPILL-PREV-3"),
		s("spill-error-text-not-exempt", "An oversized `Error: code run failed …` text is spilled like any other.",
			nSpillIn(longFailure, 150, nRefA(), nToolName("run_code")), "SPILL-RES-2", "SPILL-RES-4"),
		s("spill-multi-block-flattened", "Two text blocks are concatenated with no separator; the save holds that text and the replacement is one text.",
			nSpillBlocks(narr(nTextBlock(nrep("A", 200)), nTextBlock(nrep("B", 200))), 150, nRefA(), nToolName("bash")), "SPILL-RES-3", "SPILL-RES-5"),
		s("spill-multi-block-sum-over-cap", "Blocks each under the cap are spilled when their concatenation is over it.",
			nSpillBlocks(narr(nTextBlock(nrep("a", 100)), nTextBlock(nrep("b", 100)), nTextBlock(nrep("c", 100))), 250, nRefA()), "SPILL-RES-3", "SPILL-RES-2"),
		s("spill-multi-block-sum-under-cap", "Blocks whose concatenation fits the cap are kept.",
			nSpillBlocks(narr(nTextBlock("abc"), nTextBlock("def")), 6, nRefA()), "SPILL-RES-3", "SPILL-RES-2"),
		s("spill-multi-block-utf8-size", "The cap compares UTF-8 bytes, not characters: two blocks of three € are 18 bytes, over a cap of 17, so a save is requested (the original is kept because no notice fits).",
			nSpillBlocks(narr(nTextBlock("€€€"), nTextBlock("€€€")), 17, nRefA()), "SPILL-RES-2", "SPILL-CAP-1"),

		// SPILL-CFG-1 enablement and validation.
		s("spill-config-absent-policy-off", "Without maxInlineBytes the policy does nothing: no save, content kept.",
			nwith(nobj("text", a1000), nRefA()), "SPILL-CFG-1"),
		s("spill-config-zero-keeps-original", "maxInlineBytes 0 is valid: every non-empty text applies, but no notice fits, so the original is kept after the save.",
			nSpillIn("x", 0, nRefA()), "SPILL-CFG-1", "SPILL-CAP-1"),
		throws("spill-config-negative", "maxInlineBytes -1 fails with `(got -1)`.", -1),
		throws("spill-config-fraction", "maxInlineBytes 1.5 fails with `(got 1.5)`.", 1.5),
		throws("spill-config-string", "maxInlineBytes given as the string \"100\" fails the plugin's config schema first: `expected number but got 100`.", "100"),
		throws("spill-config-null", "maxInlineBytes null fails with `(got null)`.", nil),
		throws("spill-config-boolean", "maxInlineBytes true fails the config schema: `expected number but got true`.", true),
		throws("spill-config-array", "maxInlineBytes [1,2] fails the config schema; JavaScript prints it as `1,2`.", narr(1, 2)),
		throws("spill-config-object", "maxInlineBytes {} fails the config schema; JavaScript prints it as `[object Object]`.", nobj()),

		// SPILL-KEEP-1 and the save request.
		s("spill-save-failed-keeps-original", "Without a ref the save fails and the original content is kept, never an error.",
			nSpillIn(a1000, 300), "SPILL-KEEP-1", "SPILL-RES-4"),
		s("spill-save-failed-at-notice-only-cap", "Without a ref even a cap where the notice alone would fit keeps the original content.",
			nSpillIn(a1000, 100, nToolName("run_code")), "SPILL-KEEP-1"),
		s("spill-tool-name-default", "Without a tool name the save is suggested as tool.txt with label result.",
			nSpillIn(a1000, 300, nRefA()), "SPILL-RES-4", "SPILL-REF-1"),
		s("spill-suggested-name-from-tool", "The suggested name is `<tool>.txt`.",
			nSpillIn(a1000, 300, nRefA(), nToolName("grep")), "SPILL-RES-4"),

		// SPILL-LOG-* the dispatch-log arm.
		s("spill-dispatch-arm-label", "The dispatch arm uses the same replacement with label dispatch.",
			nSpillIn(a1000, 300, nRefA(), nToolName("grep"), nArm("dispatch")), "SPILL-LOG-1", "SPILL-LOG-3", "CODE-DISPATCH-3"),
		s("spill-dispatch-arm-error-sub-result", "The dispatch arm bounds an error sub-result too.",
			nSpillIn(longFailure, 150, nRefA(), nToolName("bash"), nArm("dispatch")), "SPILL-LOG-1", "SPILL-LOG-2", "SPILL-LOG-3"),
		s("spill-dispatch-save-failed-logs-original", "A failing dispatch save logs the original content.",
			nSpillIn(a1000, 300, nToolName("grep"), nArm("dispatch")), "SPILL-LOG-4", "SPILL-KEEP-1"),
		s("spill-dispatch-under-cap-unchanged", "A sub-result under the cap is logged unchanged.",
			nSpillIn("small", 300, nRefA(), nArm("dispatch")), "SPILL-LOG-2"),

		// SEARCH-SPILL-7 / SPILL-RES-1: the policy bounds what the tool-owned spill produced.
		s("spill-after-grep-tool-owned-spill", "The policy runs outside grep's own spill: the already re-rendered grep text (§6 row 8) over the cap is previewed again.",
			nSpillIn(grepSpilled, 150, nRefA(), nToolName("grep")), "SEARCH-SPILL-7", "SPILL-RES-1"),
		s("spill-after-glob-tool-owned-spill", "The policy also bounds glob's sampled page re-rendered with its own stored-at recovery (§7 row 6), saving that text under glob.txt.",
			nSpillIn(globSpilled, 200, nRef("/srv/spill/session-3f2a91c04b7e/0a1b2c3d4e5f-glob.txt", nLocalHint), nToolName("glob")), "SEARCH-SPILL-7", "SPILL-RES-1", "SPILL-RES-4"),
		s("spill-after-grep-tool-owned-spill-fits", "grep's re-rendered text within the cap is left as the tool rendered it.",
			nSpillIn(grepSpilled, 400, nRefA(), nToolName("grep")), "SEARCH-SPILL-7", "SPILL-RES-2"),

		// 4-byte code points at each cut position: the head and tail budgets fall
		// 0, 1, 2 and 3 bytes into an emoji.
		s("spill-emoji-budget-8", "😀×100 at C = 108: budget 8 splits 4/4, whole emoji at both cuts.", nSpillIn(emoji, 108, nRefA()), "SPILL-PREV-3", "RET-UTF8-1"),
		s("spill-emoji-budget-9", "😀×100 at C = 109: budget 9 splits 5/4, the head cut falls one byte into an emoji.", nSpillIn(emoji, 109, nRefA()), "SPILL-PREV-5", "RET-UTF8-1"),
		s("spill-emoji-budget-10", "😀×100 at C = 110: budget 10 splits 5/5, both cuts fall one byte into an emoji.", nSpillIn(emoji, 110, nRefA()), "SPILL-PREV-5", "RET-UTF8-2"),
		s("spill-emoji-budget-11", "😀×100 at C = 111: budget 11 splits 6/5, the head cut falls two bytes into an emoji.", nSpillIn(emoji, 111, nRefA()), "SPILL-PREV-5", "RET-UTF8-1"),
		s("spill-emoji-budget-15", "😀×100 at C = 115: budget 15 splits 8/7, the tail cut falls three bytes into an emoji.", nSpillIn(emoji, 115, nRefA()), "SPILL-PREV-5", "RET-UTF8-2"),
	}
}
