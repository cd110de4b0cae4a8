package retention

// A Decoder turns retained UTF-8 bytes into text. The reference's is Decode
// (RET-UTF8-3: one leading BOM removed, WHATWG replacement); diagnosis runs
// the reference with the decoders of other languages' libraries.
type Decoder func([]byte) string

// FinishWith is Finish with dec as the decoder of each retained buffer:
// the reference's is Decode (RET-UTF8-3); the deviation models of
// internal/diagnosis give other languages' decoders.
func (t *Text) FinishWith(dec Decoder) RetainedText {
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
