// Package matrix is the compliance matrix of one or more run reports
// (issue 14): one column per report, one row per requirement grouped by
// area, one cell per requirement and report, every figure computed from
// the reports. Its writers make the self-contained HTML page, the
// Markdown step summary and the shields.io badges.
package matrix

import (
	"fmt"
	"sort"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// Cell statuses: the requirement statuses of a run report, plus
// unsupported (the only cases citing it were of ops the adapter lacks).
const (
	Passed       = runner.StatusPassed
	Failed       = runner.StatusFailed
	XFail        = runner.StatusXFail
	NotExercised = runner.StatusNotExercised
	Unsupported  = "unsupported"
)

// Column results (Column.Result).
const (
	ResultConformant    = "conformant"
	ResultNonconformant = "nonconformant"
	ResultIncomplete    = "incomplete"
	ResultPartial       = "partial"
)

// Input is one report and the file it came from.
type Input struct {
	File   string
	Report *runner.Report
}

// Matrix is the whole picture.
type Matrix struct {
	Columns []Column
	Areas   []Area
}

// Column is one report: who ran, with what, and its counts.
type Column struct {
	Key                     string // "c0", "c1", …: the column's id on the page
	File                    string
	Name, Version, Language string
	Conform, CaseSet        string
	Conformant              bool
	// Result is the column's verdict in one word: conformant,
	// nonconformant, incomplete (the run did not finish, issue 21) or
	// partial (conformant on a selection that left requirements out).
	Result  string
	Reasons []string
	// Checked counts the requirements the run's cases ran to a verdict,
	// NotSelected those its selection left out.
	Checked, NotSelected       int
	Cases                      int
	Totals                     map[string]int // cases by verdict
	Passed, Failed, NotCovered int            // requirement counts: passed, failed, neither
	RequirementsTotal          int
}

// Area is the rows of one catalogue area, in catalogue order.
type Area struct {
	Name string
	Rows []Row
}

// Row is one requirement across the reports.
type Row struct {
	ID, Level, Title, Statement string
	Cells                       []Cell
	AnyFailed                   bool
}

// Cell is one requirement in one report.
type Cell struct {
	Status string
	Note   string // the report's note (exclusion reason, log checks)
	Pass   int
	Fail   int // failing cases
	Cases  []Case
}

// Case is one failing case of a cell, with everything to reproduce it.
type Case struct {
	ID, Verdict, Message string
	Diffs                []string // report.DiffText of each diff
	Input, Reproduce     string
}

// Build computes the matrix. Rows are every requirement of the catalogue
// plus any unknown ID a report names, by area in catalogue order.
func Build(in []Input) (*Matrix, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("matrix: no reports")
	}
	m := &Matrix{}
	rowsByReport := make([]map[string]runner.RequirementRow, len(in))
	casesByReport := make([]map[string][]*runner.CaseResult, len(in))
	ids := append([]string(nil), spec.IDs()...)
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	var unknown []string
	for i, x := range in {
		rows := requirementRows(x.Report)
		for id := range rows {
			if !known[id] {
				known[id] = true
				unknown = append(unknown, id)
			}
		}
		rowsByReport[i], casesByReport[i] = rows, byRequirement(x.Report)
		m.Columns = append(m.Columns, column(i, x, rows))
	}
	sort.Strings(unknown)
	areas := map[string]*Area{}
	var order []string
	for _, id := range append(ids, unknown...) {
		q, ok := spec.Lookup(id)
		area := q.Area
		if !ok {
			area = "unknown"
		}
		a := areas[area]
		if a == nil {
			a = &Area{Name: area}
			areas[area] = a
			order = append(order, area)
		}
		row := Row{ID: id, Level: q.Level, Title: q.Title, Statement: q.Statement}
		for i := range in {
			c := cell(rowsByReport[i][id], casesByReport[i][id], id)
			row.AnyFailed = row.AnyFailed || c.Status == Failed
			row.Cells = append(row.Cells, c)
		}
		a.Rows = append(a.Rows, row)
	}
	for _, name := range order {
		m.Areas = append(m.Areas, *areas[name])
	}
	return m, nil
}

// requirementRows counts a report's requirements from its cases
// (runner.Summarize), so that every cell follows the case verdicts; the
// report's accounting adds the requirements no case of it cites
// (not selected, check-log, excluded, uncovered).
func requirementRows(r *runner.Report) map[string]runner.RequirementRow {
	rows := map[string]runner.RequirementRow{}
	for _, q := range r.Requirements {
		if q.Cases == 0 {
			rows[q.ID] = q
		}
	}
	for _, q := range runner.Summarize(r) {
		rows[q.ID] = q
	}
	return rows
}

func column(i int, x Input, rows map[string]runner.RequirementRow) Column {
	r := x.Report
	c := Column{
		Key: fmt.Sprintf("c%d", i), File: x.File,
		Name: r.Implementation.Name, Version: r.Implementation.Version, Language: r.Implementation.Language,
		Conform: r.Conform, CaseSet: r.CaseSet, Cases: len(r.Cases), Totals: map[string]int{},
	}
	for v, n := range runner.Totals(r.Cases) {
		c.Totals[string(v)] = n
	}
	if c.Name == "" {
		c.Name = "(unnamed implementation)"
	}
	reasons := r.Nonconformant
	if reasons == nil {
		reasons = runner.Reasons(r)
	}
	for _, q := range reasons {
		c.Reasons = append(c.Reasons, q.Message)
	}
	if !r.Complete {
		stopped := false
		for _, q := range reasons {
			stopped = stopped || q.Kind == runner.ReasonIncomplete || q.Kind == runner.ReasonStart
		}
		if !stopped { // a report whose reasons leave it out still did not finish
			c.Reasons = append(c.Reasons, "the run did not complete: "+r.Stopped)
		}
	}
	c.Conformant = len(c.Reasons) == 0
	c.Checked, c.NotSelected = report.Checked(r)
	switch {
	case !r.Complete:
		c.Result = ResultIncomplete
	case !c.Conformant:
		c.Result = ResultNonconformant
	case c.NotSelected > 0:
		c.Result = ResultPartial
	default:
		c.Result = ResultConformant
	}
	for _, q := range rows {
		switch q.Status {
		case Passed:
			c.Passed++
		case Failed:
			c.Failed++
		default:
			c.NotCovered++
		}
	}
	c.RequirementsTotal = len(rows)
	return c
}

// byRequirement maps each requirement to the cases that cite or break it.
func byRequirement(r *runner.Report) map[string][]*runner.CaseResult {
	out := map[string][]*runner.CaseResult{}
	for i := range r.Cases {
		c := &r.Cases[i]
		seen := map[string]bool{}
		for _, id := range append(append([]string(nil), c.Requirements...), c.Broken...) {
			if !seen[id] {
				seen[id] = true
				out[id] = append(out[id], c)
			}
		}
	}
	return out
}

// failsIt says whether a case fails a requirement, as runner.Summarize
// counts it: a failing answer fails what its diffs blame; a case that did
// not run to an answer, or a stale baseline entry, fails all it cites.
func failsIt(c *runner.CaseResult, id string) bool {
	switch c.Verdict {
	case verdict.Fail:
		for _, b := range c.Broken {
			if b == id {
				return true
			}
		}
		return false
	case verdict.Error, verdict.Timeout, verdict.Crash, verdict.XPass:
		return true
	}
	return false
}

func cell(q runner.RequirementRow, cases []*runner.CaseResult, id string) Cell {
	c := Cell{Status: q.Status, Note: q.Note, Pass: q.Pass, Fail: q.Fail}
	if c.Status == "" {
		c.Status = runner.StatusNotSelected
	}
	if c.Status == NotExercised && len(cases) > 0 && allUnsupported(cases) {
		c.Status = Unsupported
	}
	for _, k := range cases {
		if !failsIt(k, id) {
			continue
		}
		fc := Case{ID: k.ID, Verdict: string(k.Verdict), Message: k.Message, Input: string(k.Input), Reproduce: k.Reproduce}
		for _, d := range k.Diffs {
			fc.Diffs = append(fc.Diffs, report.DiffText(d))
		}
		c.Cases = append(c.Cases, fc)
	}
	return c
}

func allUnsupported(cases []*runner.CaseResult) bool {
	for _, k := range cases {
		if k.Verdict != verdict.Unsupported {
			return false
		}
	}
	return true
}
