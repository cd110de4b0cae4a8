package generators

import (
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// nCodeArgs are valid run_code arguments.
func nCodeArgs(code, description string) jsonjs.Value {
	return nobj("code", code, "description", description)
}

// nRunIn is a run_code.result input.
func nRunIn(args, run jsonjs.Value) jsonjs.Value { return nobj("args", args, "run", run) }

// nRunValue is a successful run with a completion value.
func nRunValue(logs []string, result jsonjs.Value) jsonjs.Value {
	return nobj("logs", nLogs(logs), "result", result)
}

// nRunLogs is a successful run without a completion value.
func nRunLogs(logs ...string) jsonjs.Value { return nobj("logs", nLogs(logs)) }

// nRunFailed is a run the runtime reports as failed.
func nRunFailed(logs []string, kind, message string) jsonjs.Value {
	return nobj("logs", nLogs(logs), "error", nobj("kind", kind, "message", message))
}

func nLogs(logs []string) jsonjs.Value {
	if logs == nil {
		logs = []string{}
	}
	return nv(logs)
}

// nDeepArrays nests n arrays around [1,2] without recursion in the builder.
func nDeepArrays(n int) jsonjs.Value {
	v := narr(1, 2)
	for i := 1; i < n; i++ {
		v = jsonjs.ArrayValue(v)
	}
	return v
}

// nDeepObjects is n levels of objects, each with a member of every kind
// beside the next level: past 64 levels jsonjs keeps them on its tape
// (reference/jsonjs/deep.go), so objects, escaped keys, strings and
// literals are read there as a tree reads them. Keys are in sorted order,
// which is also insertion order (CODE-KEYS-1 either way).
func nDeepObjects(n int) jsonjs.Value {
	v := nobj("end", "\u2028 é 😀")
	for i := n - 1; i >= 0; i-- {
		v = nobj("a", narr(i, -i-1, "x\n", nobj(), narr()), "b", true, "c", v, "f", false,
			"k\"\\q", 2.5, "s", "tab\there \"quoted\"", "z", nil)
	}
	return v
}

func namedRunCode() []Case {
	r := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpRunCodeResult, name, description, input, reqs...)
	}
	args := nCodeArgs("return value;", "Render the value")
	// value renders a completion value given as JSON text, with no logs.
	value := func(name, description, result string, reqs ...string) Case {
		return r(name, description, nRunIn(args, nRunValue(nil, In(result))), reqs...)
	}
	number := func(slug, text, want, row string) Case {
		return value("run-code-number-"+slug, "The number "+text+" renders as `"+want+"` ("+row+").", text, "CODE-NUM-1")
	}
	badArgs := func(name, description string, a jsonjs.Value, reqs ...string) Case {
		return r(name, description, nRunIn(a, nRunLogs("never shown")), reqs...)
	}
	return []Case{
		// code-mode.md §3 render table.
		r("run-code-logs-only", "Logs alone render as the logs joined by LF (§3 row 1).", nRunIn(args, nRunLogs("printed")), "CODE-RENDER-1", "CODE-VALUE-1"),
		r("run-code-string-result-only", "A string result alone renders verbatim (§3 row 2).", nRunIn(args, nRunValue(nil, nv("returned"))), "CODE-RENDER-1", "CODE-JSON-1"),
		r("run-code-logs-then-string-result", "Logs then the result, joined by one LF (§3 row 3).", nRunIn(args, nRunValue([]string{"printed"}, nv("returned"))), "CODE-RENDER-1", "CODE-DISPATCH-8"),
		r("run-code-logs-then-object-result", "Two logs then a pretty-printed object (§3 row 4).", nRunIn(args, nRunValue([]string{"a", "b"}, In(`{"x":1}`))), "CODE-RENDER-1", "CODE-JSON-2", "CODE-DISPATCH-8", "CODE-PRESENT-3"),
		r("run-code-no-logs-no-result", "No logs and no result give `(run_code completed with no output)` (§3 row 5).", nRunIn(args, nRunLogs()), "CODE-RENDER-1", "CODE-VALUE-1"),
		r("run-code-empty-string-result-vanishes", "An empty-string result contributes nothing, leaving the no-output marker (§3 row 6).", nRunIn(args, nRunValue(nil, nv(""))), "CODE-RENDER-2"),
		r("run-code-single-empty-log-vanishes", "A single empty log contributes nothing, leaving the no-output marker (§3 row 7).", nRunIn(args, nRunLogs("")), "CODE-RENDER-2"),
		r("run-code-two-empty-logs-kept", "Two empty logs join to the non-empty string LF, which is kept (§3 row 8).", nRunIn(args, nRunLogs("", "")), "CODE-RENDER-2", "CODE-RENDER-3"),
		r("run-code-empty-log-then-result", "An empty log part is dropped before joining, so only `r` remains (§3 row 9).", nRunIn(args, nRunValue([]string{""}, nv("r"))), "CODE-RENDER-2"),
		r("run-code-multiline-log-then-null", "A log holding LF is copied verbatim and a null result renders `null` (§3 row 10).", nRunIn(args, nRunValue([]string{"l1\nl2"}, nv(nil))), "CODE-RENDER-3", "CODE-VALUE-1"),
		r("run-code-zero-result", "A result of 0 renders `0`, not the no-output marker (§3 row 11).", nRunIn(args, nRunValue(nil, nv(0))), "CODE-VALUE-1", "CODE-RENDER-1"),
		r("run-code-false-result", "A result of false renders `false` (§3 row 12).", nRunIn(args, nRunValue(nil, nv(false))), "CODE-VALUE-1"),
		r("run-code-log-then-empty-array", "An empty array result renders `[]` after the log (§3 row 13).", nRunIn(args, nRunValue([]string{"x"}, narr())), "CODE-JSON-2", "CODE-RENDER-1"),
		r("run-code-trailing-newlines-verbatim", "Trailing LFs of logs and string results are kept, and none is added (§3 row 14).", nRunIn(args, nRunValue([]string{"x\n"}, nv("y\n"))), "CODE-RENDER-3", "CODE-JSON-1"),
		r("run-code-snapshot-code-mode-turn", "The upstream code-mode-turn snapshot: `captured output` then the string result (§3, snapshot).",
			nRunIn(nCodeArgs("const a = await tools.bash({command: \"echo CODE_ONE\"});\nconsole.log(\"captured output\");\nreturn \"CODE_ONE+CODE_TWO\";", "Run two echo commands and join outputs"),
				nRunValue([]string{"captured output"}, nv("CODE_ONE+CODE_TWO"))), "CODE-DISPATCH-8", "CODE-RENDER-1", "CODE-PRESENT-1"),

		// code-mode.md §4 renderValue blocks.
		value("run-code-json-depth-4-pretty", "The depth-4 object is the deepest pretty container, identical to JSON.stringify(v, null, 2) (§4 block 1).", `{"a":{"b":{"c":{"d":{"e":1}}}}}`, "CODE-JSON-2"),
		value("run-code-json-depth-5-compact", "The container at depth 5 renders compactly (§4 block 2).", `{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}`, "CODE-JSON-2"),
		value("run-code-json-depth-6-inside-compact", "Depth 6 and deeper stay inside the compact depth-5 rendering (§4 block 3).", `{"a":{"b":{"c":{"d":{"e":{"f":{"g":1}}}}}}}`, "CODE-JSON-2"),
		value("run-code-json-array-five-levels-pretty", "The innermost of five nested arrays is at depth 4 and pretty (§4 block 4).", `[[[[[1,2]]]]]`, "CODE-JSON-2"),
		value("run-code-json-array-six-levels-compact", "Six nested arrays: the depth-5 array is compact (§4 block 5).", `[[[[[[1,2]]]]]]`, "CODE-JSON-2"),
		value("run-code-json-array-seven-levels", "Seven levels: everything from depth 5 down is compact (§4 block 6).", `[[[[[[[1,2],[3]]]]]]]`, "CODE-JSON-2"),
		value("run-code-json-depth-5-object-in-depth-4-array", "A depth-5 object inside a depth-4 array is compact while its siblings stay on their own lines (§4 block 7).", `{"a":{"b":{"c":{"d":[1,{"e":2}]}}}}`, "CODE-JSON-2"),
		value("run-code-json-mixed-nesting", "Mixed object and array nesting switches to compact at depth 5 (§4 block 8).", `{"l0":{"l1":{"l2":{"l3":{"l4":{"l5":{"l6":"x"},"k":[1,[2,[3]]]},"m":[]},"n":{}}}}}`, "CODE-JSON-2"),
		value("run-code-json-empty-containers-any-depth", "Empty containers stay `[]`/`{}` at any depth (§4 block 9).", `[[[[[[],{},[[]]]]]]]`, "CODE-JSON-2"),
		value("run-code-root-null", "A null root renders `null` (§4 scalar roots).", `null`, "CODE-JSON-2", "CODE-VALUE-1"),
		value("run-code-root-number", "A number root renders `42` (§4 scalar roots).", `42`, "CODE-JSON-2", "CODE-NUM-1"),
		value("run-code-root-true", "A true root renders `true` (§4 scalar roots).", `true`, "CODE-JSON-2"),
		value("run-code-root-empty-object", "An empty object root renders `{}` (§4 scalar roots).", `{}`, "CODE-JSON-2"),
		value("run-code-root-empty-array", "An empty array root renders `[]` (§4 scalar roots).", `[]`, "CODE-JSON-2"),
		value("run-code-root-object-two-members", "`{\"n\":42,\"ok\":true}` renders with two-space indentation and `\": \"` separators (§4 scalar roots).", `{"n":42,"ok":true}`, "CODE-JSON-2"),
		value("run-code-root-array-string-and-number", "`[\"x\",2]` renders one element per line with the string quoted (§4 scalar roots).", `["x",2]`, "CODE-JSON-2", "CODE-STR-1"),
		r("run-code-json-200-nested-arrays", "Two hundred nested arrays render without a recursion limit, compact from depth 5.", nRunIn(args, nRunValue(nil, nDeepArrays(200))), "CODE-JSON-3", "CODE-JSON-2"),
		r("run-code-json-72-nested-objects", "Seventy-two nested objects of every member kind (escaped keys and strings, numbers, literals, arrays) render without a recursion limit, compact from depth 5; past 64 levels the reference reads them, negative integers included, from its tape.", nRunIn(args, nRunValue(nil, nDeepObjects(72))), "CODE-JSON-3", "CODE-JSON-2", "CODE-STR-1"),
		r("run-code-json-3000-nested-arrays", "Three thousand nested arrays (past 1,024 levels) render without a recursion limit, compact from depth 5.", nRunIn(args, nRunValue(nil, nDeepArrays(3000))), "CODE-JSON-3", "CODE-JSON-2"),

		// code-mode.md §4.2 strings and keys.
		value("run-code-string-escaping", "Strings escape exactly like JSON.stringify: `\\\"`, `\\\\`, `\\n`, `\\t`, `\\u0001`, `\\u001f`, `\\b`, `\\f`, `\\r` and lone surrogates as `\\udxxx`, with U+007F, U+2028, U+2029, `<>&` and non-ASCII raw (§4.2 example).",
			`{"s":"a\"b\\c\n\t\u0001\u001f\u007f\u2028\u2029<>&é😀\ud800 \udc00x","k":"\b\f\r"}`, "CODE-STR-1"),
		value("run-code-key-escaping", "Keys are escaped like strings, including the empty key (§4.2 keys example).", `{"a\"b":1,"é":2,"\n":3,"":4}`, "CODE-STR-1"),
		r("run-code-string-result-verbatim-no-escaping", "A string result with quotes, backslashes and control characters is emitted verbatim, not JSON-escaped.", nRunIn(args, nRunValue(nil, nv("say \"hi\"\\n\t\u2028"))), "CODE-JSON-1", "CODE-RENDER-3"),
		value("run-code-keys-array-index-order", "Array-index keys come first in ascending order, then the other keys in insertion order: 0, 1, 2, 9, 10, 4294967294, b, a, 4294967295, 01, -1, 1.5 (§4.2 CODE-KEYS-1 example).",
			`{"b":1,"2":2,"a":3,"1":4,"4294967295":5,"4294967294":6,"01":7,"-1":8,"1.5":9,"0":10,"10":11,"9":12}`, "CODE-KEYS-1"),
		value("run-code-keys-duplicate-first-position-last-value", "A duplicate key appears once at its first position with its last value (§4.2 CODE-KEYS-2 example).", `{"a":1,"b":2,"a":3}`, "CODE-KEYS-2"),
		value("run-code-keys-proto-ordinary", "A key named __proto__ is an ordinary key (§4.2 example).", `{"__proto__":1,"x":2}`, "CODE-KEYS-1"),
		value("run-code-keys-index-order-nested", "Own-property order applies to every object, including ones nested in arrays and in compact depth-5 containers.", `[{"z":1,"1":2},{"a":{"b":{"c":{"d":{"y":1,"0":2}}}}}]`, "CODE-KEYS-1", "CODE-JSON-2"),

		// code-mode.md §4.1 number table.
		number("zero", "0", "0", "§4.1 row 1"),
		number("hundred", "100", "100", "§4.1 row 2"),
		number("point-one", "0.1", "0.1", "§4.1 row 3"),
		number("point-one-plus-point-two", "0.30000000000000004", "0.30000000000000004", "§4.1 row 4, 0.1 + 0.2"),
		number("one-third", "0.3333333333333333", "0.3333333333333333", "§4.1 row 5, 1/3"),
		number("123-456", "123.456", "123.456", "§4.1 row 6"),
		number("4-35", "4.35", "4.35", "§4.1 row 7"),
		number("1e20", "1e20", "100000000000000000000", "§4.1 row 8"),
		number("1e21", "1e21", "1e+21", "§4.1 row 9"),
		number("21-nines-parses-to-1e21", "999999999999999999999", "1e+21", "§4.1 row 10"),
		number("9-999999999999999e20", "9.999999999999999e20", "999999999999999900000", "§4.1 row 11"),
		number("123456789012345680000", "123456789012345680000", "123456789012345680000", "§4.1 row 12"),
		number("23-digit-integer", "12345678901234567890123", "1.2345678901234568e+22", "§4.1 row 13"),
		number("2-pow-53", "9007199254740992", "9007199254740992", "§4.1 row 14, 2^53"),
		number("1e15-plus-0-3", "1000000000000000.3", "1000000000000000.2", "§4.1 row 15, 1e15 + 0.3"),
		number("4503599627370497-5", "4503599627370497.5", "4503599627370498", "§4.1 row 16"),
		number("0-000001", "0.000001", "0.000001", "§4.1 row 17"),
		number("minus-1e-6", "-1e-6", "-0.000001", "§4.1 row 18"),
		number("0-000001234", "0.000001234", "0.000001234", "§4.1 row 19"),
		number("9-9e-7", "9.9e-7", "9.9e-7", "§4.1 row 20"),
		number("1e-7", "1e-7", "1e-7", "§4.1 row 21"),
		number("1-5e-7", "1.5e-7", "1.5e-7", "§4.1 row 22"),
		number("minus-2-5e-10", "-2.5e-10", "-2.5e-10", "§4.1 row 23"),
		number("123e-20", "123e-20", "1.23e-18", "§4.1 row 24"),
		number("5e-324", "5e-324", "5e-324", "§4.1 row 25"),
		number("1e100", "1e100", "1e+100", "§4.1 row 26"),
		number("1e300", "1e300", "1e+300", "§4.1 row 27"),
		number("max-double", "1.7976931348623157e308", "1.7976931348623157e+308", "§4.1 row 28"),
		value("run-code-numbers-inside-containers", "Numbers inside containers follow the same Number::toString rules as number roots.", `{"big":1e21,"small":1e-7,"neg":-0.5,"list":[1e20,123e-20]}`, "CODE-NUM-1", "CODE-JSON-2"),

		// code-mode.md §5 failure table and CODE-FAIL-1 edges.
		r("run-code-failure-output-limit", "A reported output-limit failure renders `Error: code run failed (output-limit): …` with the captured output, and CodeRunFailedError info (§5 row 1).",
			nRunIn(args, nRunFailed([]string{"captured before failure"}, "output-limit", "outer output exceeded 8 bytes")), "CODE-FAIL-1", "CODE-FAIL-2", "CODE-PRESENT-3"),
		r("run-code-failure-timeout", "A timeout failure with one log (§5 row 2).",
			nRunIn(args, nRunFailed([]string{"got this far"}, "timeout", "compute budget exhausted (300ms busy)")), "CODE-FAIL-1", "CODE-FAIL-2", "CODE-PRESENT-2", "CODE-DEF-2"),
		r("run-code-failure-abort-no-logs", "An abort with no logs has no Captured output section (§5 row 3).",
			nRunIn(args, nRunFailed(nil, "abort", "user-cancel")), "CODE-FAIL-1", "CODE-FAIL-2"),
		r("run-code-failure-exception-two-logs", "An exception with two logs joins them with LF after `Captured output:`.",
			nRunIn(args, nRunFailed([]string{"step 1", "step 2"}, "exception", "TypeError: x is not a function")), "CODE-FAIL-1"),
		r("run-code-failure-worker-exit", "A worker-exit failure uses the same wording.",
			nRunIn(args, nRunFailed(nil, "worker-exit", "worker exited with code 1")), "CODE-FAIL-1", "CODE-FAIL-2"),
		r("run-code-failure-invalid-output", "A completion that is not lossless JSON fails the run with kind invalid-output before any rendering.",
			nRunIn(args, nRunFailed(nil, "invalid-output", "program completion must be lossless JSON")), "CODE-LOSSLESS-1", "CODE-FAIL-1"),
		r("run-code-failure-invalid-output-with-logs", "A non-lossless completion after some logs is still a failed run: its value never reaches the renderer and the logs are shown as captured output.",
			nRunIn(args, nRunFailed([]string{"computed -0"}, "invalid-output", "program completion must be lossless JSON")), "CODE-LOSSLESS-1", "CODE-FAIL-1", "CODE-FAIL-2"),
		r("run-code-failure-single-empty-log-captured", "A single empty log still adds the Captured output section, ending in an empty line.",
			nRunIn(args, nRunFailed([]string{""}, "exception", "boom")), "CODE-FAIL-1"),
		r("run-code-failure-multiline-message", "The failure message is copied verbatim, LFs included.",
			nRunIn(args, nRunFailed([]string{"a"}, "exception", "Error: bad\n    at main (run_code:1:1)")), "CODE-FAIL-1", "CODE-FAIL-2"),
		r("run-code-failure-keeps-call-view", "A failed run keeps its call view: it depends only on the arguments.",
			nRunIn(nCodeArgs("throw new Error(\"x\")", "Throw on purpose"), nRunFailed(nil, "exception", "Error: x")), "CODE-PRESENT-1", "CODE-FAIL-2"),

		// code-mode.md CODE-ERR-1 argument rows.
		badArgs("run-code-args-missing-description", "Arguments without description fail with `Error: invalid arguments: missing required property \"description\"` and ToolArgsError (CODE-ERR-1 row 1).", nobj("code", "return 1"), "CODE-ERR-1", "CODE-DEF-1", "CODE-PRESENT-1"),
		badArgs("run-code-args-description-not-string", "A numeric description fails with `\"description\" must be a string` (CODE-ERR-1 row 1).", nobj("code", "return 1", "description", 5), "CODE-ERR-1", "CODE-DEF-1"),
		badArgs("run-code-args-missing-both", "Missing code and description are both listed, joined by `; ` (CODE-ERR-1 row 1).", nobj(), "CODE-ERR-1"),
		badArgs("run-code-args-not-object", "A string instead of an arguments object fails with `\"arguments\" must be an object` (CODE-ERR-1 row 1).", nv("return 1"), "CODE-ERR-1"),
		badArgs("run-code-args-null", "null arguments fail the schema and get no call view.", nv(nil), "CODE-ERR-1", "CODE-PRESENT-1"),
		badArgs("run-code-args-array", "An array of arguments fails the schema.", narr("return 1", "d"), "CODE-ERR-1"),
		badArgs("run-code-args-code-not-string", "A numeric code fails with `\"code\" must be a string`.", nobj("code", 1, "description", "d"), "CODE-ERR-1", "CODE-DEF-1"),
		badArgs("run-code-args-missing-before-type-errors", "Missing properties are listed before type errors: `missing required property \"description\"; \"code\" must be a string`.", nobj("code", 1), "CODE-ERR-1"),
		r("run-code-args-blank-description", "A blank description fails with `invalid description: expected a non-empty string` without error info, and the call view keeps the blank title verbatim.", nRunIn(nCodeArgs("return 1", "   "), nRunValue(nil, nv(1))), "CODE-ERR-1", "CODE-PRESENT-1"),
		r("run-code-args-empty-description", "An empty description is blank.", nRunIn(nCodeArgs("return 1", ""), nRunValue(nil, nv(1))), "CODE-ERR-1"),
		r("run-code-args-description-ideographic-space-and-bom", "A description of U+3000 and U+FEFF is blank under ECMAScript trim.", nRunIn(nCodeArgs("return 1", "\u3000\ufeff"), nRunValue(nil, nv(1))), "CODE-ERR-1", "SEARCH-ARGS-3"),
		r("run-code-args-description-zwsp-not-blank", "A description of U+200B is not blank, so the run renders normally with that title.", nRunIn(nCodeArgs("return 1", "\u200b"), nRunValue(nil, nv(1))), "CODE-ERR-1", "CODE-PRESENT-1"),
		r("run-code-args-description-nel-not-blank", "A description of U+0085 is not blank under ECMAScript trim (Go's TrimSpace would trim it).", nRunIn(nCodeArgs("return 1", "\u0085"), nRunValue(nil, nv(1))), "CODE-ERR-1", "SEARCH-ARGS-3"),
		r("run-code-args-blank-description-before-run-failure", "The blank-description check runs before the run outcome, so a failed run still reports the invalid description.", nRunIn(nCodeArgs("x", "\t"), nRunFailed([]string{"log"}, "exception", "boom")), "CODE-ERR-1", "CODE-FAIL-1"),
		r("run-code-args-extra-members-allowed", "Extra argument members are allowed by the schema.", nRunIn(nobj("code", "return 1", "description", "One", "timeoutMs", 5), nRunValue(nil, nv(1))), "CODE-DEF-1", "CODE-PRESENT-1"),
		r("run-code-args-empty-code-allowed", "An empty code string is a valid string argument.", nRunIn(nCodeArgs("", "Nothing"), nRunLogs()), "CODE-DEF-1"),

		// code-mode.md §6 presentation.
		r("run-code-call-view-title-and-raw-input", "The call view is `{card:\"generic\", title:<description>, kind:\"execute\", rawInput:<code>}` with both copied verbatim.",
			nRunIn(nCodeArgs("const r = await tools.grep({pattern: \"TODO\"});\nreturn r.matches.length;", "Count TODOs — ünïcode"), nRunValue([]string{"searching"}, nv(3))), "CODE-PRESENT-1", "CODE-PRESENT-2", "CODE-DEF-2"),
		r("run-code-result-card-is-raw-content", "There is no result view and no meta: the card shows the complete raw content, logs and result.",
			nRunIn(args, nRunValue([]string{"line one", "line two"}, In(`{"count":2,"items":["a","b"]}`))), "CODE-PRESENT-2", "CODE-PRESENT-3", "CODE-DEF-2", "CODE-DISPATCH-8"),
		r("run-code-long-logs-and-result-complete", "The outer content contains every log and the rendered result, never only the logs.",
			nRunIn(args, nRunValue(strings.Split(strings.TrimSuffix(nrep("log line\n", 40), "\n"), "\n"), In(`["done"]`))), "CODE-DISPATCH-8", "CODE-RENDER-1"),
	}
}
