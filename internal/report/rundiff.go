package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

func quoteAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if p == "" {
			p = "/"
		}
		out[i] = "'" + p + "'"
	}
	return out
}

// VerdictChange is one case of both reports whose verdict changed.
type VerdictChange struct {
	ID  string          `json:"id"`
	Op  string          `json:"op"`
	Old verdict.Verdict `json:"old"`
	New verdict.Verdict `json:"new"`
	// Why is one line on the new verdict (its first diff or its fault),
	// for newly failing cases.
	Why string `json:"why,omitempty"`
}

// CaseVerdict is a case of one report only.
type CaseVerdict struct {
	ID      string          `json:"id"`
	Op      string          `json:"op"`
	Verdict verdict.Verdict `json:"verdict"`
	Why     string          `json:"why,omitempty"`
}

// RunDiff is what changed between two runs, keyed by case id; every list is
// in case-id order.
type RunDiff struct {
	Format  string `json:"format"` // "conform-run-diff"
	Version int    `json:"version"`
	Old     string `json:"old"` // the reports' names
	New     string `json:"new"`
	// NewlyFailing are cases whose verdict fails the run now but did not,
	// including cases only the new report has.
	NewlyFailing []VerdictChange `json:"newlyFailing"`
	// Fixed are cases that failed (or were expected failures) and pass now.
	Fixed []VerdictChange `json:"fixed"`
	// Changed are the other verdict changes, e.g. fail → crash, fail →
	// xfail, pass → unsupported.
	Changed []VerdictChange `json:"changed"`
	// Added and Removed are cases only one report has.
	Added   []CaseVerdict `json:"added"`
	Removed []CaseVerdict `json:"removed"`
	// Incomplete is why the new run did not finish: its missing cases are
	// no fix, and the diff is a regression (issue 21: no false pass).
	Incomplete string `json:"incomplete,omitempty"`
}

// NoVerdict is the Old of a newly failing case the old report lacks.
const NoVerdict verdict.Verdict = "(new)"

// DiffRuns compares two runs case by case.
func DiffRuns(oldName string, old *runner.Report, newName string, cur *runner.Report) *RunDiff {
	d := &RunDiff{
		Format: "conform-run-diff", Version: 1, Old: oldName, New: newName,
		NewlyFailing: []VerdictChange{}, Fixed: []VerdictChange{}, Changed: []VerdictChange{},
		Added: []CaseVerdict{}, Removed: []CaseVerdict{},
	}
	before := make(map[string]*runner.CaseResult, len(old.Cases))
	for i := range old.Cases {
		before[old.Cases[i].ID] = &old.Cases[i]
	}
	after := make(map[string]bool, len(cur.Cases))
	for i := range cur.Cases {
		n := &cur.Cases[i]
		after[n.ID] = true
		o, ok := before[n.ID]
		if !ok {
			d.Added = append(d.Added, CaseVerdict{ID: n.ID, Op: n.Op, Verdict: n.Verdict, Why: whyNot(n)})
			if n.Verdict.FailsRun() {
				d.NewlyFailing = append(d.NewlyFailing, VerdictChange{ID: n.ID, Op: n.Op, Old: NoVerdict, New: n.Verdict, Why: whyNot(n)})
			}
			continue
		}
		ch := VerdictChange{ID: n.ID, Op: n.Op, Old: o.Verdict, New: n.Verdict}
		switch {
		case n.Verdict.FailsRun() && !o.Verdict.FailsRun():
			ch.Why = whyNot(n)
			d.NewlyFailing = append(d.NewlyFailing, ch)
		case n.Verdict == verdict.Pass && (o.Verdict.FailsRun() || o.Verdict == verdict.XFail):
			d.Fixed = append(d.Fixed, ch)
		case n.Verdict != o.Verdict:
			d.Changed = append(d.Changed, ch)
		}
	}
	for i := range old.Cases {
		if o := &old.Cases[i]; !after[o.ID] {
			d.Removed = append(d.Removed, CaseVerdict{ID: o.ID, Op: o.Op, Verdict: o.Verdict})
		}
	}
	if !cur.Complete {
		d.Incomplete = stoppedWhy(cur)
	}
	sortChanges(d.NewlyFailing)
	sortChanges(d.Fixed)
	sortChanges(d.Changed)
	sortCases(d.Added)
	sortCases(d.Removed)
	return d
}

func whyNot(c *runner.CaseResult) string {
	if c.Verdict == verdict.Pass {
		return ""
	}
	return oneLine(caseReason(c), 200)
}

func sortChanges(xs []VerdictChange) {
	sort.SliceStable(xs, func(i, j int) bool { return xs[i].ID < xs[j].ID })
}

func sortCases(xs []CaseVerdict) {
	sort.SliceStable(xs, func(i, j int) bool { return xs[i].ID < xs[j].ID })
}

// Regressed reports whether a case newly fails or the new run did not
// finish.
func (d *RunDiff) Regressed() bool { return len(d.NewlyFailing) > 0 || d.Incomplete != "" }

// WriteText writes the diff for people: one section per non-empty list,
// then a summary line.
func (d *RunDiff) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "conform diff: %s → %s\n", line(d.Old), line(d.New))
	if d.Incomplete != "" {
		fmt.Fprintf(&b, "\nINCOMPLETE RUN: %s is the report of a run that did not finish (%s): its missing cases are no fix\n", line(d.New), line(d.Incomplete))
	}
	section := func(title string, rows [][]string) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s (%d):\n", title, len(rows))
		writeLeft(&b, rows)
	}
	changes := func(xs []VerdictChange) [][]string {
		rows := make([][]string, len(xs))
		for i, c := range xs {
			rows[i] = []string{"  " + line(c.ID), fmt.Sprintf("%s → %s", c.Old, c.New), line(c.Why)}
		}
		return rows
	}
	cases := func(xs []CaseVerdict) [][]string {
		rows := make([][]string, len(xs))
		for i, c := range xs {
			rows[i] = []string{"  " + line(c.ID), string(c.Verdict), line(c.Why)}
		}
		return rows
	}
	section("newly failing", changes(d.NewlyFailing))
	section("fixed", changes(d.Fixed))
	section("other verdict changes", changes(d.Changed))
	section("new cases", cases(d.Added))
	section("removed cases", cases(d.Removed))
	fmt.Fprintf(&b, "\n%d newly failing, %d fixed, %d other changes, %d new, %d removed\n",
		len(d.NewlyFailing), len(d.Fixed), len(d.Changed), len(d.Added), len(d.Removed))
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the diff as indented JSON.
func (d *RunDiff) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// writeLeft writes rows with left-aligned columns two spaces apart; the
// last column's padding is trimmed with the line's trailing spaces.
func writeLeft(b *strings.Builder, rows [][]string) {
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString("  ")
			}
			line.WriteString(c + strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)))
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}
