package codemode

import (
	"strings"

	"github.com/dsh-conform/conform/reference/registry"
)

// The typed error info of a failed run (CODE-FAIL-2), persisted as the
// tool/result's data.error so a UI can tell a program failure from a harness
// failure.
const (
	CodeRunFailedName = "CodeRunFailedError"
	CodeRunFailedCode = "CODE_RUN_FAILED"
)

// The failure kinds a code runtime reports (CODE-FAIL-1).
const (
	KindException     = "exception"
	KindTimeout       = "timeout"
	KindAbort         = "abort"
	KindWorkerExit    = "worker-exit"
	KindInvalidOutput = "invalid-output"
	KindOutputLimit   = "output-limit"
)

// IsFailureKind reports whether kind is one of the six CODE-FAIL-1 kinds.
func IsFailureKind(kind string) bool {
	switch kind {
	case KindException, KindTimeout, KindAbort, KindWorkerExit, KindInvalidOutput, KindOutputLimit:
		return true
	}
	return false
}

// CodeRunFailed returns a fresh copy of the CODE-FAIL-2 error info; a fresh
// value keeps callers from aliasing one shared instance.
func CodeRunFailed() *registry.ErrorInfo {
	return &registry.ErrorInfo{Name: CodeRunFailedName, Code: CodeRunFailedCode}
}

// FailureText is the error message of a failed run (CODE-FAIL-1), without
// the registry's "Error: " prefix (the content text is
// registry.ErrorText(FailureText(...)), CODE-FAIL-2). The captured output is
// appended whenever there is at least one log entry, even an empty one, so
// the model sees how far the program got; a completion value of a failed run
// is never shown.
func FailureText(kind, message string, logs []string) string {
	text := "code run failed (" + kind + "): " + message
	if len(logs) > 0 { // CODE-FAIL-1: length > 0, even [""]
		text += "\nCaptured output:\n" + strings.Join(logs, "\n")
	}
	return text
}
