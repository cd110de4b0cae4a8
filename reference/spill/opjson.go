package spill

import (
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// UnmarshalJSON reads the op input with JSON.parse semantics. jsonjs is used
// instead of encoding/json because maxInlineBytes must keep "absent" apart
// from null, and texts must keep lone surrogates (which encoding/json would
// turn into U+FFFD) so that the save text is the one JavaScript would hand
// to the store.
func (in *PreviewInput) UnmarshalJSON(data []byte) error {
	v, err := jsonjs.Parse(data)
	if err != nil {
		return fmt.Errorf("spill.preview input: %w", err)
	}
	members, ok := v.Members()
	if !ok {
		return fmt.Errorf("spill.preview input: expected an object, got %s", v.Kind())
	}
	var out PreviewInput
	for _, m := range members {
		switch m.Key {
		case "text":
			s, ok := m.Value.Str()
			if !ok {
				return fmt.Errorf("spill.preview input: text must be a string, got %s", m.Value.Kind())
			}
			out.Text = &s
		case "blocks":
			if out.Blocks, err = blocksFromValue(m.Value); err != nil {
				return err
			}
		case "maxInlineBytes":
			limit := m.Value
			out.MaxInlineBytes = &limit
		case "ref":
			if m.Value.IsNull() {
				continue
			}
			ref, err := refFromValue(m.Value)
			if err != nil {
				return err
			}
			out.Ref = &ref
		case "toolName":
			if out.ToolName, err = stringMember(m, "toolName"); err != nil {
				return err
			}
		case "arm":
			arm, err := stringMember(m, "arm")
			if err != nil {
				return err
			}
			out.Arm = Arm(arm)
		default:
			return fmt.Errorf("spill.preview input: unknown member %q", m.Key)
		}
	}
	*in = out
	return nil
}

func stringMember(m jsonjs.Member, what string) (string, error) {
	s, ok := m.Value.Str()
	if !ok {
		return "", fmt.Errorf("spill.preview input: %s must be a string, got %s", what, m.Value.Kind())
	}
	return s, nil
}

func blocksFromValue(v jsonjs.Value) ([]Block, error) {
	items, ok := v.Items()
	if !ok {
		return nil, fmt.Errorf("spill.preview input: blocks must be an array, got %s", v.Kind())
	}
	blocks := make([]Block, 0, len(items))
	for i, item := range items {
		typeV, _ := item.Get("type")
		typ, ok := typeV.Str()
		if !ok {
			return nil, fmt.Errorf("spill.preview input: blocks[%d].type must be a string", i)
		}
		b := Block{Type: typ}
		if textV, has := item.Get("text"); has {
			s, ok := textV.Str()
			if !ok {
				return nil, fmt.Errorf("spill.preview input: blocks[%d].text must be a string, got %s", i, textV.Kind())
			}
			b.Text = &s
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

func refFromValue(v jsonjs.Value) (Ref, error) {
	locV, _ := v.Get("locator")
	loc, ok := locV.Str()
	if !ok {
		return Ref{}, fmt.Errorf("spill.preview input: ref.locator must be a string")
	}
	hintV, _ := v.Get("retrievalHint")
	hint, ok := hintV.Str()
	if !ok {
		return Ref{}, fmt.Errorf("spill.preview input: ref.retrievalHint must be a string")
	}
	return Ref{Locator: loc, RetrievalHint: hint}, nil
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
