package codemode

import (
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// NoOutputMarker is the whole text of a run whose logs and result both render
// to nothing (CODE-RENDER-1), so the model never sees an empty result.
const NoOutputMarker = "(run_code completed with no output)"

// Pretty-layout parameters of CODE-JSON-2: two-space indentation, and
// containers at depth >= 5 written compactly, which caps the indentation at
// 10 spaces however deep the value is.
const (
	renderIndent      = 2
	renderCompactFrom = 5
)

// RenderValue renders a run's completion value. A string is the text itself,
// unquoted and unescaped (CODE-JSON-1), because programs usually return the
// text they want the model to read. Anything else is JSON.stringify(v, null,
// 2) with containers at depth >= 5 compact (CODE-JSON-2), numbers per
// CODE-NUM-1, strings per CODE-STR-1 and members in ECMAScript property order
// (CODE-KEYS-1/2); jsonjs does all of that without recursion, so any depth
// renders in linear time (CODE-JSON-3).
func RenderValue(v jsonjs.Value) string {
	if s, ok := v.Str(); ok {
		return s // CODE-JSON-1
	}
	return string(jsonjs.AppendPretty(nil, v, renderIndent, renderCompactFrom)) // CODE-JSON-2
}

// RenderText is the single text block of a successful run (CODE-RENDER-1):
// the logs joined by "\n", then the rendered result, each part dropped when
// it is empty (CODE-RENDER-2), joined by one "\n" and nothing else
// (CODE-RENDER-3). result == nil means the program produced no completion
// value, which differs from a null result (rendered "null").
func RenderText(logs []string, result *jsonjs.Value) string {
	return renderText(logs, result, RenderValue)
}

// renderText is RenderText with render writing the completion value.
func renderText(logs []string, result *jsonjs.Value, render func(jsonjs.Value) string) string {
	parts := make([]string, 0, 2)
	if logsPart := strings.Join(logs, "\n"); logsPart != "" { // CODE-RENDER-2: [""] vanishes, ["",""] is "\n"
		parts = append(parts, logsPart)
	}
	if result != nil {
		if resultPart := render(*result); resultPart != "" { // CODE-RENDER-2: "" vanishes
			parts = append(parts, resultPart)
		}
	}
	if len(parts) == 0 {
		return NoOutputMarker // CODE-RENDER-1
	}
	return strings.Join(parts, "\n") // CODE-RENDER-3: one "\n", no decoration
}
