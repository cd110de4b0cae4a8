package retention

import "github.com/dsh-conform/conform/reference/jsonjs"

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
	if c := f.Member("chunks"); c.Present {
		if in.Chunks, err = c.Strings(); err != nil {
			return in, err
		}
	}
	if c := f.Member("chunksBase64"); c.Present {
		if in.ChunksBase64, err = c.Strings(); err != nil {
			return in, err
		}
	}
	return in, nil
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
