package codemode

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// ResultInput is the input of the run_code.result op (docs/ops.md): the
// arguments as the model sent them and what the runtime reported.
type ResultInput struct {
	Args jsonjs.Value `json:"args"`
	Run  Run          `json:"run"`
}

// DecodeResultInput reads a run_code.result input (docs/ops.md): member
// names exact, unknown members ignored, an absent args read as null.
func DecodeResultInput(f jsonjs.Field) (ResultInput, error) {
	if err := f.Object(); err != nil {
		return ResultInput{}, err
	}
	run, err := DecodeRun(f.Member("run"))
	if err != nil {
		return ResultInput{}, err
	}
	return ResultInput{Args: f.Member("args").Value, Run: run}, nil
}

// ResultOutput is the final run_code tool result plus its cards. Meta and
// View are always nil (JSON null): run_code declares no presentationMeta
// (CODE-DEF-2, CODE-PRESENT-3) and no result presenter (CODE-PRESENT-2), so
// a UI keeps the pending card and shows the raw content. The fields exist
// so that an implementation emitting either is caught by comparison.
type ResultOutput struct {
	IsError  bool                      `json:"isError"`
	Content  string                    `json:"content"`
	Error    *registry.ErrorInfo       `json:"error"`
	Meta     *jsonjs.Value             `json:"meta"`
	View     *jsonjs.Value             `json:"view"`
	CallView *registry.GenericCallView `json:"callView"`
}

// MarshalJSON writes the members in the order of docs/ops.md with nil fields
// as null. It goes through jsonjs so that strings holding lone surrogates
// are escaped as JSON.stringify does (\udxxx) instead of being replaced.
func (o ResultOutput) MarshalJSON() ([]byte, error) {
	return jsonjs.Marshal(o.Value()), nil
}

// Value returns the output as a JSON value.
func (o ResultOutput) Value() jsonjs.Value {
	errV := jsonjs.NullValue()
	if o.Error != nil {
		errV = jsonjs.ObjectValue(
			jsonjs.Member{Key: "name", Value: jsonjs.StringValue(o.Error.Name)},
			jsonjs.Member{Key: "code", Value: jsonjs.StringValue(o.Error.Code)},
		)
	}
	orNull := func(v *jsonjs.Value) jsonjs.Value {
		if v == nil {
			return jsonjs.NullValue()
		}
		return *v
	}
	callV := jsonjs.NullValue()
	if o.CallView != nil {
		callV = jsonjs.ObjectValue(
			jsonjs.Member{Key: "card", Value: jsonjs.StringValue(o.CallView.Card)},
			jsonjs.Member{Key: "title", Value: jsonjs.StringValue(o.CallView.Title)},
			jsonjs.Member{Key: "kind", Value: jsonjs.StringValue(o.CallView.Kind)},
			jsonjs.Member{Key: "rawInput", Value: o.CallView.RawInput},
		)
	}
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "isError", Value: jsonjs.BoolValue(o.IsError)},
		jsonjs.Member{Key: "content", Value: jsonjs.StringValue(o.Content)},
		jsonjs.Member{Key: "error", Value: errV},
		jsonjs.Member{Key: "meta", Value: orNull(o.Meta)},
		jsonjs.Member{Key: "view", Value: orNull(o.View)},
		jsonjs.Member{Key: "callView", Value: callV},
	)
}

// Result computes the run_code tool result for a call whose body ran. The
// checks run in the tool body's order (CODE-ERR-1): argument schema, then a
// blank description, then the run outcome: a reported failure (its value
// discarded, CODE-FAIL-1), else a value that is not lossless JSON
// (CODE-LOSSLESS-1), else the render. Cancellation, policy denial and a
// missing runtime are decided outside this op.
//
// The call view depends only on the arguments, so it is present whenever
// they pass the schema check, on error results too. Meta and View are always
// nil (CODE-DEF-2, CODE-PRESENT-2/3).
//
// A failure kind outside the six of CODE-FAIL-1 renders like the others, as
// the real registry renders it; the error return is always nil.
func Result(in ResultInput) (ResultOutput, error) { return ResultWith(in, RenderValue) }

// ResultWith is Result with render writing the completion value: the
// reference's is RenderValue; diagnosis gives other languages' (a map
// with sorted keys).
func ResultWith(in ResultInput, render func(jsonjs.Value) string) (ResultOutput, error) {
	if violations := CheckArgs(in.Args); len(violations) > 0 {
		info := *registry.ToolArgsError // a copy: callers may not touch the shared value
		return ResultOutput{
			IsError: true,
			Content: registry.ErrorText(registry.ArgsErrorMessage(violations)), // CODE-ERR-1
			Error:   &info,
		}, nil
	}
	out := ResultOutput{CallView: CallView(in.Args)} // CODE-PRESENT-1
	description, _ := registry.StringArg(in.Args, "description")
	if jsonjs.IsBlank(description) { // CODE-ERR-1: ECMAScript trim, no error info
		out.IsError = true
		out.Content = registry.ErrorText(InvalidDescriptionMessage)
		return out, nil
	}
	if e := in.Run.Error; e != nil { // CODE-FAIL-1: a failed run's value is discarded
		out.IsError = true
		out.Content = registry.ErrorText(FailureText(e.Kind, e.Message, in.Run.Logs)) // CODE-FAIL-2
		out.Error = CodeRunFailed()
		return out, nil
	}
	if r := in.Run.Result; r != nil && !IsLossless(*r) { // CODE-LOSSLESS-1: the registry's snapshot refuses the value
		out.IsError = true
		out.Content = registry.ErrorText(InvalidOutputMessage)
		out.Error = ToolOutputError()
		return out, nil
	}
	if in.Run.Invalid != nil { // CODE-VALUE-1: logs that break run_code's output schema
		out.IsError = true
		out.Content = registry.ErrorText(registry.InvalidOutputMessage("run_code", in.Run.Invalid))
		out.Error = ToolOutputError()
		return out, nil
	}
	out.Content = renderText(in.Run.Logs, in.Run.Result, render) // CODE-RENDER-1, CODE-DISPATCH-8
	return out, nil
}
