package runner

import (
	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// ValidateBaseline checks a baseline before a run: every entry's case id
// must be one of cases (the whole catalogue, not a selection) and every
// requirement must be in the spec catalogue. It returns every problem at
// once, each naming the baseline file and line.
func ValidateBaseline(b *baseline.Baseline, cases []Case) error {
	if b == nil {
		return nil
	}
	ids := make(map[string]bool, len(cases))
	for _, c := range cases {
		ids[c.ID] = true
	}
	return b.Validate(baseline.Known{
		Requirement: func(id string) bool { _, ok := spec.Lookup(id); return ok },
		Case:        func(id string) bool { return ids[id] },
	})
}

// ApplyBaseline turns listed failures into xfail and listed passes into
// xpass, in place:
//
//   - an entry with an id matches the case with that id (and, when it also
//     names a requirement, only if the case cites or breaks it): a failing
//     case (verdict.Failing) becomes xfail, a passing one xpass;
//   - an entry with only a requirement (and optionally a file glob over the
//     fixture path, e.g. "fixtures/retain.text/*") matches every failing
//     case that cites or breaks the requirement, which becomes xfail; it
//     never makes a passing case xpass.
//
// Baseline holds the first matching entry's reason (and its issue).
// Unsupported and skipped cases are left alone.
func ApplyBaseline(b *baseline.Baseline, cases []Case, results []CaseResult) {
	if b == nil {
		return
	}
	byID := make(map[string]Case, len(cases))
	for _, c := range cases {
		byID[c.ID] = c
	}
	m := b.Cases()
	var reqEntries []*baseline.Entry
	for _, e := range b.Entries {
		if !e.IsCase() && e.Requirement != "" {
			reqEntries = append(reqEntries, e)
		}
	}
	for i := range results {
		r := &results[i]
		if r.Verdict != verdict.Pass && !r.Verdict.Failing() {
			continue
		}
		failing := r.Verdict.Failing()
		reqs := append(append([]string(nil), r.Requirements...), r.Broken...)
		outcome, entry := m.Case(r.ID, reqs, failing)
		if entry == nil && failing {
			file := byID[r.ID].File
			for _, e := range reqEntries {
				if contains(reqs, e.Requirement) && e.MatchFile(file) {
					outcome, entry = baseline.XFail, e
					break
				}
			}
		}
		if entry == nil {
			continue
		}
		switch outcome {
		case baseline.XFail:
			r.Verdict = verdict.XFail
		case baseline.XPass:
			r.Verdict = verdict.XPass
		default:
			continue
		}
		r.Baseline = entry.Reason
		if entry.Issue != "" {
			r.Baseline += " (" + entry.Issue + ")"
		}
	}
}
