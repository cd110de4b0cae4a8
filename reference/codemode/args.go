package codemode

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// ToolName is the name of the Code Mode tool (CODE-DEF-1).
const ToolName = "run_code"

// InvalidDescriptionMessage is the error message for a blank description
// (CODE-ERR-1). It carries no typed error info: it is a value check inside
// the tool body, not a schema violation.
const InvalidDescriptionMessage = "invalid description: expected a non-empty string"

// callViewKind is the generic card kind of a run_code call (CODE-PRESENT-1).
const callViewKind = "execute"

// params is run_code's argument schema: two required strings, extra members
// allowed (CODE-DEF-1).
func params() []registry.Param {
	return []registry.Param{{Name: "code", Required: true}, {Name: "description", Required: true}}
}

// CheckArgs returns the schema violations of run_code arguments in the
// registry's order, or nil (CODE-ERR-1).
func CheckArgs(args jsonjs.Value) []string {
	return registry.CheckArgs(args, params())
}

// CallView is the pending-call card (CODE-PRESENT-1): the description as the
// title, verbatim even when blank, and the program as the raw input. It is
// nil when the arguments fail the schema check, because a card built from
// malformed arguments would show nothing meaningful.
func CallView(args jsonjs.Value) *registry.GenericCallView {
	if len(CheckArgs(args)) > 0 {
		return nil
	}
	code, _ := registry.StringArg(args, "code")
	description, _ := registry.StringArg(args, "description")
	return registry.NewCallView(description, callViewKind, jsonjs.StringValue(code))
}
