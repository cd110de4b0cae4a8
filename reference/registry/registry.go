// Package registry is the reference for the parts of the upstream tool
// registry (packages/core/tools) that every tool result passes through: the
// argument schema check, the "Error: " envelope with its typed error info,
// and the generic call view.
package registry

import (
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// ErrorInfo is the typed error persisted as tool/result data.error.
type ErrorInfo struct {
	Name string `json:"name"`
	Code string `json:"code"`
}

// ToolArgsError is the error info of an argument schema violation.
var ToolArgsError = &ErrorInfo{Name: "ToolArgsError", Code: "INVALID_ARGS"}

// ErrorText is the registry's failure envelope: "Error: " + message
// (SEARCH-ERR-1, CODE-ERR-1).
func ErrorText(message string) string { return "Error: " + message }

// GenericCallView is the pending-call card (SEARCH-CALL-*, CODE-PRESENT-1).
type GenericCallView struct {
	Card     string       `json:"card"`
	Title    string       `json:"title"`
	Kind     string       `json:"kind"`
	RawInput jsonjs.Value `json:"rawInput"`
}

// NewCallView returns a generic call view.
func NewCallView(title, kind string, rawInput jsonjs.Value) *GenericCallView {
	return &GenericCallView{Card: "generic", Title: title, Kind: kind, RawInput: rawInput}
}

// Param is one declared string parameter of a tool's argument schema.
type Param struct {
	Name     string
	Required bool
}

// CheckArgs validates arguments against a schema of string parameters
// (other members allowed) and returns the violations in upstream's order, or
// nil: every missing required property first, then the type errors, each
// group in parameter order (so {"code":1} for run_code reports the missing
// description before the mistyped code). The registry reports them as
// "invalid arguments: <violations joined by "; ">" with ToolArgsError.
func CheckArgs(args jsonjs.Value, params []Param) []string {
	if args.Kind() != jsonjs.Object {
		return []string{`"arguments" must be an object`}
	}
	var missing, mistyped []string
	for _, p := range params {
		v, ok := args.Get(p.Name)
		switch {
		case !ok && p.Required:
			missing = append(missing, `missing required property "`+p.Name+`"`)
		case ok && v.Kind() != jsonjs.String:
			mistyped = append(mistyped, `"`+p.Name+`" must be a string`)
		}
	}
	return append(missing, mistyped...)
}

// ArgsErrorMessage is the message of an argument schema failure.
func ArgsErrorMessage(violations []string) string {
	return "invalid arguments: " + strings.Join(violations, "; ")
}

// StringArg returns a string member of validated arguments.
func StringArg(args jsonjs.Value, name string) (string, bool) {
	v, ok := args.Get(name)
	if !ok {
		return "", false
	}
	return v.Str()
}

// Value returns the view as a JSON value, members in upstream's order.
func (v GenericCallView) Value() jsonjs.Value {
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "card", Value: jsonjs.StringValue(v.Card)},
		jsonjs.Member{Key: "title", Value: jsonjs.StringValue(v.Title)},
		jsonjs.Member{Key: "kind", Value: jsonjs.StringValue(v.Kind)},
		jsonjs.Member{Key: "rawInput", Value: v.RawInput},
	)
}

// MarshalJSON goes through jsonjs: a title built from arguments holding a
// lone surrogate must be escaped as \udxxx, as JSON.stringify does, not
// replaced by U+FFFD as encoding/json would.
func (v GenericCallView) MarshalJSON() ([]byte, error) { return jsonjs.Marshal(v.Value()), nil }
