package spec_test

import (
	"slices"
	"sort"
	"strings"
)

// The runner's JSON report schema (spec/schemas/report-run.json) is owned
// with internal/runner, whose suite validates real reports against it; this
// file registers it with the schema suite's expected set (unless
// spec_test.go lists it already) and gives the instances, valid and the near
// misses it exists to catch (unless spec_test.go has some already).
func init() {
	const name = "report-run"
	if !slices.Contains(schemaNames, name) {
		schemaNames = append(schemaNames, name)
		sort.Strings(schemaNames)
	}
	if _, ok := schemaInstances[name]; ok {
		return
	}
	const (
		format = `"format":"conform-run",`
		rest   = `"version":1,"implementation":{"name":"ref","version":"1.0.0","language":"go","homepage":""},"protocol":1,"started":"2026-01-02T03:04:05.678Z","durationMs":12.5,"complete":true`
		head   = format + rest
		totals = `"totals":{"pass":1,"fail":1,"error":0,"timeout":0,"crash":0,"unsupported":0,"skipped":0,"xfail":0,"xpass":0}`
		pass   = `{"id":"grep.result/gen-001","op":"grep.result","requirements":["SEARCH-META-2"],"verdict":"pass","durationMs":0.2}`
		fail   = `{"id":"grep.result/x","op":"grep.result","requirements":["SEARCH-GREP-2"],"verdict":"fail","broken":["SEARCH-CAP-4","SEARCH-GREP-2"],"diffs":[` +
			`{"field":"content","comparator":"exact","path":"$.content","offset":7,"requirements":["SEARCH-GREP-2"],"want":"Found 3\\n","got":"Found 4\\n","wantExcerpt":"Found 3\\n","gotExcerpt":"Found 4\\n","message":"content: first difference at byte 7"},` +
			`{"field":"meta","comparator":"json","path":"$.meta.files","element":2,"requirements":[],"want":[1,2,3],"got":[1,2],"message":"want 3 elements, got 2"},` +
			`{"field":"meta","comparator":"property","path":"$.meta","requirements":["SEARCH-CAP-4"],"message":"meta.total is 4"}],` +
			`"file":"fixtures/grep.result/x.json","input":{"args":{}},"reproduce":"conform run --run '^grep\\.result/x$'","durationMs":1}`
		extra = `"conform":"0.1.0","caseSet":"sha256:0123456789abcdef","fixtures":"dir",` +
			`"fault":{"kind":"start","message":"handshake timeout","stderr":"x"},` +
			`"nonconformant":[{"kind":"start-fault","subject":"start","message":"m"},{"kind":"requirement-never-passed","subject":"SEARCH-CAP-1","message":"m"}],` +
			`"requirements":[{"id":"SEARCH-CAP-1","level":"MUST","title":"t","statement":"s","status":"not-exercised","cases":1,"pass":0,"fail":0,"xfail":0,"other":1},` +
			`{"id":"LOG-1","status":"check-log","cases":0,"pass":0,"fail":0,"xfail":0,"other":0,"note":"n"}]`
	)
	schemaInstances[name] = instances{
		valid: []string{
			`{` + head + `,` + totals + `,"cases":[` + pass + `,` + fail + `]}`,
			`{` + head + `,"adapter":["node","adapter.js"],` + totals + `,"cases":[]}`,
			`{` + head + `,` + extra + `,` + totals + `,"cases":[]}`,
			`{` + head + `,` + totals + `,"cases":[{"id":"retain.text/a","op":"retain.text","requirements":[],"verdict":"crash","message":"exit 1","stderr":"boom","durationMs":3},` +
				`{"id":"retain.text/b","op":"retain.text","requirements":["RET-TEXT-7"],"verdict":"xfail","message":"adapter timeout","baseline":"known (HARNESS-1)","durationMs":3}]}`,
			`{` + head + `,` + totals + `,"cases":[],"notes":[{"kind":"timeout","message":"adapter did not exit within 2s of bye; killed","stderr":"x"},{"kind":"leftover","message":"killed 1 process"}]}`,
			// issue 21: an incomplete run, and texts beside values strict readers could not take
			`{` + format + strings.Replace(rest, `"complete":true`, `"complete":false,"stopped":"interrupted: 1 of 2 selected cases ran","selected":2`, 1) + `,` + totals +
				`,"nonconformant":[{"kind":"incomplete","message":"the run did not complete"}],"cases":[{"id":"grep.result/x","op":"grep.result","requirements":["SEARCH-GREP-2"],"verdict":"fail","broken":["SEARCH-GREP-2"],` +
				`"diffs":[{"field":"meta","comparator":"json","requirements":["SEARCH-GREP-2"],"want":"\ufffd","wantText":"\"\\ud800\"","got":1,"gotText":"1","message":"m"}],"input":{"a":"\ufffd"},"inputText":"{\"a\":\"\\ud800\"}","durationMs":1}]}`,
		},
		invalid: []string{
			`{` + format + strings.Replace(rest, `,"complete":true`, "", 1) + `,` + totals + `,"cases":[]}`, // issue 21: no complete
			`{` + format + strings.Replace(rest, `"complete":true`, `"complete":"yes"`, 1) + `,` + totals + `,"cases":[]}`,
			`{` + head + `,` + totals + `}`,                                         // no cases
			`{"format":"conform-check-log",` + rest + `,` + totals + `,"cases":[]}`, // wrong format
			`{` + head + `,"totals":{"pass":1},"cases":[]}`,                         // totals miss verdicts
			`{` + head + `,` + totals + `,"cases":[{"id":"grep.result/x","op":"grep.result","requirements":[],"verdict":"passed","durationMs":1}]}`,
			`{` + head + `,` + totals + `,"cases":[{"id":"grep.result/x","op":"grep.result","requirements":[],"verdict":"fail","durationMs":1}]}`,
			`{` + head + `,` + totals + `,"cases":[{"id":"grep.result/x","op":"grep.result","requirements":[],"verdict":"xpass","durationMs":1}]}`,
			`{` + head + `,` + totals + `,"cases":[{"id":"grep.result/x","op":"grep.result","requirements":[],"verdict":"fail","diffs":[{"field":"meta","comparator":"property","message":"m"}],"durationMs":1}]}`,
			`{` + head + `,` + totals + `,"cases":[{"id":"grep.result/x","op":"grep.result","requirements":[],"verdict":"fail","diffs":[{"field":"meta","comparator":"fuzzy","message":"m"}],"durationMs":1}]}`,
			`{` + head + `,` + totals + `,"cases":[` + pass + `],"extra":true}`,
			`{` + head + `,` + totals + `,"cases":[],"notes":[{"message":"a note without its kind"}]}`,
			`{` + head + `,` + totals + `,"cases":[],"notes":[{"kind":"pass","message":"not a note kind"}]}`,
			`{` + head + `,"requirements":[{"id":"SEARCH-CAP-1","status":"green","cases":1,"pass":0,"fail":0,"xfail":0,"other":1}],` + totals + `,"cases":[]}`,
			`{` + head + `,"nonconformant":[{"kind":"bad","message":"m"}],` + totals + `,"cases":[]}`,
			`{` + head + `,` + totals + `,"cases":[{"id":"grep.result/x","op":"grep.result","requirements":[],"verdict":"fail","diffs":[{"field":"meta","comparator":"json","message":"m"}],"durationMs":1}]}`,
		},
	}
}
