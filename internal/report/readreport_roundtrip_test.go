package report_test

import (
	"bytes"
	"reflect"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// fullRun sets every field of a run report, so that the round trip below
// covers them all; allFieldsSet keeps it so when a field is added.
func fullRun() *runner.Report {
	el := 2
	c := runner.CaseResult{
		ID: "grep.result/b-fail", Op: "grep.result", Requirements: []string{"SEARCH-GREP-2"}, Verdict: verdict.XFail,
		Broken: []string{"SEARCH-GREP-2"}, Message: "m", Stderr: "e\n", Baseline: "known", DurationMS: 1.5,
		File: "fixtures/grep.result/b-fail.json", Input: []byte(`{"a":[1,"é\n","\ud800"]}`), InputText: "set by the writer",
		Reproduce: "conform run --run '^grep.result/b-fail$'",
		Affected:  []string{"SEARCH-GREP-4"},
		Minimized: &runner.Minimized{Input: []byte(`{"a":"\udc00"}`), InputText: "set by the writer", Field: "meta", Runs: 7, Stopped: true},
		Diagnosis: []runner.Explanation{{Model: "trim-python", Requirement: "SEARCH-ARGS-3", Cause: "c", Behaves: "b", Functions: []string{"Python: str.strip()"}, Fix: "f"}},
		Diffs: []runner.Diff{{
			Field: "meta", Comparator: "json", Path: "$.meta.items", Offset: 3, Element: &el,
			Requirements: []string{"SEARCH-GREP-2"}, Affects: []string{"SEARCH-GREP-4"}, WantJSON: []byte(`[1,"\udc00x"]`), GotJSON: []byte(`{"k":"\ud83d\ude00\ud83d"}`),
			WantText: "set by", GotText: "the writer",
			WantTooLarge: true, GotTooLarge: true, // a real diff has one of each side's pair
			Want: "Found·3⏎", Got: "Found·4⏎", Message: "differs",
		}},
	}
	return &runner.Report{
		Format: runner.ReportFormat, Version: runner.ReportVersion, Conform: "0.9.0", CaseSet: "sha256:0123456789abcdef",
		Implementation: adapter.Implementation{Name: "demo", Version: "1.2.3", Language: "js", Homepage: "https://example.org"},
		Protocol:       1, Adapter: []string{"node", "a.mjs"}, Fixtures: "cases/",
		Started: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC), DurationMS: 12.25,
		Totals:   runner.Totals(nil),
		Complete: true, Stopped: "interrupted", Selected: 3,
		Fault:         &runner.Fault{Kind: "start", Message: "no", Stderr: "boom"},
		Nonconformant: []runner.Reason{{Kind: runner.ReasonFailingCases, Subject: "grep.result", Message: "1 case fails"}},
		Requirements: []runner.RequirementRow{{ID: "SEARCH-GREP-2", Level: "MUST", Title: "t", Statement: "s", Status: runner.StatusXFail,
			Cases: 1, Pass: 2, Fail: 3, XFail: 4, Other: 5, Affected: 6, Note: "n"}},
		Cases: []runner.CaseResult{c},
		Notes: []runner.Note{{Kind: "leftover", Message: "pid 9", Stderr: "x"}},
		Shard: &runner.Shard{K: 1, N: 3},
	}
}

// allFieldsSet lists the zero-valued fields of a struct tree by path.
func allFieldsSet(v reflect.Value, path string) []string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return []string{path}
		}
		return allFieldsSet(v.Elem(), path)
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			if v.Interface().(time.Time).IsZero() {
				return []string{path}
			}
			return nil
		}
		var out []string
		for i := 0; i < v.NumField(); i++ {
			out = append(out, allFieldsSet(v.Field(i), path+"."+v.Type().Field(i).Name)...)
		}
		return out
	case reflect.Slice:
		if v.Len() == 0 {
			return []string{path}
		}
		if v.Type().Elem().Kind() == reflect.Struct {
			return allFieldsSet(v.Index(0), path+"[0]")
		}
	}
	if v.IsZero() {
		return []string{path}
	}
	return nil
}

var _ = Describe("ReadRun round trip", func() {
	It("fills every field of the sample", func() {
		Expect(allFieldsSet(reflect.ValueOf(fullRun()), "Report")).To(BeEmpty(), "set these fields in fullRun")
	})

	It("writes, reads and writes again the same bytes", func() {
		first := jsonOf(fullRun())
		back, err := report.ReadRun("r.json", first)
		Expect(err).NotTo(HaveOccurred())
		var again bytes.Buffer
		Expect(report.WriteRunJSON(&again, back)).To(Succeed())
		Expect(again.String()).To(Equal(string(first)))
	})
})

var _ = Describe("a value nested past StrictDepth (jq 1.6 stops at 256 levels)", func() {
	nested := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	It("goes only as its exact text, which ReadRun takes back", func() {
		// jq 1.6's 256 levels less the 6 a diff's value sits in; 200 levels stay values
		deep, shallow := nested(250), nested(200)
		run := fullRun()
		run.Cases[0].Input = []byte(`{"a":` + deep + `}`)
		run.Cases[0].Minimized.Input = []byte(`{"m":` + deep + `}`) // a minimized input is an outside value too
		run.Cases[0].Diffs[0].WantJSON, run.Cases[0].Diffs[0].GotJSON = []byte(shallow), []byte(deep)
		out := jsonOf(run)
		Expect(string(out)).To(ContainSubstring(`"inputText": "{\"a\":` + deep + `}"`))
		Expect(string(out)).NotTo(ContainSubstring(`"input": `))
		Expect(string(out)).To(ContainSubstring(`"inputText": "{\"m\":` + deep + `}"`))
		Expect(string(out)).To(ContainSubstring(`"want": ` + shallow))
		Expect(string(out)).To(ContainSubstring(`"gotText": "` + deep + `"`))
		Expect(string(out)).NotTo(ContainSubstring(`"got": `))
		back, err := report.ReadRun("r.json", out)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(back.Cases[0].Input)).To(Equal(`{"a":` + deep + `}`))
		Expect(string(back.Cases[0].Diffs[0].GotJSON)).To(Equal(deep))
		Expect(string(back.Cases[0].Diffs[0].WantJSON)).To(Equal(shallow))
	})
})
