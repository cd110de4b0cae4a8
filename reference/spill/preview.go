package spill

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// noticeSeparator joins the preview and the notice (SPILL-PREV-4).
const noticeSeparator = "\n\n"

// previewWith builds the replacement for a text the policy spilled to ref,
// dec decoding the preview's cuts, or reports ok=false when the original must be kept because no replacement
// fits in maxInlineBytes (SPILL-CAP-1). Callers decide applicability first
// (Applies); like upstream, Preview itself does not re-check that the text
// is over the cap.
//
// The notice is priced at the worst-case count T (the whole text) before
// the preview is cut, because the real count is smaller and so never has
// more digits; the "\n\n" separator is reserved too (SPILL-PREV-2). What
// remains is split between head and tail, the odd byte going to the head
// (SPILL-PREV-3).
func previewWith(text string, maxInlineBytes int, ref Ref, dec retention.Decoder) (replacement string, ok bool) {
	if maxInlineBytes < 0 {
		return "", false // SPILL-CAP-1: nothing fits; also keeps the arithmetic below from wrapping
	}
	total := jsonjs.UTF8Len(text)
	reserve := jsonjs.UTF8Len(Notice(total, ref.Locator, ref.RetrievalHint)) + len(noticeSeparator) // SPILL-PREV-2
	budget := max(0, maxInlineBytes-reserve)                                                        // SPILL-PREV-3
	retainer, err := retention.NewText(retention.HeadTailBytes(budget/2+budget%2, budget/2))
	if err != nil {
		return "", false // unreachable: both budgets are >= 0
	}
	retainer.Push([]byte(jsonjs.ToUTF8(text)))
	kept := retainer.FinishWith(dec)
	// SPILL-PREV-5: the count is what the preview did not keep, bytes trimmed
	// at codepoint boundaries included (RET-TEXT-7).
	replacement = notice(kept.OmittedBytes, ref)
	if kept.Text != "" {
		replacement = kept.Text + noticeSeparator + replacement // SPILL-PREV-4: head and tail joined bare
	}
	if jsonjs.UTF8Len(replacement) > maxInlineBytes { // SPILL-CAP-1
		return "", false
	}
	return replacement, true
}

// Preview is previewWith the retainer's decoder, Decode (RET-UTF8-3).
func Preview(text string, maxInlineBytes int, ref Ref) (replacement string, ok bool) {
	return previewWith(text, maxInlineBytes, ref, nil)
}
