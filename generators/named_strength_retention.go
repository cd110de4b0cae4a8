package generators

import (
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Lone surrogates as WTF-8, the way jsonjs holds a JS string.
const (
	nLoneHigh = "\xed\xa0\x80" // U+D800
	nLoneLow  = "\xed\xbf\xbf" // U+DFFF
)

// namedStrengthRetention pins the text window over long streams (the tail
// buffer compacts itself past 2·tail + 4096 bytes), the WHATWG decoder at
// every lead-byte boundary, and spill previews whose text holds lone
// surrogates (RET-TEXT-*, RET-UTF8-*, SPILL-PREV-*).
func namedStrengthRetention() []Case {
	t := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpRetainText, name, description, input, reqs...)
	}
	s := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpSpillPreview, name, description, input, reqs...)
	}
	// spillRaw is a spill.preview case whose maxInlineBytes only text can
	// hold (1e400 parses to Infinity).
	spillRaw := func(name, description, maxInlineBytes string, reqs ...string) Case {
		ref := jsonjs.Marshal(nRefA().Value)
		v, b := InRaw(`{"text":"x","maxInlineBytes":` + maxInlineBytes + `,"ref":` + string(ref) + `}`)
		return Case{Name: name, Op: reference.OpSpillPreview, Requirements: reqs, Description: description, Input: v, RawInput: b}
	}
	return []Case{
		spillRaw("spill-config-infinity-raw-text", ThrowsPrefix+"maxInlineBytes 1e400 is Infinity, not an integer: the message prints it as `Infinity`.", "1e400", "SPILL-CFG-1"),
		spillRaw("spill-config-negative-infinity-raw-text", ThrowsPrefix+"maxInlineBytes -1e400 is -Infinity: the message prints `-Infinity`.", "-1e400", "SPILL-CFG-1"),
		s("spill-preview-huge-cap-keeps", "maxInlineBytes 1e300 is an integer far above any text: the text is kept.", nSpillIn(nrep("a", 100), 1e300, nRefA()), "SPILL-CFG-1", "SPILL-KEEP-1"),
		s("spill-preview-cap-2-pow-63-keeps", "maxInlineBytes 2^63 (9223372036854775808) is an integer above any text: the text is kept, no save.", nSpillIn(nrep("a", 100), 9223372036854775808.0, nRefA()), "SPILL-CFG-1", "SPILL-KEEP-1"),
		s("spill-preview-block-without-text", "A text block without a text member flattens to `undefined` (9 bytes): over C = 5 it is saved, and as no preview fits, the original is kept.", nSpillBlocks(narr(nobj("type", "text")), 5, nRefA()), "SPILL-RES-1", "SPILL-RES-3"),
		t("retain-text-tail-10-over-long-stream", "tail 10 over three 2100-byte chunks then `tail-end`: the last 10 bytes `c3tail-end` span the last two chunks.",
			nTextIn(nTail(10), nrep("a", 2099)+"1", nrep("b", 2099)+"2", nrep("c", 2099)+"3", "tail-end"), "RET-TEXT-1", "RET-TEXT-4", "RET-TEXT-7"),
		t("retain-text-tail-3000-over-long-stream", "tail 3000 over 12000 bytes in chunks of 1000 keeps exactly the last three chunks, omitted 9000.",
			nTextIn(nTail(3000), nnumbered("", 0, 11, 1, nrep("-", 999))...), "RET-TEXT-1", "RET-TEXT-7"),
		t("retain-text-headtail-long-stream-euro-at-tail-cut", "headTail 5/10 over 10000+ bytes ending in four € then `end`: the tail cut falls inside a € whose continuation bytes are dropped.",
			nTextIn(nHeadTail(5, 10), "HEAD-"+nrep("x", 5000), nrep("y", 5000)+"€€€€", "end"), "RET-TEXT-6", "RET-UTF8-2", "RET-TEXT-7"),
		t("retain-text-bytes-lead-byte-boundaries", "Each lead-byte range edge of the WHATWG decoder, one chunk each: 7F, 80, BF, C1, C2 80, DF BF, E0 9F, E0 A0 80, ED 9F BF, ED A0, EF BF BF, F0 8F, F0 90 80 80, F4 8F BF BF, F4 90, F5, FF.",
			nBytesIn(nHead(100), "7F", "80", "BF", "C1", "C2 80", "DF BF", "E0 9F", "E0 A0 80", "ED 9F BF", "ED A0", "EF BF BF", "F0 8F", "F0 90 80 80", "F4 8F BF BF", "F4 90", "F5", "FF", "41"), "RET-UTF8-3", "RET-TEXT-4"),
		t("retain-text-bytes-sequences-split-across-chunks", "Valid 2-, 3- and 4-byte sequences split at every inner byte across chunks decode whole (the window depends on the bytes, not the chunking).",
			nBytesIn(nHead(100), "C2", "80", "E0", "A0", "80", "EF BF", "BF", "F0", "90 80", "80", "F4 8F", "BF", "BF"), "RET-TEXT-4", "RET-UTF8-3"),
		t("retain-text-head-cut-3-byte-lead-one-continuation", "head 3 over 41 E0 A0 80: the cut keeps E0 A0, an incomplete 3-byte sequence, which is trimmed: A, omitted 3.",
			nBytesIn(nHead(3), "41 E0 A0 80"), "RET-UTF8-1", "RET-TEXT-7"),
		t("retain-text-head-cut-ef-lead-alone", "head 2 over 41 EF BF BF: EF alone at the cut is trimmed: A, omitted 3.",
			nBytesIn(nHead(2), "41 EF BF BF"), "RET-UTF8-1"),
		t("retain-text-head-cut-df-lead-alone", "head 2 over 41 DF BF: DF alone is an incomplete 2-byte sequence and is trimmed: A, omitted 2.",
			nBytesIn(nHead(2), "41 DF BF"), "RET-UTF8-1"),
		t("retain-text-head-cut-f4-lead-three-bytes", "head 4 over 41 F4 8F BF BF: F4 8F BF is incomplete and trimmed: A, omitted 4.",
			nBytesIn(nHead(4), "41 F4 8F BF BF"), "RET-UTF8-1"),
		t("retain-text-head-cut-f7-lead", "head 3 over 41 F7 80 80: F7 counts as a 4-byte lead, so F7 80 is trimmed: A, omitted 3.",
			nBytesIn(nHead(3), "41 F7 80 80"), "RET-UTF8-1"),
		t("retain-text-head-cut-single-continuation-byte", "head 1 over 80 41: a window holding one stray continuation byte has no lead to trim back to, so it is left to the decoder: U+FFFD, omitted 1.",
			nBytesIn(nHead(1), "80 41"), "RET-UTF8-1", "RET-UTF8-3"),
		t("retain-text-lone-surrogate-beside-replacement-char", "A chunk holding a lone surrogate and a real U+FFFD encodes to two U+FFFD: the real one is a 3-byte character, not three bad bytes.",
			nTextIn(nHead(100), "a"+nLoneHigh+"\ufffdb"), "RET-UTF8-3"),
		t("retain-text-head-cut-7f-kept", "head 2 over 41 7F 42: 7F is ASCII and complete: A DEL, omitted 1.",
			nBytesIn(nHead(2), "41 7F 42"), "RET-UTF8-1"),
		s("spill-preview-lone-surrogates-in-head-and-tail", "Lone surrogates inside the kept head and tail are encoded as U+FFFD (3 bytes each) and counted so; the save keeps the text with its lone surrogates.",
			nSpillIn("s"+nLoneHigh+nrep("a", 996)+nLoneLow+"e", 300, nRefA()), "SPILL-PREV-3", "SPILL-PREV-5", "RET-UTF8-3"),
		s("spill-preview-lone-surrogates-at-both-cuts", "The head cut falls after the first byte of a lone surrogate's U+FFFD and the tail cut inside another: both partial sequences are trimmed and counted as omitted.",
			nSpillIn("s"+nrep("a", 98)+nLoneHigh+nrep("b", 900)+nLoneLow+nrep("c", 97), 300, nRefA()), "SPILL-PREV-3", "SPILL-PREV-5", "RET-UTF8-1", "RET-UTF8-2"),
		s("spill-preview-lone-surrogate-beside-replacement-char", "A preview of a text holding a lone surrogate then a real U+FFFD shows two U+FFFD: only the surrogate is replaced.",
			nSpillIn("a"+nLoneHigh+"\ufffd"+nrep("b", 1000), 300, nRefA()), "SPILL-PREV-3", "RET-UTF8-3"),
		s("spill-preview-lone-surrogate-under-cap-kept", "A short text with a lone surrogate whose UTF-8 length (3 bytes for the surrogate) fits the cap is kept: no save.",
			nSpillIn("ab"+nLoneHigh+"cd", 7, nRefA()), "SPILL-RES-1", "SPILL-CAP-1"),
		s("spill-preview-lone-surrogate-one-over-cap", "The same text at a cap one byte under its 7-byte UTF-8 length is spilled.",
			nSpillIn("ab"+nLoneHigh+"cd", 6, nRefA()), "SPILL-RES-1", "SPILL-CAP-1"),
	}
}
