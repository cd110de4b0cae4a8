package generators

import "strings"

// namedInputs pins how an op input is read (issue 10): as JSON.parse reads
// it, member names exact, unknown members ignored, lone surrogates kept in
// every string, numbers as doubles, and a canonical value that breaks the
// tool's output schema answered with the registry's invalid-output result.
// Every case is raw text, because each depends on the exact input bytes (an
// escape, a number lexeme, a member name's case), and every answer was
// checked against the published packages (make conform-upstream).
func namedInputs() []Case {
	raw := func(op, name, description, text string, reqs ...string) Case {
		v, b := InRaw(text)
		return Case{Name: name, Op: op, Requirements: reqs, Description: description, Input: v, RawInput: b}
	}
	const grepArgs = `"args":{"pattern":"x"}`
	const globArgs = `"args":{"pattern":"*"}`
	one := `{"path":"a","lineNumber":1,"line":"x"}`
	return []Case{
		// Member names are exact.
		raw("grep.result", "grep-input-nested-name-is-exact",
			`"Nested":true is an unknown member, not nested: the call is top-level and gets meta and cards.`,
			`{`+grepArgs+`,"value":{"matches":[`+one+`]},"Nested":true}`,
			"SEARCH-META-1", "CODE-PRESENT-4"),
		raw("grep.result", "grep-input-spill-saved-name-is-exact",
			`A spill store answering "SAVED":true has not saved: the over-cap text says the result could not be saved.`,
			`{`+grepArgs+`,"value":{"matches":[`+one+`,{"path":"a","lineNumber":2,"line":"y"}]},"config":{"maxMatches":1},"spill":{"SAVED":true,"locator":"L","retrievalHint":"H"}}`,
			"SEARCH-SPILL-6"),
		raw("search.present", "present-input-names-exact-unknown-ignored",
			`"IsError", "Args" and "content" are unknown members, ignored: the result is not an error and no argument check applies.`,
			`{"tool":"glob","Args":{},"result":{"isError":false,"IsError":true,"meta":{"shape":"paths","paths":["a"],"truncated":false,"total":1}},"content":"x"}`,
			"SEARCH-PRESENT-2", "SEARCH-PRESENT-3"),
		raw("retain.items", "retain-items-input-names-exact",
			`"Items" is an unknown member: only the one item of "items" is seen.`,
			`{"strategy":{"kind":"head","maxItems":5},"items":[1],"Items":[1,2,3]}`,
			"RET-ITEM-3"),
		raw("spill.preview", "spill-input-names-exact-unknown-ignored",
			`"Ref" is an unknown member (so the save fails and the original is kept), as is "extra".`,
			`{"text":"`+strings.Repeat("a", 40)+`","maxInlineBytes":10,"Ref":{"locator":"L","retrievalHint":"H"},"extra":1}`,
			"SPILL-KEEP-1"),
		raw("run_code.result", "run-code-run-unknown-members-ignored",
			`"value" and "Result" are unknown members of the run: the completion is "result" alone.`,
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"value":2,"Result":3,"result":1}}`,
			"CODE-VALUE-1", "CODE-RENDER-1"),
		raw("retain.text", "retain-text-input-names-exact",
			`"Chunks" is an unknown member: only "ab" is pushed.`,
			`{"strategy":{"kind":"head","maxBytes":4},"chunks":["ab"],"Chunks":["cdefgh"]}`,
			"RET-TEXT-3"),

		// Lone surrogates stay what they are.
		raw("grep.result", "grep-value-lone-surrogate-paths-two-groups",
			`Paths "\ud800" and "\udfff" are two files, not one U+FFFD file; the text and the meta keep the surrogates.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"\ud800","lineNumber":1,"line":"x"},{"path":"\udfff","lineNumber":2,"line":"y"}]}}`,
			"SEARCH-GREP-3", "SEARCH-META-2", "SEARCH-JSON-1"),
		raw("grep.result", "grep-value-lone-surrogate-meta-bytes-c-63",
			`A path "\ud800" in a meta far over a cap of 63: the match is dropped, the surrogate kept in the text.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"\ud800","lineNumber":1,"line":"x"}]},"config":{"maxMetaBytes":63}}`,
			"SEARCH-JSON-1", "SEARCH-CAP-1"),
		raw("grep.result", "grep-value-lone-surrogate-meta-bytes-c-64",
			`The same at a cap of 64: still over, still truncated.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"\ud800","lineNumber":1,"line":"x"}]},"config":{"maxMetaBytes":64}}`,
			"SEARCH-JSON-1", "SEARCH-CAP-1"),
		raw("grep.result", "grep-value-lone-surrogate-meta-bytes-c-114",
			`The whole meta with a path "\ud800" measures 115 bytes (the escape is 6; U+FFFD would make it 112), so a cap of 114 truncates.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"\ud800","lineNumber":1,"line":"x"}]},"config":{"maxMetaBytes":114}}`,
			"SEARCH-JSON-1", "SEARCH-CAP-1"),
		raw("grep.result", "grep-value-lone-surrogate-meta-bytes-c-115",
			`The same meta fits a cap of 115 exactly.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"\ud800","lineNumber":1,"line":"x"}]},"config":{"maxMetaBytes":115}}`,
			"SEARCH-JSON-1", "SEARCH-CAP-1"),
		raw("glob.result", "glob-value-lone-surrogate-top-level-entries",
			`Top-level entries "\ud800" and "\udfff" are two sampling groups, not one.`,
			`{`+globArgs+`,"value":{"root":".","paths":["\ud800/a","\ud800/c","\udfff/b"]},"config":{"maxResults":2,"sampleOverCap":true}}`,
			"SEARCH-SAMPLE-2", "SEARCH-SAMPLE-3"),

		// Numbers are what JSON.parse gives.
		raw("grep.result", "grep-value-line-number-exponent-and-fraction-lexemes",
			`lineNumber 1e2 and 2.0 are the integers 100 and 2.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"a","lineNumber":1e2,"line":"x"},{"path":"a","lineNumber":2.0,"line":"y"}]}}`,
			"SEARCH-VAL-1", "SEARCH-GREP-4"),
		raw("grep.result", "grep-value-line-number-negative-zero-invalid",
			`lineNumber -0 is not lossless JSON: the registry refuses the value.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"a","lineNumber":-0,"line":"x"}]}}`,
			"SEARCH-VAL-1"),

		// Values that break the output schema.
		raw("grep.result", "grep-value-match-null-invalid-output",
			`A null match breaks grep's output schema: the registry's invalid-output result.`,
			`{`+grepArgs+`,"value":{"matches":[null]}}`,
			"SEARCH-VAL-1"),
		raw("grep.result", "grep-value-match-without-line-invalid-output",
			`A match without line breaks the schema.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"a","lineNumber":1}]}}`,
			"SEARCH-VAL-1"),
		raw("grep.result", "grep-value-line-null-invalid-output",
			`A null line breaks the schema.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"a","lineNumber":1,"line":null}]}}`,
			"SEARCH-VAL-1"),
		raw("grep.result", "grep-value-match-extra-member-invalid-output",
			`A match member "Line" is undeclared (additionalProperties: false), not a second line.`,
			`{`+grepArgs+`,"value":{"matches":[{"path":"a","lineNumber":1,"line":"x","Line":"y"}]}}`,
			"SEARCH-VAL-1"),
		raw("grep.result", "grep-value-matches-name-exact-invalid-output",
			`"Matches" is not "matches": missing and undeclared, in that order.`,
			`{`+grepArgs+`,"value":{"Matches":[]}}`,
			"SEARCH-VAL-1"),
		raw("grep.result", "grep-value-several-violations-invalid-output",
			`Every violation is listed in the registry's walk order, joined by "; ".`,
			`{`+grepArgs+`,"value":{"matches":[{"path":1,"lineNumber":1.5,"line":2,"1":0,"b":0}],"x":1}}`,
			"SEARCH-VAL-1"),
		raw("grep.result", "grep-value-nested-invalid-output",
			`A Code Mode sub-call gets the same invalid-output text, without meta or cards.`,
			`{`+grepArgs+`,"value":{"matches":[null]},"nested":true}`,
			"SEARCH-VAL-1", "CODE-PRESENT-4"),
		raw("glob.result", "glob-value-without-root-invalid-output",
			`A glob value without root breaks glob's output schema.`,
			`{`+globArgs+`,"value":{"paths":[]},"config":{"sampleOverCap":false}}`,
			"SEARCH-VAL-2"),
		raw("glob.result", "glob-value-without-paths-invalid-output",
			`A glob value without paths breaks the schema.`,
			`{`+globArgs+`,"value":{"root":"."},"config":{"sampleOverCap":false}}`,
			"SEARCH-VAL-2"),
		raw("glob.result", "glob-value-path-not-string-invalid-output",
			`Paths that are not strings break the schema, each named.`,
			`{`+globArgs+`,"value":{"root":".","paths":["a",null,1]},"config":{"sampleOverCap":false}}`,
			"SEARCH-VAL-2"),

		// run_code failures as the registry renders them.
		raw("run_code.result", "run-code-failure-kind-outside-six",
			`A failure kind outside the six of CODE-FAIL-1 renders like the others.`,
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"error":{"kind":"crash","message":"boom"}}}`,
			"CODE-FAIL-1", "CODE-FAIL-2"),
		raw("run_code.result", "run-code-failure-kind-number-message-absent",
			"A kind that is not a string and an absent message print as a template literal prints them: (1) and undefined.",
			`{"args":{"code":"x","description":"d"},"run":{"logs":["l"],"error":{"kind":1,"Message":"m"}}}`,
			"CODE-FAIL-1", "CODE-FAIL-2"),
		raw("run_code.result", "run-code-logs-absent-invalid-output",
			`A completed run without logs leaves an undefined member: the registry's snapshot refuses the value.`,
			`{"args":{"code":"x","description":"d"},"run":{"result":1}}`,
			"CODE-VALUE-1", "CODE-LOSSLESS-1"),
		raw("run_code.result", "run-code-logs-not-strings-invalid-output",
			`Logs that are not strings break run_code's output schema, each named.`,
			`{"args":{"code":"x","description":"d"},"run":{"logs":[1,"a",null],"result":2}}`,
			"CODE-VALUE-1"),
		raw("run_code.result", "run-code-error-null-is-no-error",
			`A null error is no failure (the tool body tests the error's truthiness): the result renders.`,
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"error":null,"result":3}}`,
			"CODE-FAIL-1", "CODE-RENDER-1"),
	}
}
