package codemode

import (
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Run is what the code runtime reported for one execution: the captured
// logs and either a completion value or a failure (CODE-VALUE-1,
// CODE-FAIL-1).
//
// Result is a pointer because "no completion value" and "completed with
// null" render differently ("" vs "null", CODE-RENDER-1); its JSON form
// keeps that distinction (an absent "result" member vs "result": null),
// which encoding/json alone would lose, so Run decodes itself with jsonjs.
type Run struct {
	Logs   []string
	Result *jsonjs.Value
	Error  *RunError
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

// MarshalJSON writes the form UnmarshalJSON reads, omitting result and error
// when they are absent.
func (r Run) MarshalJSON() ([]byte, error) {
	return jsonjs.Marshal(r.Value()), nil
}

// Value returns the run as a JSON value (member order logs, result, error).
func (r Run) Value() jsonjs.Value {
	logs := make([]jsonjs.Value, len(r.Logs))
	for i, l := range r.Logs {
		logs[i] = jsonjs.StringValue(l)
	}
	members := []jsonjs.Member{{Key: "logs", Value: jsonjs.ArrayValue(logs...)}}
	if r.Result != nil {
		members = append(members, jsonjs.Member{Key: "result", Value: *r.Result})
	}
	if r.Error != nil {
		members = append(members, jsonjs.Member{Key: "error", Value: jsonjs.ObjectValue(
			jsonjs.Member{Key: "kind", Value: jsonjs.StringValue(r.Error.Kind)},
			jsonjs.Member{Key: "message", Value: jsonjs.StringValue(r.Error.Message)},
		)})
	}
	return jsonjs.ObjectValue(members...)
}

// RunFromValue reads a Run from a parsed JSON value (see UnmarshalJSON).
func RunFromValue(v jsonjs.Value) (Run, error) {
	members, ok := v.Members()
	if !ok {
		return Run{}, fmt.Errorf("run: expected an object, got %s", v.Kind())
	}
	var r Run
	sawLogs := false
	for _, m := range members {
		switch m.Key {
		case "logs":
			sawLogs = true
			items, ok := m.Value.Items()
			if !ok {
				return Run{}, fmt.Errorf("run.logs: expected an array of strings, got %s", m.Value.Kind())
			}
			r.Logs = make([]string, len(items))
			for i, item := range items {
				s, ok := item.Str()
				if !ok {
					return Run{}, fmt.Errorf("run.logs[%d]: expected a string, got %s", i, item.Kind())
				}
				r.Logs[i] = s
			}
		case "result":
			result := m.Value
			r.Result = &result
		case "error":
			e, err := runErrorFromValue(m.Value)
			if err != nil {
				return Run{}, err
			}
			r.Error = e
		default:
			return Run{}, fmt.Errorf("run: unknown member %q (want logs, result, error)", m.Key)
		}
	}
	if !sawLogs {
		return Run{}, fmt.Errorf("run.logs: missing")
	}
	return r, nil
}

func runErrorFromValue(v jsonjs.Value) (*RunError, error) {
	if v.Kind() != jsonjs.Object {
		return nil, fmt.Errorf("run.error: expected an object, got %s", v.Kind())
	}
	kindV, _ := v.Get("kind")
	kind, ok := kindV.Str()
	if !ok {
		return nil, fmt.Errorf("run.error.kind: expected a string")
	}
	messageV, _ := v.Get("message")
	message, ok := messageV.Str()
	if !ok {
		return nil, fmt.Errorf("run.error.message: expected a string")
	}
	members, _ := v.Members()
	if len(members) != 2 {
		return nil, fmt.Errorf("run.error: expected exactly the members kind and message")
	}
	return &RunError{Kind: kind, Message: message}, nil
}
