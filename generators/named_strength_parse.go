package generators

import "github.com/dsh-conform/conform/reference"

// namedStrengthParse pins op input parsing where mutation testing of
// jsonjs parse.go and decode.go found the output blind (docs/mutation.md):
// integers past 2^53 that JSON.parse rounds and Number::toString prints
// with trailing zeros, not as Go's int64 digits.
func namedStrengthParse() []Case {
	v, b := InRaw(`{"args":{"pattern":"x"},"value":{"matches":[` +
		`{"path":"a","lineNumber":9007199254740993,"line":"x"},` +
		`{"path":"a","lineNumber":1152921504606846976,"line":"y"}]}}`)
	return []Case{{
		Name: "grep-value-line-numbers-past-2-pow-53", Op: reference.OpGrepResult,
		Description: "lineNumber 9007199254740993 reads as the double 2^53 and 1152921504606846976 (2^60) prints as JavaScript prints it: " +
			"`Line 9007199254740992` and `Line 1152921504606847000`, in the text and in the meta.",
		Input: v, RawInput: b,
		Requirements: []string{"SEARCH-VAL-1", "SEARCH-GREP-3", "SEARCH-JSON-1"},
	}, namedLineNumbersExponent()}
}

// namedLineNumbersExponent: past 2^63 an integer no longer fits an int64,
// and from 1e21 on Number::toString writes an exponent; upstream renders
// and projects both (the output schema asks only for an integer).
func namedLineNumbersExponent() Case {
	v, b := InRaw(`{"args":{"pattern":"x"},"value":{"matches":[` +
		`{"path":"a","lineNumber":9223372036854775808,"line":"x"},` +
		`{"path":"a","lineNumber":1e21,"line":"y"},` +
		`{"path":"b","lineNumber":-15e299,"line":"z"}]}}`)
	return Case{
		Name: "grep-value-line-numbers-past-2-pow-63", Op: reference.OpGrepResult,
		Description: "lineNumber 2^63, 1e21 and -1.5e300 are integers as JSON.parse reads them: `Line 9223372036854776000`, " +
			"`Line 1e+21` and `Line -1.5e+300`, projected unchanged into the meta (JSON.stringify writes 1e+21).",
		Input: v, RawInput: b,
		Requirements: []string{"SEARCH-VAL-1", "SEARCH-GREP-3", "SEARCH-JSON-1"},
	}
}
