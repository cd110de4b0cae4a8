package search

import "github.com/dsh-conform/conform/reference/jsonjs"

// Value returns the output as a JSON value, members in the order of
// docs/ops.md and nil fields as null. Encoding it through jsonjs keeps a
// lone surrogate in the content (a path "\ud800") as JSON.stringify writes
// it, where encoding/json would write three U+FFFD.
func (o ResultOutput) Value() jsonjs.Value {
	errV, meta, view, call, spill := jsonjs.NullValue(), jsonjs.NullValue(), jsonjs.NullValue(), jsonjs.NullValue(), jsonjs.NullValue()
	if o.Error != nil {
		errV = jsonjs.ObjectValue(
			jsonjs.Member{Key: "name", Value: jsonjs.StringValue(o.Error.Name)},
			jsonjs.Member{Key: "code", Value: jsonjs.StringValue(o.Error.Code)},
		)
	}
	if o.Meta != nil {
		meta = o.Meta.Value()
	}
	if o.View != nil {
		view = o.View.Value()
	}
	if o.CallView != nil {
		call = o.CallView.Value()
	}
	if o.SpillText != nil {
		spill = jsonjs.StringValue(*o.SpillText)
	}
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "isError", Value: jsonjs.BoolValue(o.IsError)},
		jsonjs.Member{Key: "content", Value: jsonjs.StringValue(o.Content)},
		jsonjs.Member{Key: "error", Value: errV},
		jsonjs.Member{Key: "meta", Value: meta},
		jsonjs.Member{Key: "view", Value: view},
		jsonjs.Member{Key: "callView", Value: call},
		jsonjs.Member{Key: "spillText", Value: spill},
	)
}

// Value returns {view} as a JSON value.
func (o PresentOutput) Value() jsonjs.Value {
	view := jsonjs.NullValue()
	if o.View != nil {
		view = o.View.Value()
	}
	return jsonjs.ObjectValue(jsonjs.Member{Key: "view", Value: view})
}
