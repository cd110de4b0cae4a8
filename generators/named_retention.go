package generators

import (
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// nItemsIn is a retain.items input with a head strategy.
func nItemsIn(maxItems any, items ...any) jsonjs.Value {
	return nobj("strategy", nobj("kind", "head", "maxItems", maxItems), "items", narr(items...))
}

func nHead(maxBytes any) jsonjs.Value { return nobj("kind", "head", "maxBytes", maxBytes) }
func nTail(maxBytes any) jsonjs.Value { return nobj("kind", "tail", "maxBytes", maxBytes) }
func nHeadTail(headBytes, tailBytes any) jsonjs.Value {
	return nobj("kind", "headTail", "headBytes", headBytes, "tailBytes", tailBytes)
}

// nTextIn is a retain.text input with string chunks.
func nTextIn(strategy jsonjs.Value, chunks ...string) jsonjs.Value {
	if chunks == nil {
		chunks = []string{}
	}
	return nobj("strategy", strategy, "chunks", chunks)
}

// nBytesIn is a retain.text input with raw byte chunks written as hex
// ("E2 82 41"), stored base64.
func nBytesIn(strategy jsonjs.Value, hexChunks ...string) jsonjs.Value {
	chunks := make([]string, len(hexChunks))
	for i, h := range hexChunks {
		b, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		if err != nil {
			panic("generators.nBytesIn: " + err.Error())
		}
		chunks[i] = base64.StdEncoding.EncodeToString(b)
	}
	return nobj("strategy", strategy, "chunksBase64", chunks)
}

func namedRetainItems() []Case {
	it := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpRetainItems, name, description, input, reqs...)
	}
	throws := func(name, description string, strategy jsonjs.Value) Case {
		return it(name, ThrowsPrefix+description, nobj("strategy", strategy, "items", narr("a")), "RET-ITEM-1")
	}
	return []Case{
		it("retain-items-head-2-of-4", "maxItems 2 over a b c d keeps a b, reports kept, kept, dropped, dropped and omitted exact 2 (retention.md §2 example).", nItemsIn(2, "a", "b", "c", "d"), "RET-ITEM-2", "RET-ITEM-3", "RET-OMIT-1"),
		it("retain-items-max-0-drops-everything", "maxItems 0 is valid; pushing a reports dropped and finish gives no items, omitted exact 1 (retention.md §2 example).", nItemsIn(0, "a"), "RET-ITEM-1", "RET-ITEM-2", "RET-ITEM-3"),
		it("retain-items-max-0-no-items", "maxItems 0 with nothing pushed is untruncated with omitted none.", nItemsIn(0), "RET-ITEM-3", "RET-OMIT-1"),
		it("retain-items-empty", "No pushes give seen 0, kept 0, omitted none.", nItemsIn(3), "RET-ITEM-3"),
		it("retain-items-exactly-at-cap", "As many items as maxItems are all kept, untruncated.", nItemsIn(3, "a", "b", "c"), "RET-ITEM-2", "RET-ITEM-3"),
		it("retain-items-one-over-cap", "One item over maxItems is dropped: omitted exact 1, seen = kept + 1.", nItemsIn(3, "a", "b", "c", "d"), "RET-ITEM-2", "RET-ITEM-3"),
		it("retain-items-one-item-cap-1", "One item under maxItems 1 is kept.", nItemsIn(1, "only"), "RET-ITEM-2"),
		it("retain-items-json-values-kept-as-is", "Items of every JSON type are held unchanged, in push order.", nItemsIn(5, nobj("k", narr(1, nil)), nil, 2.5, "s", true), "RET-ITEM-3"),
		it("retain-items-large-budget", "A budget far above the item count keeps everything.", nItemsIn(1000000, "a", "b"), "RET-ITEM-1", "RET-ITEM-3"),
		throws("retain-items-budget-fraction", "maxItems 1.5 fails with `maxItems must be a non-negative integer`.", nobj("kind", "head", "maxItems", 1.5)),
		throws("retain-items-budget-negative", "maxItems -1 fails validation.", nobj("kind", "head", "maxItems", -1)),
		throws("retain-items-budget-string", "maxItems given as the string \"2\" fails validation.", nobj("kind", "head", "maxItems", "2")),
		throws("retain-items-budget-null", "maxItems null fails validation.", nobj("kind", "head", "maxItems", nil)),
		throws("retain-items-budget-boolean", "maxItems true fails validation.", nobj("kind", "head", "maxItems", true)),
		throws("retain-items-budget-missing", "A head strategy without maxItems fails validation.", nobj("kind", "head")),
	}
}

func namedRetainText() []Case {
	t := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpRetainText, name, description, input, reqs...)
	}
	throws := func(name, description string, strategy jsonjs.Value) Case {
		return t(name, ThrowsPrefix+description, nTextIn(strategy, "abc"), "RET-TEXT-2")
	}
	emoji := "a\U0001F600b" // 61 F0 9F 98 80 62
	return []Case{
		// retention.md §3.5 main table.
		t("retain-text-head-5-three-pushes", "head 5 over abc, de, fgh: kept, kept, dropped; text abcde, omitted 3 (§3.5 row 1).", nTextIn(nHead(5), "abc", "de", "fgh"), "RET-TEXT-1", "RET-TEXT-3", "RET-TEXT-7"),
		t("retain-text-head-4-two-pushes", "head 4 over ab, cde: kept, dropped; text abcd, omitted 1 (§3.5 row 2).", nTextIn(nHead(4), "ab", "cde"), "RET-TEXT-3"),
		t("retain-text-tail-4-two-pushes", "tail 4 over hello, world: both pushes increase the omitted total; text orld, omitted 6 (§3.5 row 3).", nTextIn(nTail(4), "hello", "world"), "RET-TEXT-1", "RET-TEXT-3"),
		t("retain-text-tail-3-four-pushes", "tail 3 over 11, 22, 33, 44: kept then dropped thrice; text 344, omitted 5 (§3.5 row 4).", nTextIn(nTail(3), "11", "22", "33", "44"), "RET-TEXT-3"),
		t("retain-text-headtail-3-3-one-push", "headTail 3/3 over abcdefghij keeps abc and hij joined directly, omitted 4 (§3.5 row 5).", nTextIn(nHeadTail(3, 3), "abcdefghij"), "RET-TEXT-1", "RET-TEXT-6"),
		t("retain-text-headtail-3-3-four-pushes", "headTail 3/3 over ab, cd, ef, gh: kept thrice, then dropped; text abcfgh, omitted 2 (§3.5 row 6).", nTextIn(nHeadTail(3, 3), "ab", "cd", "ef", "gh"), "RET-TEXT-3", "RET-TEXT-6"),
		t("retain-text-headtail-3-3-exact-fit", "headTail 3/3 over exactly 6 bytes omits nothing (§3.5 row 7).", nTextIn(nHeadTail(3, 3), "abcdef"), "RET-TEXT-5"),
		t("retain-text-headtail-5-5-under-budget", "headTail 5/5 over 8 bytes omits nothing (§3.5 row 8).", nTextIn(nHeadTail(5, 5), "abcdefgh"), "RET-TEXT-5"),
		t("retain-text-headtail-1-3-contiguous-decode", "headTail 1/3 over éab keeps é although the head|tail split falls inside it: no omission means one contiguous decode (§3.5 row 9).", nTextIn(nHeadTail(1, 3), "éab"), "RET-TEXT-5"),
		t("retain-text-head-2-euro-trimmed", "head 2 over a€b trims the partial € and counts it as omitted: text a, omitted 4 (§3.5 row 10).", nTextIn(nHead(2), "a€b"), "RET-UTF8-1", "RET-TEXT-7"),
		t("retain-text-tail-2-euro-trimmed", "tail 2 over a€b drops the leading continuation byte: text b, omitted 4 (§3.5 row 11).", nTextIn(nTail(2), "a€b"), "RET-UTF8-2", "RET-TEXT-7"),
		t("retain-text-head-3-whole-euro", "head 3 over €x keeps the whole €, omitted 1 (§3.5 row 12).", nTextIn(nHead(3), "€x"), "RET-UTF8-1"),
		t("retain-text-head-3-emoji-trimmed", "head 3 over a😀 drops the partial emoji, omitted 4 (§3.5 row 13).", nTextIn(nHead(3), "a\U0001F600"), "RET-UTF8-1", "RET-TEXT-7"),
		t("retain-text-head-4-whole-emoji", "head 4 over 😀x keeps the whole emoji, omitted 1 (§3.5 row 14).", nTextIn(nHead(4), "\U0001F600x"), "RET-UTF8-1"),
		t("retain-text-headtail-2-2-euros-trimmed-both", "headTail 2/2 over a€€b trims both cuts: text ab, omitted 6 (§3.5 row 15).", nTextIn(nHeadTail(2, 2), "a€€b"), "RET-TEXT-6", "RET-TEXT-7"),
		t("retain-text-headtail-2-2-three-euros-empty", "headTail 2/2 over €€€ trims both cuts to nothing: empty text, omitted 9 (§3.5 row 16).", nTextIn(nHeadTail(2, 2), "€€€"), "RET-TEXT-6", "RET-TEXT-7"),
		t("retain-text-headtail-4-4-four-euros", "headTail 4/4 over €€€€ keeps one € at each end, omitted 6 (§3.5 row 17).", nTextIn(nHeadTail(4, 4), "€€€€"), "RET-TEXT-6"),
		t("retain-text-headtail-2-2-two-euros-empty", "headTail 2/2 over €€ keeps nothing, omitted 6 (§3.5 row 18).", nTextIn(nHeadTail(2, 2), "€€"), "RET-TEXT-6", "RET-TEXT-7"),
		t("retain-text-head-0-one-byte", "head 0 over x keeps nothing, omitted 1 (§3.5 row 19).", nTextIn(nHead(0), "x"), "RET-TEXT-1", "RET-TEXT-3"),
		t("retain-text-head-0-no-push", "head 0 with no push is untruncated with omitted none (§3.5 row 20).", nTextIn(nHead(0)), "RET-TEXT-5", "RET-OMIT-1"),
		t("retain-text-head-0-empty-push", "An empty chunk is always kept, even under head 0 (§3.5 row 21).", nTextIn(nHead(0), ""), "RET-TEXT-3"),
		t("retain-text-headtail-0-0", "headTail 0/0 over abc keeps nothing, omitted 3 (§3.5 row 22).", nTextIn(nHeadTail(0, 0), "abc"), "RET-TEXT-1"),
		t("retain-text-tail-0", "tail 0 over abc keeps nothing, omitted 3 (§3.5 row 23).", nTextIn(nTail(0), "abc"), "RET-TEXT-1"),
		t("retain-text-head-10-split-codepoint", "é split across two byte pushes (C3, A9) is reassembled (§3.5 row 24).", nBytesIn(nHead(10), "C3", "A9"), "RET-TEXT-4", "RET-TEXT-5"),

		// retention.md §3.5 UTF-8 edge cases (raw bytes).
		t("retain-text-bytes-e2-82-41", "E2 82 41 decodes to one U+FFFD for the incomplete sequence, then A (§3.5 UTF-8 row 1).", nBytesIn(nHead(10), "E2 82 41"), "RET-UTF8-3"),
		t("retain-text-bytes-ff-fe", "FF FE decode to two U+FFFD (§3.5 UTF-8 row 2).", nBytesIn(nHead(10), "FF FE"), "RET-UTF8-3"),
		t("retain-text-bytes-surrogate-encoding", "ED A0 80 (an encoded surrogate) decodes to three U+FFFD (§3.5 UTF-8 row 3).", nBytesIn(nHead(10), "ED A0 80"), "RET-UTF8-3"),
		t("retain-text-bytes-f0-80-80-41", "80 is not allowed after F0: three U+FFFD then A (§3.5 UTF-8 row 4).", nBytesIn(nHead(10), "F0 80 80 41"), "RET-UTF8-3"),
		t("retain-text-bytes-c0-af", "C0 AF decode to two U+FFFD (§3.5 UTF-8 row 5).", nBytesIn(nHead(10), "C0 AF"), "RET-UTF8-3"),
		t("retain-text-bytes-continuation-run-untouched", "head 2 over 80 80 7A leaves the leading continuation run for the decoder: two U+FFFD, omitted 1 (§3.5 UTF-8 row 6).", nBytesIn(nHead(2), "80 80 7A"), "RET-UTF8-1", "RET-UTF8-3"),
		t("retain-text-bytes-f8-not-lead", "head 1 over F8 61: F8 is not a lead byte and is left for the decoder (§3.5 UTF-8 row 7).", nBytesIn(nHead(1), "F8 61"), "RET-UTF8-1"),
		t("retain-text-bytes-scan-stops-after-3", "head 4 over 80 80 80 80 41: the trim scan looks at most 3 bytes back, so nothing is trimmed (§3.5 UTF-8 row 8).", nBytesIn(nHead(4), "80 80 80 80 41"), "RET-UTF8-1"),
		t("retain-text-bytes-overlong-continuation-run", "head 3 over C3 A9 A9 41 leaves the extra continuation byte to the decoder: é U+FFFD, omitted 1 (§3.5 UTF-8 row 9).", nBytesIn(nHead(3), "C3 A9 A9 41"), "RET-UTF8-1", "RET-UTF8-3"),
		t("retain-text-bytes-incomplete-4-byte-trimmed", "head 4 over 61 F0 9F 98 80 trims the incomplete 4-byte sequence: a, omitted 4 (§3.5 UTF-8 row 10).", nBytesIn(nHead(4), "61 F0 9F 98 80"), "RET-UTF8-1"),
		t("retain-text-bytes-f5-lead-trimmed", "head 2 over 61 F5 80 treats F5 as a 4-byte lead and trims it: a, omitted 2 (§3.5 UTF-8 row 11).", nBytesIn(nHead(2), "61 F5 80"), "RET-UTF8-1"),
		t("retain-text-bytes-c0-lead-trimmed", "head 2 over 61 C0 80 treats C0 as a 2-byte lead and trims it: a, omitted 2 (§3.5 UTF-8 row 12).", nBytesIn(nHead(2), "61 C0 80"), "RET-UTF8-1"),
		t("retain-text-bytes-tail-drops-all-continuations", "tail 6 over 41 80 80 80 80 80 42 drops all five leading continuation bytes: B, omitted 6 (§3.5 UTF-8 row 13).", nBytesIn(nTail(6), "41 80 80 80 80 80 42"), "RET-UTF8-2"),

		// retention.md §3.5 BOM and lone-surrogate cases.
		t("retain-text-bom-removed", "A leading U+FEFF is removed by the decoder (§3.5 BOM row 1).", nTextIn(nHead(10), "\uFEFFabc"), "RET-UTF8-3"),
		t("retain-text-bom-counted-as-kept", "head 5 over U+FEFF abcdef keeps the BOM's 3 bytes as retained: text ab, omitted 4 (§3.5 BOM row 2).", nTextIn(nHead(5), "\uFEFFabcdef"), "RET-UTF8-4", "RET-TEXT-7"),
		t("retain-text-bom-removed-from-tail", "The separate decode of the suffix also drops a leading BOM: tail 4 over xyz U+FEFF a gives a, omitted 3 (§3.5 BOM row 3).", nTextIn(nTail(4), "xyz\uFEFFa"), "RET-UTF8-3", "RET-UTF8-4", "RET-TEXT-6"),
		t("retain-text-bom-not-leading-kept", "A U+FEFF that is not leading is kept (§3.5 BOM row 4).", nTextIn(nHead(10), "a\uFEFFb"), "RET-UTF8-3"),
		t("retain-text-only-one-bom-removed", "Only one leading BOM is removed (§3.5 BOM row 5).", nTextIn(nHead(10), "\uFEFF\uFEFFb"), "RET-UTF8-3"),
		t("retain-text-lone-surrogate-string", "A lone surrogate in a string chunk is encoded as U+FFFD (§3.5 BOM row 6).", nTextIn(nHead(10), "a\xed\xa0\x80b"), "RET-UTF8-3"),

		// A 4-byte code point at every cut position, both ends.
		t("retain-text-head-emoji-1-byte-in-window", "head 2 over a😀b holds one byte of the emoji, which is trimmed: a, omitted 5.", nTextIn(nHead(2), emoji), "RET-UTF8-1", "RET-TEXT-7"),
		t("retain-text-head-emoji-2-bytes-in-window", "head 3 over a😀b holds two bytes of the emoji, which are trimmed: a, omitted 5.", nTextIn(nHead(3), emoji), "RET-UTF8-1", "RET-TEXT-7"),
		t("retain-text-head-emoji-3-bytes-in-window", "head 4 over a😀b holds three bytes of the emoji, which are trimmed: a, omitted 5.", nTextIn(nHead(4), emoji), "RET-UTF8-1", "RET-TEXT-7"),
		t("retain-text-head-emoji-whole-in-window", "head 5 over a😀b keeps the whole emoji, omitted 1.", nTextIn(nHead(5), emoji), "RET-UTF8-1"),
		t("retain-text-tail-emoji-1-byte-in-window", "tail 2 over a😀b holds the emoji's last byte, which is dropped: b, omitted 5.", nTextIn(nTail(2), emoji), "RET-UTF8-2", "RET-TEXT-7"),
		t("retain-text-tail-emoji-2-bytes-in-window", "tail 3 over a😀b holds two continuation bytes, which are dropped: b, omitted 5.", nTextIn(nTail(3), emoji), "RET-UTF8-2", "RET-TEXT-7"),
		t("retain-text-tail-emoji-3-bytes-in-window", "tail 4 over a😀b holds three continuation bytes, which are dropped: b, omitted 5.", nTextIn(nTail(4), emoji), "RET-UTF8-2", "RET-TEXT-7"),
		t("retain-text-tail-emoji-whole-in-window", "tail 5 over a😀b keeps the whole emoji, omitted 1.", nTextIn(nTail(5), emoji), "RET-UTF8-2"),
		t("retain-text-headtail-emoji-both-cuts-trimmed", "headTail 3/3 over two emoji cuts inside both: empty text, omitted 8.", nTextIn(nHeadTail(3, 3), "\U0001F600\U0001F600"), "RET-TEXT-6", "RET-TEXT-7"),
		t("retain-text-headtail-emoji-head-whole", "headTail 4/3 over two emoji keeps the first whole and trims the tail: one emoji, omitted 4.", nTextIn(nHeadTail(4, 3), "\U0001F600\U0001F600"), "RET-TEXT-6"),
		t("retain-text-headtail-emoji-straddling-no-omission", "headTail 2/2 over one emoji splits it between head and tail but omits nothing, so it decodes whole.", nTextIn(nHeadTail(2, 2), "\U0001F600"), "RET-TEXT-5"),

		// Chunking, push decisions and budgets at their edges.
		t("retain-text-chunking-emoji-four-pushes", "An emoji pushed one byte at a time is reassembled: finish depends only on the concatenated bytes.", nBytesIn(nHead(10), "F0", "9F", "98", "80"), "RET-TEXT-4"),
		t("retain-text-chunking-one-byte-pushes", "headTail 3/3 over abcdefghij pushed byte by byte finishes like one push (abchij, omitted 4).", nTextIn(nHeadTail(3, 3), "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"), "RET-TEXT-4", "RET-TEXT-3"),
		t("retain-text-tail-kept-false-means-older-bytes", "tail 3 over abc then d: the second push reports kept false although d is retained, because the omitted total grew.", nTextIn(nTail(3), "abc", "d"), "RET-TEXT-3"),
		t("retain-text-head-exactly-at-budget", "head 3 over exactly 3 bytes is untruncated.", nTextIn(nHead(3), "abc"), "RET-TEXT-3", "RET-TEXT-5"),
		t("retain-text-head-one-over-budget", "head 3 over 4 bytes is truncated with omitted 1.", nTextIn(nHead(3), "abcd"), "RET-TEXT-3", "RET-TEXT-7"),
		t("retain-text-empty-push-after-truncation", "An empty push after truncation is kept but still reports truncated, and finish's truncated equals the last push's.", nTextIn(nHead(1), "ab", ""), "RET-TEXT-3", "RET-TEXT-7"),

		// RET-TEXT-2 budget validation (thrown).
		throws("retain-text-budget-negative-max-bytes", "head with maxBytes -1 fails with `maxBytes must be a non-negative integer`.", nHead(-1)),
		throws("retain-text-budget-fraction", "tail with maxBytes 1.5 fails validation.", nTail(1.5)),
		throws("retain-text-budget-string", "maxBytes given as the string \"4\" fails validation.", nHead("4")),
		throws("retain-text-budget-missing", "A head strategy without maxBytes fails validation.", nobj("kind", "head")),
		throws("retain-text-budget-headbytes-first", "headTail {-1, -2} reports headBytes first.", nHeadTail(-1, -2)),
		throws("retain-text-budget-tailbytes", "headTail {3, -1} reports tailBytes.", nHeadTail(3, -1)),
	}
}
