package retention

import (
	"encoding/base64"
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// ItemsInput is the input of the retain.items op.
type ItemsInput struct {
	Strategy struct {
		Kind     string       `json:"kind"`
		MaxItems jsonjs.Value `json:"maxItems"`
	} `json:"strategy"`
	Items []jsonjs.Value `json:"items"`
}

// ItemsOutput is the output of the retain.items op: the RET-ITEM-3 outcome
// plus every push decision (RET-ITEM-2).
type ItemsOutput struct {
	RetainedItems[jsonjs.Value]
	Pushes []Decision `json:"pushes"`
}

// RetainItems runs the retain.items op. An invalid budget is an error
// carrying the library's message (RET-ITEM-1).
func RetainItems(in ItemsInput) (ItemsOutput, error) {
	if in.Strategy.Kind != "head" {
		return ItemsOutput{}, fmt.Errorf("unknown item strategy kind %q (want \"head\")", in.Strategy.Kind)
	}
	max, err := Budget("maxItems", in.Strategy.MaxItems)
	if err != nil {
		return ItemsOutput{}, err
	}
	r, _ := NewItems[jsonjs.Value](max)
	pushes := make([]Decision, 0, len(in.Items))
	for _, it := range in.Items {
		pushes = append(pushes, r.Push(it))
	}
	return ItemsOutput{RetainedItems: r.Finish(), Pushes: pushes}, nil
}

// TextInput is the input of the retain.text op. Exactly one of Chunks (JS
// strings, UTF-8 encoded) and ChunksBase64 (raw bytes) is given.
type TextInput struct {
	Strategy struct {
		Kind      string       `json:"kind"`
		MaxBytes  jsonjs.Value `json:"maxBytes"`
		HeadBytes jsonjs.Value `json:"headBytes"`
		TailBytes jsonjs.Value `json:"tailBytes"`
	} `json:"strategy"`
	Chunks       []string `json:"chunks,omitempty"`
	ChunksBase64 []string `json:"chunksBase64,omitempty"`
}

// TextOutput is the output of the retain.text op: the finish outcome plus
// every push decision (RET-TEXT-3).
type TextOutput struct {
	RetainedText
	Pushes []Decision `json:"pushes"`
}

// ParseTextStrategy validates a strategy's budgets in upstream's order
// (RET-TEXT-2: headBytes before tailBytes).
func ParseTextStrategy(kind string, maxBytes, headBytes, tailBytes jsonjs.Value) (TextStrategy, error) {
	switch kind {
	case "head", "tail":
		n, err := Budget("maxBytes", maxBytes)
		if err != nil {
			return TextStrategy{}, err
		}
		if kind == "head" {
			return HeadBytes(n), nil
		}
		return TailBytes(n), nil
	case "headTail":
		h, err := Budget("headBytes", headBytes)
		if err != nil {
			return TextStrategy{}, err
		}
		t, err := Budget("tailBytes", tailBytes)
		if err != nil {
			return TextStrategy{}, err
		}
		return HeadTailBytes(h, t), nil
	}
	return TextStrategy{}, fmt.Errorf("unknown text strategy kind %q (want head, tail or headTail)", kind)
}

// RetainText runs the retain.text op.
func RetainText(in TextInput) (TextOutput, error) { return RetainTextWith(in, nil) }

// RetainTextWith runs the retain.text op with dec as the retainer's
// decoder (nil: Decode).
func RetainTextWith(in TextInput, dec Decoder) (TextOutput, error) {
	st := in.Strategy
	s, err := ParseTextStrategy(st.Kind, st.MaxBytes, st.HeadBytes, st.TailBytes)
	if err != nil {
		return TextOutput{}, err
	}
	if in.Chunks != nil && in.ChunksBase64 != nil {
		return TextOutput{}, fmt.Errorf("give either chunks or chunksBase64, not both")
	}
	t, _ := NewText(s)
	pushes := make([]Decision, 0, len(in.Chunks)+len(in.ChunksBase64))
	for _, c := range in.Chunks {
		pushes = append(pushes, t.PushString(c))
	}
	for i, c := range in.ChunksBase64 {
		b, err := base64.StdEncoding.DecodeString(c)
		if err != nil {
			return TextOutput{}, fmt.Errorf("chunksBase64[%d]: %v", i, err)
		}
		pushes = append(pushes, t.Push(b))
	}
	return TextOutput{RetainedText: t.FinishWith(dec), Pushes: pushes}, nil
}
