package spill

import "github.com/dsh-conform/conform/reference/jsonjs"

// DecodePreviewInput reads the op input with JSON.parse semantics: member
// names exact, unknown members ignored, texts WTF-8 (lone surrogates kept,
// so that the save text is the one JavaScript would hand to the store), and
// an absent maxInlineBytes kept apart from null (SPILL-CFG-1). A null text,
// blocks, ref, toolName or arm is the same as none (a null ref: the save
// fails); a block's null text is the text "null" (below).
func DecodePreviewInput(f jsonjs.Field) (PreviewInput, error) {
	var in PreviewInput
	if err := f.Object(); err != nil {
		return in, err
	}
	if t := f.Member("text"); t.Given() {
		s, err := t.String()
		if err != nil {
			return in, err
		}
		in.Text = &s
	}
	if b := f.Member("blocks"); b.Given() {
		blocks, err := decodeBlocks(b)
		if err != nil {
			return in, err
		}
		in.Blocks = blocks
	}
	if m := f.Member("maxInlineBytes"); m.Present {
		limit := m.Value
		in.MaxInlineBytes = &limit
	}
	if r := f.Member("ref"); r.Given() {
		ref, err := decodeRef(r)
		if err != nil {
			return in, err
		}
		in.Ref = &ref
	}
	var err error
	if in.ToolName, err = f.Member("toolName").OptString(""); err != nil {
		return in, err
	}
	arm, err := f.Member("arm").OptString("")
	in.Arm = Arm(arm)
	return in, err
}

func decodeBlocks(f jsonjs.Field) ([]Block, error) {
	items, err := f.Items()
	if err != nil {
		return nil, err
	}
	blocks := make([]Block, 0, len(items))
	for _, item := range items {
		typ, err := item.Member("type").String()
		if err != nil {
			return nil, err
		}
		b := Block{Type: typ}
		if t := item.Member("text"); t.Given() {
			s, err := t.String()
			if err != nil {
				return nil, err
			}
			b.Text = &s
		} else if t.Present {
			null := "null" // upstream's string concatenation of a null text, as "undefined" is of an absent one (Flatten)
			b.Text = &null
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

func decodeRef(f jsonjs.Field) (Ref, error) {
	loc, err := f.Member("locator").String()
	if err != nil {
		return Ref{}, err
	}
	hint, err := f.Member("retrievalHint").String()
	return Ref{Locator: loc, RetrievalHint: hint}, err
}

// MarshalJSON writes {content, save} with nil fields as null, through jsonjs
// so that lone surrogates are escaped as JSON.stringify escapes them.
func (o PreviewOutput) MarshalJSON() ([]byte, error) {
	return jsonjs.Marshal(o.Value()), nil
}

// Value returns the output as a JSON value (members content, save).
func (o PreviewOutput) Value() jsonjs.Value {
	content := jsonjs.NullValue()
	if o.Content != nil {
		content = jsonjs.StringValue(*o.Content)
	}
	save := jsonjs.NullValue()
	if o.Save != nil {
		save = jsonjs.ObjectValue(
			jsonjs.Member{Key: "label", Value: jsonjs.StringValue(string(o.Save.Label))},
			jsonjs.Member{Key: "suggestedName", Value: jsonjs.StringValue(o.Save.SuggestedName)},
			jsonjs.Member{Key: "text", Value: jsonjs.StringValue(o.Save.Text)},
		)
	}
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "content", Value: content},
		jsonjs.Member{Key: "save", Value: save},
	)
}
