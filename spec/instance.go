package spec

import (
	"encoding/json"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Instance is v as the schema validator walks a decoded document (maps,
// slices, json.Number, strings, bools and nil), built from the one JSON
// reader's value, numbers kept as written. Members named in free, at any
// level, are given as null: values the schema leaves free, of any depth,
// which the validator then need not walk.
func Instance(v jsonjs.Value, free ...string) any {
	switch v.Kind() {
	case jsonjs.Bool:
		b, _ := v.Bool()
		return b
	case jsonjs.Number:
		if lex, ok := v.Lexeme(); ok {
			return json.Number(lex)
		}
		f, _ := v.Float()
		return json.Number(jsonjs.FormatNumber(f))
	case jsonjs.String:
		s, _ := v.Str()
		return s
	case jsonjs.Array:
		items, _ := v.Items()
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = Instance(it, free...)
		}
		return out
	case jsonjs.Object:
		ms, _ := v.Members()
		out := make(map[string]any, len(ms))
		for _, m := range ms {
			out[m.Key] = nil
			if !isFree(m.Key, free) {
				out[m.Key] = Instance(m.Value, free...)
			}
		}
		return out
	}
	return nil
}

func isFree(key string, free []string) bool {
	for _, f := range free {
		if key == f {
			return true
		}
	}
	return false
}
