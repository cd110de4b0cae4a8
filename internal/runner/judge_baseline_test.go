package runner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// ApplyBaseline turns failures into xfail, which passes a run (issue 22:
// who judges the judge). On drawn baselines and results it does what its
// doc comment says and nothing more: a case entry matches its id (and its
// requirement, if it names one, among the case's cited or broken ones) and
// makes a failing case xfail and a passing one xpass; a requirement entry
// matches a failing case citing or breaking it whose fixture its file glob
// matches, and makes it xfail; the first matching entry's reason is kept;
// other verdicts are left alone.

type judgeEntry struct{ id, req, file, reason string }

var (
	judgeBaseReqs  = []string{"SEARCH-VAL-1", "SEARCH-VAL-2", "RET-OMIT-1"}
	judgeBaseGlobs = []string{"", "fixtures/op/c1.json", "fixtures/op/*", "fixtures/other/*"}
)

func judgeGlob(glob, file string) bool {
	switch glob {
	case "":
		return true
	case "fixtures/op/*":
		return strings.HasPrefix(file, "fixtures/op/")
	}
	return glob == file
}

func TestJudgeApplyBaselineMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var entries []judgeEntry
		var text strings.Builder
		for i := range rapid.IntRange(0, 4).Draw(t, "entries") {
			e := judgeEntry{reason: fmt.Sprintf("r%d", i)}
			if rapid.Bool().Draw(t, "caseEntry") {
				e.id = fmt.Sprintf("c%d", rapid.IntRange(0, 3).Draw(t, "id"))
				if rapid.Bool().Draw(t, "withReq") {
					e.req = rapid.SampledFrom(judgeBaseReqs).Draw(t, "req")
				}
			} else {
				e.req = rapid.SampledFrom(judgeBaseReqs).Draw(t, "req")
				e.file = rapid.SampledFrom(judgeBaseGlobs).Draw(t, "glob")
			}
			if slices.ContainsFunc(entries, func(x judgeEntry) bool { return x.id == e.id && x.req == e.req && x.file == e.file }) {
				continue // Parse refuses a repeated entry
			}
			entries = append(entries, e)
			fmt.Fprintf(&text, "- reason: %s\n", e.reason)
			for k, v := range map[string]string{"id": e.id, "requirement": e.req, "file": e.file} {
				if v != "" {
					fmt.Fprintf(&text, "  %s: %q\n", k, v)
				}
			}
		}
		b, err := baseline.Parse("b.yaml", []byte(text.String()))
		if err != nil {
			t.Fatalf("%s: %v", text.String(), err)
		}
		var cases []runner.Case
		var results []runner.CaseResult
		for i := range 4 {
			id := fmt.Sprintf("c%d", i)
			reqs := rapid.SliceOfDistinct(rapid.SampledFrom(judgeBaseReqs), rapid.ID[string]).Draw(t, "reqs")
			r := runner.CaseResult{ID: id, Op: "grep.result", Requirements: reqs, Verdict: rapid.SampledFrom(verdict.All).Draw(t, "verdict")}
			if r.Verdict == verdict.Fail {
				r.Broken = rapid.SliceOfDistinct(rapid.SampledFrom(judgeBaseReqs), rapid.ID[string]).Draw(t, "broken")
			}
			cases = append(cases, runner.Case{ID: id, Op: "grep.result", Requirements: reqs, File: "fixtures/op/" + id + ".json"})
			results = append(results, r)
		}
		before := slices.Clone(results)
		runner.ApplyBaseline(b, cases, results)
		for i, r := range before {
			wantV, wantWhy := r.Verdict, ""
			if r.Verdict == verdict.Pass || r.Verdict.Failing() {
				failing := r.Verdict.Failing()
				cited := append(slices.Clone(r.Requirements), r.Broken...)
				matched := false
				for _, e := range entries {
					if e.id == r.ID && (e.req == "" || slices.Contains(cited, e.req)) {
						wantV, wantWhy, matched = verdict.XPass, e.reason, true
						if failing {
							wantV = verdict.XFail
						}
						break
					}
				}
				if !matched && failing {
					for _, e := range entries {
						if e.id == "" && slices.Contains(cited, e.req) && judgeGlob(e.file, cases[i].File) {
							wantV, wantWhy = verdict.XFail, e.reason
							break
						}
					}
				}
			}
			if got := results[i]; got.Verdict != wantV || got.Baseline != wantWhy {
				t.Fatalf("%s %s (cites %v, breaks %v) under\n%s: got %s %q, want %s %q",
					r.ID, r.Verdict, r.Requirements, r.Broken, text.String(), got.Verdict, got.Baseline, wantV, wantWhy)
			}
		}
	})
}
