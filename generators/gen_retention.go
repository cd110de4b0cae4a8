package generators

import (
	"encoding/base64"
	"strings"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// This file generates retain.items and retain.text inputs.

// RetainItemsInput draws a retain.items input: up to 12 JSON items and a
// head strategy whose maxItems sits at the item count, ±1, 0, 1 or large
// (RET-ITEM-2/3).
func RetainItemsInput() *rapid.Generator[retention.ItemsInput] {
	return rapid.Custom(func(t *rapid.T) retention.ItemsInput {
		var in retention.ItemsInput
		in.Items = make([]jsonjs.Value, rapid.IntRange(0, 12).Draw(t, "itemCount"))
		for i := range in.Items {
			in.Items[i] = LosslessJSONValue(2).Draw(t, "item")
		}
		in.Strategy.Kind = "head"
		in.Strategy.MaxItems = jsonjs.IntValue(genSizeNear(t, "maxItems", len(in.Items), 0))
		return in
	})
}

// genInvalidBytes are byte sequences that are not UTF-8, each exercising a
// branch of the WHATWG decoder or of the cut trimming (RET-UTF8-1..3).
var genInvalidBytes = []string{"\xff", "\xfe", "\x80", "\x80\x80", "\xc0\xaf", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf0\x80\x80", "\xf0\x9f\x98", "\xf5\x80", "\xf8"}

// genTextBytes draws the bytes of a text stream: valid UTF-8 (a run of one
// multi-byte character so that every cut offset is reached, text with
// U+FEFF at the start or inside, or mixed atoms), or, with raw, any of these
// with invalid sequences spliced in.
func genTextBytes(t *rapid.T, raw bool) []byte {
	var s string
	switch genChoice(t, "textKind", 6) {
	case 0, 1:
		run := rapid.SampledFrom(genMultiByteRuns).Draw(t, "run")
		s = strings.Repeat(run, rapid.IntRange(0, 12).Draw(t, "runCount"))
	case 2:
		s = "\uFEFF" + UnicodeString().Draw(t, "afterBOM")
	default:
		s = UnicodeString().Draw(t, "text")
	}
	if !raw {
		return []byte(s)
	}
	b := []byte(s)
	for i, n := 0, rapid.IntRange(0, 3).Draw(t, "invalidCount"); i < n; i++ {
		at := rapid.IntRange(0, len(b)).Draw(t, "invalidAt")
		bad := rapid.SampledFrom(genInvalidBytes).Draw(t, "invalid")
		b = append(b[:at:at], append([]byte(bad), b[at:]...)...)
	}
	return b
}

// genCutPoints splits n bytes into chunks at drawn offsets (possibly empty
// chunks, possibly one chunk for everything, possibly no chunk when n = 0).
// With runeAligned only offsets on codepoint boundaries of b are used.
func genCutPoints(t *rapid.T, b []byte, runeAligned bool) [][]byte {
	k := rapid.IntRange(0, 5).Draw(t, "cuts")
	offs := make([]int, 0, k+2)
	offs = append(offs, 0)
	for i := 0; i < k; i++ {
		offs = append(offs, rapid.IntRange(0, len(b)).Draw(t, "cutAt"))
	}
	offs = append(offs, len(b))
	if runeAligned { // move each cut forward to the next codepoint boundary
		for i, o := range offs {
			for o < len(b) && b[o]&0xC0 == 0x80 {
				o++
			}
			offs[i] = o
		}
	}
	// insertion sort: k is tiny
	for i := 1; i < len(offs); i++ {
		for j := i; j > 0 && offs[j] < offs[j-1]; j-- {
			offs[j], offs[j-1] = offs[j-1], offs[j]
		}
	}
	var chunks [][]byte
	for i := 1; i < len(offs); i++ {
		chunks = append(chunks, b[offs[i-1]:offs[i]])
	}
	if len(b) == 0 && rapid.Bool().Draw(t, "noPush") {
		return nil
	}
	return chunks
}

// RetainTextInput draws a retain.text input: a head, tail or headTail
// strategy with budgets near the stream size (exactly at it, ±1, the small
// values that cut inside every multi-byte sequence, large), over either
// string chunks (valid UTF-8, split on codepoint boundaries as JS strings
// are) or base64 byte chunks that split codepoints anywhere and may hold
// invalid UTF-8 (RET-TEXT-*, RET-UTF8-*).
func RetainTextInput() *rapid.Generator[retention.TextInput] {
	return rapid.Custom(func(t *rapid.T) retention.TextInput {
		var in retention.TextInput
		raw := genChoice(t, "raw", 3) == 0
		b := genTextBytes(t, raw)
		n := len(b)
		switch kind := rapid.SampledFrom([]string{"head", "tail", "headTail"}).Draw(t, "strategy"); kind {
		case "headTail":
			in.Strategy.Kind = kind
			total := genSizeNear(t, "window", n, 0)
			head := rapid.IntRange(0, total).Draw(t, "headBytes")
			in.Strategy.HeadBytes = jsonjs.IntValue(head)
			in.Strategy.TailBytes = jsonjs.IntValue(total - head)
		default:
			in.Strategy.Kind = kind
			in.Strategy.MaxBytes = jsonjs.IntValue(genSizeNear(t, "maxBytes", n, 0))
		}
		chunks := genCutPoints(t, b, !raw)
		if raw {
			in.ChunksBase64 = make([]string, len(chunks))
			for i, c := range chunks {
				in.ChunksBase64[i] = base64.StdEncoding.EncodeToString(c)
			}
		} else {
			in.Chunks = make([]string, len(chunks))
			for i, c := range chunks {
				in.Chunks[i] = string(c)
			}
		}
		return in
	})
}
