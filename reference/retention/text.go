package retention

import (
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// TextStrategy is a text window: the first Prefix bytes and the last Suffix
// bytes of a stream are kept (RET-TEXT-1).
type TextStrategy struct {
	Prefix int
	Suffix int
}

// HeadBytes keeps the first maxBytes bytes.
func HeadBytes(maxBytes int) TextStrategy { return TextStrategy{Prefix: maxBytes} }

// TailBytes keeps the last maxBytes bytes.
func TailBytes(maxBytes int) TextStrategy { return TextStrategy{Suffix: maxBytes} }

// HeadTailBytes keeps the first headBytes and the last tailBytes bytes.
func HeadTailBytes(headBytes, tailBytes int) TextStrategy {
	return TextStrategy{Prefix: headBytes, Suffix: tailBytes}
}

// Text is a byte-stream window. Its result depends only on the concatenated
// bytes, never on how they were chunked (RET-TEXT-4).
type Text struct {
	s      TextStrategy
	total  int
	prefix []byte
	rest   []byte // bytes after the prefix; trimmed to the last s.Suffix lazily
	last   Decision
}

// NewText returns a text retainer; budgets must be >= 0 (RET-TEXT-2).
func NewText(s TextStrategy) (*Text, error) {
	if s.Prefix < 0 || s.Suffix < 0 {
		return nil, fmt.Errorf("budgets must be non-negative integers")
	}
	return &Text{s: s}, nil
}

func (t *Text) omittedAt(total int) int {
	p := min(total, t.s.Prefix)
	s := min(total-p, t.s.Suffix)
	return total - p - s
}

// Push appends bytes to the stream and reports the decision of RET-TEXT-3:
// kept means the omitted total did not grow.
func (t *Text) Push(b []byte) Decision {
	before := t.omittedAt(t.total)
	t.total += len(b)
	if room := t.s.Prefix - len(t.prefix); room > 0 {
		n := min(room, len(b))
		t.prefix = append(t.prefix, b[:n]...)
		b = b[n:]
	}
	if t.s.Suffix > 0 && len(b) > 0 {
		t.rest = append(t.rest, b...)
		// Keep the last Suffix bytes; compact only when the buffer has doubled
		// so that pushing is amortized linear.
		if len(t.rest) > 2*t.s.Suffix+4096 {
			t.rest = append(t.rest[:0], t.rest[len(t.rest)-t.s.Suffix:]...)
		}
	}
	after := t.omittedAt(t.total)
	t.last = Decision{Kept: !(after > before), Truncated: after > 0}
	return t.last
}

// PushString pushes a JS string, encoded as a JS UTF-8 encoder does (lone
// surrogates become U+FFFD).
func (t *Text) PushString(s string) Decision {
	return t.Push([]byte(jsonjs.ToUTF8(s)))
}

// RetainedText is the outcome of a text window.
type RetainedText struct {
	Text         string   `json:"text"`
	Truncated    bool     `json:"truncated"`
	OmittedBytes Omission `json:"omittedBytes"`
}

// Finish returns the retained text (RET-TEXT-5..7).
func (t *Text) Finish() RetainedText {
	suffixLen := min(t.total-len(t.prefix), t.s.Suffix)
	suffix := t.rest[len(t.rest)-suffixLen:]
	if t.omittedAt(t.total) == 0 {
		// RET-TEXT-5: the whole stream, decoded as one buffer.
		whole := append(append([]byte(nil), t.prefix...), suffix...)
		return RetainedText{Text: Decode(whole), OmittedBytes: Omission{Kind: None}}
	}
	// RET-TEXT-6: trim each cut, decode separately, no marker between.
	head := TrimTrailingPartial(t.prefix)
	tail := TrimLeadingContinuation(suffix)
	return RetainedText{
		Text:         Decode(head) + Decode(tail),
		Truncated:    true,
		OmittedBytes: Omission{Kind: Exact, Count: t.total - len(head) - len(tail)}, // RET-TEXT-7
	}
}
