package retention

// A Decoder turns retained UTF-8 bytes into text. The reference's is Decode
// (RET-UTF8-3: one leading BOM removed, WHATWG replacement); diagnosis runs
// the reference with the decoders of other languages' libraries.
type Decoder func([]byte) string

// FinishWith is Finish with dec as the decoder of each retained buffer;
// nil is the reference's, Decode (RET-UTF8-3). Only the deviation models of
// internal/diagnosis give another: the reference's own path stays Finish,
// whose direct call keeps its buffer off the heap.
func (t *Text) FinishWith(dec Decoder) RetainedText {
	if dec == nil {
		return t.Finish()
	}
	return t.finishDecoded(dec)
}

// finishDecoded is Finish decoding with dec (RET-TEXT-5..7).
func (t *Text) finishDecoded(dec Decoder) RetainedText {
	suffixLen := min(t.total-len(t.prefix), t.s.Suffix)
	suffix := t.rest[len(t.rest)-suffixLen:]
	if t.omittedAt(t.total) == 0 {
		// RET-TEXT-5: the whole stream, decoded as one buffer.
		whole := append(append([]byte(nil), t.prefix...), suffix...)
		return RetainedText{Text: dec(whole), OmittedBytes: Omission{Kind: None}}
	}
	// RET-TEXT-6: trim each cut, decode separately, no marker between.
	head := TrimTrailingPartial(t.prefix)
	tail := TrimLeadingContinuation(suffix)
	return RetainedText{
		Text:         dec(head) + dec(tail),
		Truncated:    true,
		OmittedBytes: Omission{Kind: Exact, Count: t.total - len(head) - len(tail)}, // RET-TEXT-7
	}
}
