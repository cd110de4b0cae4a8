package codemode

import (
	"math"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// InvalidOutputMessage is the registry's message when a successful run's
// value cannot be snapshotted as lossless JSON (CODE-LOSSLESS-1; the exact
// text was probed from upstream, the contract elides it).
const InvalidOutputMessage = `tool "run_code" returned invalid output: value is not lossless JSON`

// The typed error info of an invalid output (CODE-LOSSLESS-1).
const (
	ToolOutputErrorName = "ToolOutputError"
	ToolOutputErrorCode = "INVALID_TOOL_OUTPUT"
)

// ToolOutputError returns a fresh copy of the CODE-LOSSLESS-1 error info.
func ToolOutputError() *registry.ErrorInfo {
	return &registry.ErrorInfo{Name: ToolOutputErrorName, Code: ToolOutputErrorCode}
}

// IsLossless reports whether v survives a JSON round trip unchanged
// (CODE-LOSSLESS-1): every number finite and not -0. JSON text can still
// produce both (jsonjs.Parse reads "-0" as -0 and "1e400" as +Inf, as
// JSON.parse does), and upstream's registry then rejects the run's value.
func IsLossless(v jsonjs.Value) bool {
	return !jsonjs.AnyNumber(v, func(f float64) bool {
		return math.IsNaN(f) || math.IsInf(f, 0) || (f == 0 && math.Signbit(f))
	})
}
