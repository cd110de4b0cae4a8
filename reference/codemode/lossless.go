package codemode

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// InvalidOutputMessage is the registry's message when a successful run's
// value cannot be snapshotted as lossless JSON (CODE-LOSSLESS-1; the exact
// text was probed from upstream, the contract elides it).
var InvalidOutputMessage = registry.InvalidOutputMessage("run_code", []string{registry.NotLossless})

// The typed error info of an invalid output (CODE-LOSSLESS-1).
const (
	ToolOutputErrorName = registry.ToolOutputErrorName
	ToolOutputErrorCode = registry.ToolOutputErrorCode
)

// ToolOutputError returns a fresh copy of the CODE-LOSSLESS-1 error info.
func ToolOutputError() *registry.ErrorInfo { return registry.ToolOutputError() }

// IsLossless reports whether v survives a JSON round trip unchanged
// (CODE-LOSSLESS-1); see registry.IsLossless.
func IsLossless(v jsonjs.Value) bool { return registry.IsLossless(v) }
