package spill_test

import (
	"encoding/json"
	"testing"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/spill"
)

// FuzzPreview checks the SPILL-CAP-1 bound and SPILL-PREV-5 on arbitrary
// texts, caps and references: a replacement is never over the cap, never
// as large as an over-cap original, and never panics.
func FuzzPreview(f *testing.F) {
	f.Add("HEADTAIL", 5, "/spill/big.txt", "Use the stub retrieval path.")
	f.Add("€€€€\xed\xa0\x80\xef\xbb\xbf", 120, "L", "H")
	f.Add("x", -3, "", "")
	f.Fuzz(func(t *testing.T, text string, limit int, locator, hint string) {
		got, ok := spill.Preview(text, limit, spill.Ref{Locator: locator, RetrievalHint: hint})
		if !ok {
			return
		}
		n := jsonjs.UTF8Len(got)
		if n > limit {
			t.Fatalf("replacement of %d bytes over cap %d", n, limit)
		}
		if total := jsonjs.UTF8Len(text); total > limit && n >= total {
			t.Fatalf("replacement of %d bytes not smaller than the %d-byte original", n, total)
		}
	})
}

// FuzzPreviewOp feeds arbitrary op inputs through decoding, the op and
// encoding.
func FuzzPreviewOp(f *testing.F) {
	f.Add(`{"text":"aaaaaaaaaa","maxInlineBytes":3,"ref":{"locator":"l","retrievalHint":"h"}}`)
	f.Add(`{"blocks":[{"type":"text"},{"type":"text","text":"\ud800"}],"maxInlineBytes":[[1]],"arm":"dispatch"}`)
	f.Fuzz(func(t *testing.T, input string) {
		var in spill.PreviewInput
		if json.Unmarshal([]byte(input), &in) != nil {
			return
		}
		out, err := spill.PreviewOp(in)
		if err != nil {
			return
		}
		if out.Content != nil && out.Save == nil {
			t.Fatal("content replaced without a save")
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatal(err)
		}
	})
}
