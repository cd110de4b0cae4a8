package generators

// namedRaw holds cases whose input must be kept as JSON text: a parsed
// value cannot carry duplicate keys, a number that overflows to Infinity, or
// -0, and each of these changes an output.
func namedRaw() []Case {
	raw := func(op, name, description, text string, reqs ...string) Case {
		v, b := InRaw(text)
		return Case{Name: name, Op: op, Requirements: reqs, Description: description, Input: v, RawInput: b}
	}
	return []Case{
		raw("run_code.result", "run-code-keys-duplicate-raw-text",
			"A result text with a duplicate key renders the member once, at its first position, with its last value (CODE-KEYS-2 example).",
			`{"args":{"code":"return JSON.parse(t)","description":"Parse"},"run":{"logs":[],"result":{"a":1,"b":2,"a":3}}}`,
			"CODE-KEYS-2"),
		raw("run_code.result", "run-code-keys-duplicate-index-key-raw-text",
			"A duplicate integer-like key is still ordered as an array index, with its last value.",
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":{"b":1,"1":2,"a":3,"1":4}}}`,
			"CODE-KEYS-1", "CODE-KEYS-2"),
		raw("run_code.result", "run-code-result-negative-zero-invalid",
			"A completion of -0 is not lossless JSON: the registry rejects the value (CODE-LOSSLESS-1).",
			`{"args":{"code":"return -0","description":"d"},"run":{"logs":["x"],"result":-0}}`,
			"CODE-LOSSLESS-1"),
		raw("run_code.result", "run-code-result-overflow-invalid",
			"A number that overflows a double (Infinity) in the completion is not lossless JSON (CODE-LOSSLESS-1).",
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":{"n":[1e400]}}}`,
			"CODE-LOSSLESS-1"),
		raw("run_code.result", "run-code-failed-run-discards-negative-zero",
			"A failed run's completion value is discarded, so a -0 in it does not matter (CODE-FAIL-1).",
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":-0,"error":{"kind":"exception","message":"boom"}}}`,
			"CODE-FAIL-1"),
		raw("search.present", "narrow-total-overflow-accepted",
			"total 1e400 parses to Infinity and is accepted; JSON.stringify writes it as null (§13 table).",
			`{"tool":"glob","result":{"isError":false,"meta":{"shape":"paths","paths":["a"],"truncated":false,"total":1e400}}}`,
			"SEARCH-NARROW-3"),
		raw("search.present", "narrow-line-number-overflow-accepted",
			"lineNumber -1e400 parses to -Infinity and is accepted as a number (SEARCH-NARROW-3, SEARCH-NARROW-5).",
			`{"tool":"grep","result":{"isError":false,"meta":{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":-1e400,"line":"x"}]}],"truncated":false,"total":1}}}`,
			"SEARCH-NARROW-3", "SEARCH-NARROW-5"),
		raw("search.present", "narrow-duplicate-keys-last-shape-wins",
			"With duplicate keys the last occurrence wins, so the last shape picks the variant (SEARCH-NARROW-7).",
			`{"tool":"grep","result":{"isError":false,"meta":{"shape":"paths","paths":["a"],"truncated":false,"total":1,"shape":"matches","files":[]}}}`,
			"SEARCH-NARROW-7", "SEARCH-NARROW-4"),
		raw("search.present", "narrow-duplicate-truncated-last-wins",
			"A duplicate truncated member whose last value is not a boolean gives no view (SEARCH-NARROW-2, SEARCH-NARROW-7).",
			`{"tool":"glob","result":{"isError":false,"meta":{"shape":"paths","paths":[],"truncated":false,"total":0,"truncated":"no"}}}`,
			"SEARCH-NARROW-2", "SEARCH-NARROW-7"),
	}
}
