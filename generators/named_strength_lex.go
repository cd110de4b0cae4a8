package generators

import "github.com/dsh-conform/conform/reference"

// namedStrengthLex pins what the shared lexer (jsonjs/lex.go) decodes from
// an op input's exact text, where a harness's JSON.parse shows in the
// output. Found by mutation testing of the reference (docs/mutation.md).
func namedStrengthLex() []Case {
	raw := func(name, description, result string, reqs ...string) Case {
		v, b := InRaw(`{"args":{"code":"return value;","description":"Render the value"},"run":{"logs":[],"result":` + result + `}}`)
		return Case{Name: name, Op: reference.OpRunCodeResult, Requirements: reqs, Description: description, Input: v, RawInput: b}
	}
	return []Case{
		raw("run-code-parse-first-surrogate-pair-raw-text", "`\\uD800\\uDC00`, the first high surrogate with the first low one, is the pair U+10000 (written raw), not two lone surrogates; so is `\\ud800\\udfff` (U+103FF).",
			`{"first":"\uD800\uDC00","lower":"\ud800\udc00","firstLast":"\ud800\udfff"}`, "CODE-STR-1"),
	}
}
