package report

import (
	"encoding/json"
	"io"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/logcheck"
)

// CheckLogJSON is the JSON report of a check-log run, format
// conform-check-log version 1; its schema is
// spec/schemas/report-check-log.json.
type CheckLogJSON struct {
	Format      string                `json:"format"`
	Version     int                   `json:"version"`
	FailOn      string                `json:"failOn"`
	MaxFindings int                   `json:"maxFindings"`
	Files       []CheckLogJSONFile    `json:"files"`
	Totals      CheckLogJSONTotals    `json:"totals"`
	Baseline    *CheckLogJSONBaseline `json:"baseline,omitempty"`
}

// CheckLogJSONFile is one checked log.
type CheckLogJSONFile struct {
	File           string                `json:"file"`
	Stats          CheckLogJSONStats     `json:"stats"`
	Findings       []CheckLogJSONFinding `json:"findings"`
	Dropped        int                   `json:"dropped"`
	ElapsedSeconds float64               `json:"elapsedSeconds"`
	Error          string                `json:"error,omitempty"`
	Partial        bool                  `json:"partial,omitempty"` // interrupted while this log was read
	Notes          []string              `json:"notes,omitempty"`   // how the log was read when not plainly to its end (it grew, --follow stopped)
}

// CheckLogJSONStats are the statistics of one log.
type CheckLogJSONStats struct {
	Lines          int                 `json:"lines"`
	Events         int                 `json:"events"`
	MalformedLines int                 `json:"malformedLines"`
	UnknownTypes   map[string]int      `json:"unknownTypes"`
	ResultsChecked map[string]int      `json:"resultsChecked"`
	Findings       CheckLogLevelCounts `json:"findings"`
	Baselined      int                 `json:"baselined"`
	Bytes          int64               `json:"bytes"`
}

// CheckLogLevelCounts count findings per level.
type CheckLogLevelCounts struct {
	Violation  int `json:"violation"`
	Warning    int `json:"warning"`
	Unprovable int `json:"unprovable"`
}

// CheckLogJSONFinding is a listed finding with the baseline entry that
// accepts it.
type CheckLogJSONFinding struct {
	logcheck.Finding
	Baseline *CheckLogJSONBaselineEntry `json:"baseline,omitempty"`
}

// CheckLogJSONBaselineEntry is a baseline entry.
type CheckLogJSONBaselineEntry struct {
	Source      string `json:"source"` // file:line of the entry
	Requirement string `json:"requirement,omitempty"`
	File        string `json:"file,omitempty"`
	ID          string `json:"id,omitempty"`
	Reason      string `json:"reason"`
	Issue       string `json:"issue,omitempty"`
}

// CheckLogJSONTotals sum the run.
type CheckLogJSONTotals struct {
	Files          int                 `json:"files"`
	Lines          int                 `json:"lines"`
	Events         int                 `json:"events"`
	MalformedLines int                 `json:"malformedLines"`
	UnknownTypes   map[string]int      `json:"unknownTypes"`
	ResultsChecked map[string]int      `json:"resultsChecked"`
	Findings       CheckLogLevelCounts `json:"findings"`
	Baselined      int                 `json:"baselined"`
	Failing        int                 `json:"failing"`
	Listed         int                 `json:"listed"`
	Dropped        int                 `json:"dropped"`
	Errors         int                 `json:"errors"`
	Bytes          int64               `json:"bytes"`
	ElapsedSeconds float64             `json:"elapsedSeconds"`
	Result         string              `json:"result"` // pass, fail, error or interrupted (a partial report)
}

// CheckLogJSONBaseline is the baseline of a run that had one.
type CheckLogJSONBaseline struct {
	File    string                      `json:"file"`
	Entries int                         `json:"entries"` // entries check-log applies (no id)
	Stale   []CheckLogJSONBaselineEntry `json:"stale"`
}

func checkLogLevelCounts(m map[logcheck.Level]int) CheckLogLevelCounts {
	return CheckLogLevelCounts{Violation: m[logcheck.Violation], Warning: m[logcheck.Warning], Unprovable: m[logcheck.Unprovable]}
}

func checkLogJSONEntry(e *baseline.Entry) *CheckLogJSONBaselineEntry {
	if e == nil {
		return nil
	}
	return &CheckLogJSONBaselineEntry{Source: e.Pos.String(), Requirement: e.Requirement, File: e.File, ID: e.ID, Reason: e.Reason, Issue: e.Issue}
}

func nonNilCounts(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// CheckLogJSONReport returns the JSON report of s.
func CheckLogJSONReport(s *logcheck.Summary) CheckLogJSON {
	rep := CheckLogJSON{Format: "conform-check-log", Version: 1, FailOn: string(s.FailOn), MaxFindings: s.MaxFindings, Files: []CheckLogJSONFile{}}
	for _, f := range s.Files {
		rep.Files = append(rep.Files, checkLogJSONFile(f, f.Listed))
	}
	rep.Totals = checkLogJSONTotals(s)
	rep.Baseline = checkLogJSONBaseline(s)
	return rep
}

// checkLogJSONFile is the report of log f, listing listed.
func checkLogJSONFile(f *logcheck.FileResult, listed []*logcheck.RunFinding) CheckLogJSONFile {
	jf := CheckLogJSONFile{
		File: f.Name,
		Stats: CheckLogJSONStats{
			Lines: f.Stats.Lines, Events: f.Stats.Events, MalformedLines: f.Stats.MalformedLines,
			UnknownTypes: nonNilCounts(f.Stats.UnknownTypes), ResultsChecked: nonNilCounts(f.Stats.ResultsChecked),
			Findings: checkLogLevelCounts(f.Counts), Baselined: f.Baseline, Bytes: f.Stats.Bytes,
		},
		Findings:       make([]CheckLogJSONFinding, 0, len(listed)),
		Dropped:        f.Dropped,
		ElapsedSeconds: f.Elapsed.Seconds(),
		Partial:        f.Partial,
		Notes:          f.Notes,
	}
	if f.Err != nil {
		jf.Error = f.Err.Error()
	}
	for _, fd := range listed {
		jf.Findings = append(jf.Findings, CheckLogJSONFinding{Finding: fd.Finding, Baseline: checkLogJSONEntry(fd.Baseline)})
	}
	return jf
}

// checkLogJSONTotals sums the run s.
func checkLogJSONTotals(s *logcheck.Summary) CheckLogJSONTotals {
	st, counts, baselined := s.Totals()
	return CheckLogJSONTotals{
		Files: s.FileCount(), Lines: st.Lines, Events: st.Events, MalformedLines: st.MalformedLines,
		UnknownTypes: st.UnknownTypes, ResultsChecked: st.ResultsChecked,
		Findings: checkLogLevelCounts(counts), Baselined: baselined, Failing: s.Failing(),
		Listed: s.Listed, Dropped: s.Dropped, Errors: s.Errors(), Bytes: st.Bytes,
		ElapsedSeconds: s.Elapsed.Seconds(), Result: s.Result(),
	}
}

// checkLogJSONBaseline is the baseline part of s's report, nil without one.
func checkLogJSONBaseline(s *logcheck.Summary) *CheckLogJSONBaseline {
	if s.Baseline == nil {
		return nil
	}
	jb := &CheckLogJSONBaseline{File: s.Baseline.Source, Entries: len(s.Matcher.Entries()), Stale: []CheckLogJSONBaselineEntry{}}
	for _, e := range s.Stale {
		jb.Stale = append(jb.Stale, *checkLogJSONEntry(e))
	}
	return jb
}

// WriteCheckLogJSON writes CheckLogJSONReport(s) as indented JSON.
func WriteCheckLogJSON(w io.Writer, s *logcheck.Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(CheckLogJSONReport(s))
}
