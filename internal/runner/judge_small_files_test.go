package runner_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Intern keeps each distinct string and raw value once (intern.go, issue
// 21): equal values of different cases end up sharing one copy, and no
// value changes; an empty one stays empty.
func TestJudgeInternSharesEqualValues(t *testing.T) {
	msg := func() string { return strings.Repeat("m", 3) } // a new copy each call
	raw := func() json.RawMessage { return json.RawMessage(`{"a":1}`) }
	r := &runner.Report{}
	for range 3 {
		r.Cases = append(r.Cases, runner.CaseResult{Message: msg(), Stderr: "", Input: raw(),
			Diffs: []runner.Diff{{Message: msg(), Want: "w" + msg(), GotJSON: raw(), WantJSON: json.RawMessage("1")}}})
	}
	runner.Intern(r)
	first := r.Cases[0]
	for i, c := range r.Cases {
		if c.Message != "mmm" || c.Stderr != "" || string(c.Input) != `{"a":1}` || c.Diffs[0].Message != "mmm" || c.Diffs[0].Want != "wmmm" || string(c.Diffs[0].GotJSON) != `{"a":1}` {
			t.Fatalf("case %d changed: %+v", i, c)
		}
		if unsafe.StringData(c.Message) != unsafe.StringData(first.Message) || unsafe.StringData(c.Diffs[0].Want) != unsafe.StringData(first.Diffs[0].Want) {
			t.Errorf("case %d keeps its own copy of an equal message", i)
		}
		if unsafe.StringData(c.Diffs[0].Message) != unsafe.StringData(first.Message) {
			t.Errorf("case %d's diff keeps its own copy of the case message's text", i)
		}
		if &c.Input[0] != &first.Input[0] || &c.Diffs[0].GotJSON[0] != &first.Input[0] || &c.Diffs[0].WantJSON[0] != &first.Diffs[0].WantJSON[0] {
			t.Errorf("case %d keeps its own copy of an equal raw value", i)
		}
	}
}

// ParseReport accepts a JSON run report of this conform's format and
// version, and says what is wrong with anything else (reportread.go).
func TestJudgeParseReportChecks(t *testing.T) {
	format, version := string(jsonjs.Marshal(jsonjs.StringValue(runner.ReportFormat))), strconv.Itoa(runner.ReportVersion)
	if _, err := runner.ParseReport([]byte(`{"format":` + format + `,"version":` + version + `}`)); err != nil {
		t.Fatalf("a report of this format and version: %v", err)
	}
	for text, says := range map[string]string{
		`{"format":`:                  "not a JSON run report: ",
		`[1]`:                         "not a JSON run report: a JSON array, not an object",
		`{"version":` + version + `}`: `no "format" member`,
		`{"format":"x","version":` + version + `}`: `format "x", want ` + format,
		`{"format":` + format + `}`:                `no "version" member`,
		`{"format":` + format + `,"version":999}`:  "report version 999, this conform reads version " + version,
	} {
		_, err := runner.ParseReport([]byte(text))
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("ParseReport(%s) = %v, want an error saying %q", text, err, says)
		}
	}
}

// MaxReportBytes leaves room for the largest report its doc comment
// names: every embedded case failing, with diffs and 4 KiB of stderr
// each, is under 4 MiB, and must be read back (reportread.go:14).
func TestJudgeMaxReportBytesFitsAFullRun(t *testing.T) {
	if runner.MaxReportBytes < 4<<20 {
		t.Errorf("MaxReportBytes is %d, under the 4 MiB of a full failing run", runner.MaxReportBytes)
	}
}
