package search

import "github.com/dsh-conform/conform/reference/retention"

// truncatedMarker follows a cut line preview (SEARCH-PREVIEW-1).
const truncatedMarker = " (line truncated)"

// PreviewLine is grep's per-line preview: a head text window of maxBytes
// UTF-8 bytes, plus " (line truncated)" exactly when something was cut
// (SEARCH-PREVIEW-1/2). The retainer's decoder also drops a leading U+FEFF
// and turns lone surrogates into U+FFFD, cut or not (SEARCH-PREVIEW-3).
func PreviewLine(line string, maxBytes int) string {
	return previewLine(line, maxBytes, nil)
}

// previewLine is PreviewLine with dec as the retainer's decoder (nil:
// retention.Decode).
func previewLine(line string, maxBytes int, dec retention.Decoder) string {
	t, _ := retention.NewText(retention.HeadBytes(maxBytes))
	t.PushString(line)
	r := t.FinishWith(dec)
	if r.Truncated {
		return r.Text + truncatedMarker
	}
	return r.Text
}
