package codemode

import (
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// Run is what the code runtime reported for one execution: the captured
// logs and either a completion value or a failure (CODE-VALUE-1,
// CODE-FAIL-1).
//
// Result is a pointer because "no completion value" and "completed with
// null" render differently ("" vs "null", CODE-RENDER-1); its JSON form
// keeps that distinction (an absent "result" member vs "result": null),
// which encoding/json alone would lose, so Run decodes itself with jsonjs.
// No op writes a Run: generators.RunCodeInputValue writes run_code inputs.
type Run struct {
	Logs   []string
	Result *jsonjs.Value
	Error  *RunError
	// Invalid holds the registry's violations of a completed run whose logs
	// break run_code's output schema (absent: the value is not lossless
	// JSON; not an array of strings: the schema walk). Logs is then nil.
	Invalid []string `json:"-"`
}

// RunError is a failure reported by the runtime.
type RunError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// UnmarshalJSON reads {logs: [string], result?: any, error?: {kind,
// message}} with JSON.parse semantics (strings stay WTF-8, duplicate keys
// resolve as in JS). Unknown members are rejected so that a vector saying
// "value" (the runtime's own field name) instead of "result" fails loudly.
func (r *Run) UnmarshalJSON(data []byte) error {
	v, err := jsonjs.Parse(data)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	parsed, err := RunFromValue(v)
	if err != nil {
		return err
	}
	*r = parsed
	return nil
}

// RunFromValue reads a Run from a parsed JSON value (see DecodeRun).
func RunFromValue(v jsonjs.Value) (Run, error) { return DecodeRun(jsonjs.Root(v)) }

// DecodeRun reads {logs: [string], result?: any, error?: {kind, message}} as
// upstream's registry sees the runtime's report: member names exact, other
// members ignored, a null (or other falsy) error is no error (the tool body
// tests `if (result.error)`), and a kind or message that is not a string
// prints as JavaScript's template literal prints it (String(1) is "1", an
// absent member "undefined"). Logs must be an array of strings.
func DecodeRun(f jsonjs.Field) (Run, error) {
	if err := f.Object(); err != nil {
		return Run{}, err
	}
	var r Run
	if res := f.Member("result"); res.Present {
		v := res.Value
		r.Result = &v
	}
	logsF := f.Member("logs")
	logs, logsErr := logsF.Strings()
	e := f.Member("error")
	if !e.Present || falsy(e.Value) {
		// A completed run's value {logs, result?} goes through the
		// registry's snapshot and schema check, as upstream's does.
		if logsErr != nil {
			r.Invalid = logViolations(logsF)
		}
		r.Logs = logs
		return r, nil
	}
	if logsErr != nil {
		return Run{}, logsErr
	}
	r.Logs = logs
	if err := e.Object(); err != nil {
		return Run{}, err
	}
	r.Error = &RunError{Kind: templateString(e.Member("kind")), Message: templateString(e.Member("message"))}
	return r, nil
}

// runValueSchema is run_code's declared output schema, as it applies to
// logs that are present (result is any lossless JSON value). The schema
// declares logs required, but absent logs never reach the walk: the
// lossless snapshot refuses them first (logViolations).
var runValueSchema = &registry.Schema{Type: "object", Props: []registry.Prop{
	{Name: "logs", Schema: &registry.Schema{Type: "array", Items: &registry.Schema{Type: "string"}}},
}}

// logViolations are the registry's violations for logs that are not an
// array of strings: absent logs leave an undefined member, which the
// lossless snapshot refuses first.
func logViolations(logs jsonjs.Field) []string {
	if !logs.Present {
		return []string{registry.NotLossless}
	}
	return registry.CheckOutput(runValueSchema, jsonjs.ObjectValue(jsonjs.Member{Key: "logs", Value: logs.Value}))
}

// falsy reports JavaScript falsiness of a parsed JSON value.
func falsy(v jsonjs.Value) bool {
	switch v.Kind() {
	case jsonjs.Null:
		return true
	case jsonjs.Bool:
		b, _ := v.Bool()
		return !b
	case jsonjs.Number:
		n, _ := v.Float()
		return n == 0 // NaN is falsy too, but no JSON number is NaN
	case jsonjs.String:
		s, _ := v.Str()
		return s == ""
	}
	return false
}

// templateString is `${v}` for a member that may be absent.
func templateString(f jsonjs.Field) string {
	if !f.Present {
		return "undefined"
	}
	return jsonjs.ToString(f.Value)
}
