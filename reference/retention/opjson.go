package retention

import (
	"cmp"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// DecodeItemsInput reads a retain.items input (docs/ops.md) with JSON.parse
// semantics: member names exact, unknown members ignored. Budgets stay JSON
// values; Budget judges them as the library does.
func DecodeItemsInput(f jsonjs.Field) (ItemsInput, error) {
	var in ItemsInput
	st, err := decodeStrategy(f, &in.Strategy.Kind)
	if err != nil {
		return in, err
	}
	in.Strategy.MaxItems = st.Member("maxItems").Value
	items := f.Member("items")
	if !items.Present {
		return in, nil
	}
	fields, err := items.Items()
	if err != nil {
		return in, err
	}
	in.Items = make([]jsonjs.Value, len(fields))
	for i, it := range fields {
		in.Items[i] = it.Value
	}
	return in, nil
}

// DecodeTextInput reads a retain.text input; chunks keep lone surrogates.
func DecodeTextInput(f jsonjs.Field) (TextInput, error) {
	var in TextInput
	st, err := decodeStrategy(f, &in.Strategy.Kind)
	if err != nil {
		return in, err
	}
	in.Strategy.MaxBytes = st.Member("maxBytes").Value
	in.Strategy.HeadBytes = st.Member("headBytes").Value
	in.Strategy.TailBytes = st.Member("tailBytes").Value
	// Both members are read and the first error returned: the input schema
	// makes them exclusive arrays of strings, so no order can show.
	var errChunks, errBase64 error
	if c := f.Member("chunks"); c.Present {
		in.Chunks, errChunks = c.Strings()
	}
	if c := f.Member("chunksBase64"); c.Present {
		in.ChunksBase64, errBase64 = c.Strings()
	}
	return in, cmp.Or(errChunks, errBase64)
}

func decodeStrategy(f jsonjs.Field, kind *string) (jsonjs.Field, error) {
	if err := f.Object(); err != nil {
		return f, err
	}
	st := f.Member("strategy")
	if err := st.Object(); err != nil {
		return st, err
	}
	var err error
	*kind, err = st.Member("kind").OptString("")
	return st, err
}

// Value returns the output as a JSON value (members items, truncated, seen,
// kept, omitted, pushes), written by jsonjs so that items nested at any
// depth encode (encoding/json stops at 10,000 levels).
func (o ItemsOutput) Value() jsonjs.Value {
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "items", Value: jsonjs.ArrayValue(o.Items...)}, // nil writes []
		jsonjs.Member{Key: "truncated", Value: jsonjs.BoolValue(o.Truncated)},
		jsonjs.Member{Key: "seen", Value: jsonjs.IntValue(o.Seen)},
		jsonjs.Member{Key: "kept", Value: jsonjs.IntValue(o.Kept)},
		jsonjs.Member{Key: "omitted", Value: o.Omitted.Value()},
		jsonjs.Member{Key: "pushes", Value: pushesValue(o.Pushes)},
	)
}

// Value returns the output as a JSON value (members text, truncated,
// omittedBytes, pushes).
func (o TextOutput) Value() jsonjs.Value {
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "text", Value: jsonjs.StringValue(o.Text)},
		jsonjs.Member{Key: "truncated", Value: jsonjs.BoolValue(o.Truncated)},
		jsonjs.Member{Key: "omittedBytes", Value: o.OmittedBytes.Value()},
		jsonjs.Member{Key: "pushes", Value: pushesValue(o.Pushes)},
	)
}

// Value returns the omission as MarshalJSON writes it.
func (o Omission) Value() jsonjs.Value {
	kind := jsonjs.Member{Key: "kind", Value: jsonjs.StringValue(string(o.Kind))}
	if o.Kind == Exact {
		return jsonjs.ObjectValue(kind, jsonjs.Member{Key: "count", Value: jsonjs.IntValue(o.Count)})
	}
	return jsonjs.ObjectValue(kind)
}

func pushesValue(ds []Decision) jsonjs.Value {
	out := make([]jsonjs.Value, len(ds))
	for i, d := range ds {
		out[i] = jsonjs.ObjectValue(
			jsonjs.Member{Key: "kept", Value: jsonjs.BoolValue(d.Kept)},
			jsonjs.Member{Key: "truncated", Value: jsonjs.BoolValue(d.Truncated)},
		)
	}
	return jsonjs.ArrayValue(out...)
}
