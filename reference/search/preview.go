package search

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// truncatedMarker follows a cut line preview (SEARCH-PREVIEW-1).
const truncatedMarker = " (line truncated)"

// PreviewLine is grep's per-line preview: a head text window of maxBytes
// UTF-8 bytes, plus " (line truncated)" exactly when something was cut
// (SEARCH-PREVIEW-1/2). The retainer's decoder also drops a leading U+FEFF
// and turns lone surrogates into U+FFFD, cut or not (SEARCH-PREVIEW-3).
func PreviewLine(line string, maxBytes int) string {
	return previewLine(line, maxBytes, JS)
}

// previewLine is PreviewLine with p's decoder and cut (nil: the retainer's).
func previewLine(line string, maxBytes int, p Primitives) string {
	dec := p.Decode
	if p.Cut != nil { // a diagnosis dialect's measure
		kept, cut := p.Cut(line, maxBytes)
		if dec == nil {
			dec = retention.Decode
		}
		text := dec([]byte(jsonjs.ToUTF8(kept)))
		if cut {
			text += truncatedMarker
		}
		return text
	}
	t, _ := retention.NewText(retention.HeadBytes(maxBytes))
	t.PushString(line)
	r := t.FinishWith(dec)
	if r.Truncated {
		return r.Text + truncatedMarker
	}
	return r.Text
}
