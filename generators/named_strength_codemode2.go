package generators

import "github.com/dsh-conform/conform/reference"

// namedStrengthRunCodeFalsyError pins the truthiness test of the runtime's
// error member (the tool body tests `if (result.error)`): every falsy JSON
// value other than null, each beside a result, is no failure, and the
// result renders (CODE-FAIL-1, CODE-RENDER-1). Found by mutation testing of
// the reference (docs/mutation.md): no case held a falsy number, boolean or
// string there.
func namedStrengthRunCodeFalsyError() []Case {
	falsy := func(name, description, errorJSON string) Case {
		v, b := InRaw(`{"args":{"code":"x","description":"d"},"run":{"logs":["l"],"error":` + errorJSON + `,"result":[7]}}`)
		return Case{Name: name, Op: reference.OpRunCodeResult, Requirements: []string{"CODE-FAIL-1", "CODE-RENDER-1"}, Description: description, Input: v, RawInput: b}
	}
	return []Case{
		falsy("run-code-error-zero-is-no-error", "An error member that is the number 0 is falsy: no failure, the result renders.", `0`),
		falsy("run-code-error-negative-zero-is-no-error", "An error member that is -0 is falsy like 0: no failure, the result renders.", `-0`),
		falsy("run-code-error-false-is-no-error", "An error member that is false is falsy: no failure, the result renders.", `false`),
		falsy("run-code-error-empty-string-is-no-error", "An error member that is the empty string is falsy: no failure, the result renders.", `""`),
	}
}

// namedStrengthRunCodeLogsShape pins the schema walk of a completed run's
// logs on a value that is not an array at all (CODE-VALUE-1): the registry
// names the member, as it does for entries that are not strings. Found by
// the golden-coverage gate (docs/mutation.md).
func namedStrengthRunCodeLogsShape() []Case {
	v, b := InRaw(`{"args":{"code":"x","description":"d"},"run":{"logs":{"0":"a"},"result":1}}`)
	return []Case{{Name: "run-code-logs-object-invalid-output", Op: reference.OpRunCodeResult, Requirements: []string{"CODE-VALUE-1"},
		Description: "Logs that are an object, even one with index keys, are not an array: the registry's invalid-output result names \"value.logs\".", Input: v, RawInput: b}}
}
