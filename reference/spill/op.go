package spill

import (
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// defaultToolName names the tool when the op input does not.
const defaultToolName = "tool"

// PreviewInput is the input of the spill.preview op (docs/ops.md). Exactly
// one of Text (a single text block) and Blocks is set. MaxInlineBytes is nil
// when the setting is absent, which disables the policy (SPILL-CFG-1); a
// present JSON null is a configuration error, so presence has to survive
// decoding. Ref nil means the save fails (SPILL-KEEP-1). ToolName "" means
// absent ("tool"); Arm "" means "result".
type PreviewInput struct {
	Text           *string
	Blocks         []Block
	MaxInlineBytes *jsonjs.Value
	Ref            *Ref
	ToolName       string
	Arm            Arm
}

// SaveRequest is the part of the save request the policy composes
// (SPILL-RES-4, SPILL-LOG-3): the label is the arm, the suggested name
// "<tool>.txt", the text the whole flattened content (SPILL-RES-3).
type SaveRequest struct {
	Label         Arm
	SuggestedName string
	Text          string
}

// PreviewOutput is the op's output. Content nil means the original content
// is kept (the policy does not apply, the save failed, or no replacement
// fits); Save nil means no save was attempted because the policy does not
// apply.
type PreviewOutput struct {
	Content *string
	Save    *SaveRequest
}

// PreviewOp runs the policy on one content for one arm: applicability
// (SPILL-RES-2 / SPILL-LOG-2), the save request, then the replacement
// (SPILL-PREV-*, SPILL-CAP-1). The save is requested before the preview is
// built, as upstream does, so a replacement that does not fit still leaves a
// saved artifact behind (the harmless orphan of SPILL-CAP-1).
//
// The error is the configuration error of SPILL-CFG-1, or a malformed input.
func PreviewOp(in PreviewInput) (PreviewOutput, error) { return PreviewOpWith(in, nil) }

// PreviewOpWith is PreviewOp with dec as the preview's decoder (nil:
// retention.Decode).
func PreviewOpWith(in PreviewInput, dec retention.Decoder) (PreviewOutput, error) {
	if (in.Text == nil) == (in.Blocks == nil) {
		return PreviewOutput{}, fmt.Errorf("spill.preview: exactly one of text and blocks is required")
	}
	arm := in.Arm
	switch arm {
	case "":
		arm = ArmResult
	case ArmResult, ArmDispatch:
	default:
		return PreviewOutput{}, fmt.Errorf("spill.preview: unknown arm %q (want result or dispatch)", arm)
	}
	if in.MaxInlineBytes == nil {
		return PreviewOutput{}, nil // SPILL-CFG-1: no setting, no policy
	}
	limit, err := ParseMaxInlineBytes(*in.MaxInlineBytes)
	if err != nil {
		return PreviewOutput{}, err
	}
	toolName := in.ToolName
	if toolName == "" {
		toolName = defaultToolName
	}
	blocks := in.Blocks
	if in.Text != nil {
		blocks = []Block{TextBlock(*in.Text)}
	}
	text, ok := Applies(arm, toolName, blocks, limit)
	if !ok {
		return PreviewOutput{}, nil
	}
	out := PreviewOutput{Save: &SaveRequest{Label: arm, SuggestedName: toolName + ".txt", Text: text}} // SPILL-RES-4, SPILL-LOG-3
	if in.Ref == nil {
		return out, nil // SPILL-KEEP-1: a failed save keeps the original
	}
	if replacement, ok := previewWith(text, limit, *in.Ref, dec); ok {
		out.Content = &replacement // SPILL-RES-5: one text block
	}
	return out, nil
}
