package spill

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Arm names which of the policy's two arms is bounding content; it is also
// the save request's label (SPILL-RES-4, SPILL-LOG-3).
type Arm string

// The two arms.
const (
	// ArmResult bounds the model-facing result of a top-level call (SPILL-RES-*).
	ArmResult Arm = "result"
	// ArmDispatch bounds the durable log copy of a Code Mode sub-call
	// result (SPILL-LOG-*).
	ArmDispatch Arm = "dispatch"
)

// readTool is exempt from the result arm only: spilling a read result would
// invite the model to read the spill file, which would spill again
// (SPILL-RES-2). Its log copy is bounded like any other (SPILL-LOG-2).
const readTool = "read"

// Block is one content block of a tool result. Text is nil when the block
// has no text member.
type Block struct {
	Type string  `json:"type"`
	Text *string `json:"text,omitempty"`
}

// TextBlock returns a text block.
func TextBlock(text string) Block { return Block{Type: "text", Text: &text} }

// Flatten concatenates the texts of an all-text content with no separator
// (SPILL-RES-3); ok is false when any block is not text, since the policy
// only knows how to bound plain text. A text block without text adds
// "undefined", as upstream's string concatenation does; it joins a split
// surrogate pair into one code point too (jsonjs.Concat).
func Flatten(blocks []Block) (text string, ok bool) {
	for _, b := range blocks {
		if b.Type != "text" {
			return "", false
		}
		if b.Text == nil {
			text += "undefined"
			continue
		}
		text = jsonjs.Concat(text, *b.Text)
	}
	return text, true
}

// Applies reports whether an arm bounds the given content and returns the
// flattened text it would spill (SPILL-RES-2, SPILL-LOG-2): every block is
// text and the text's UTF-8 size exceeds maxInlineBytes; for the result arm
// the tool is not read. Error results are not exempt.
//
// The result arm's other conditions concern the call, not the content, and
// are the caller's: the downstream decision is accept without a value
// replacement, and the call is top-level (CODE-DISPATCH-6: sub-calls only get
// the dispatch arm). An unknown arm never applies.
func Applies(arm Arm, toolName string, blocks []Block, maxInlineBytes int) (text string, ok bool) {
	switch arm {
	case ArmResult:
		if toolName == readTool { // SPILL-RES-2
			return "", false
		}
	case ArmDispatch: // SPILL-LOG-2: any tool, read included
	default:
		return "", false
	}
	text, ok = Flatten(blocks)
	if !ok || jsonjs.UTF8Len(text) <= maxInlineBytes {
		return "", false
	}
	return text, true
}
