package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"

	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/spec"
)

// Requirement statuses in a report (RequirementRow.Status).
const (
	StatusPassed       = "passed"        // some case passes it, none fails it
	StatusFailed       = "failed"        // a case fails it
	StatusXFail        = "xfail"         // only known (baselined) failures
	StatusNotExercised = "not-exercised" // the run's cases cite it but none ran to pass or fail (skipped, unsupported)
	StatusNotSelected  = "not-selected"  // cases of the case set cite it; the selection left them out
	StatusCheckLog     = "check-log"     // no case: `conform check-log` checks it on session logs
	StatusExcluded     = "excluded"      // deliberately not checked; Note says why
	StatusUncovered    = "uncovered"     // nothing covers it (a gap; `conform coverage` fails)
)

// RequirementRow is one requirement in a run report: its catalogue entry,
// the case counts and its status.
type RequirementRow struct {
	ID        string `json:"id"`
	Level     string `json:"level,omitempty"`
	Title     string `json:"title,omitempty"`
	Statement string `json:"statement,omitempty"`
	Status    string `json:"status"`
	Cases     int    `json:"cases"` // the run's cases that cite or break it
	Pass      int    `json:"pass"`  // cases it passes in
	Fail      int    `json:"fail"`  // cases that fail it: a diff blames it, or a fault or a stale baseline entry fails the case
	XFail     int    `json:"xfail"` // known failures
	// Affected counts the failing cases whose differences touch it while
	// another requirement is the cause (issue 20): neither passed nor failed.
	Affected int `json:"affected"`
	Other    int `json:"other"` // unsupported, skipped
	// Note is the exclusion's reason or the log checks that cover it.
	Note string `json:"note,omitempty"`
}

// Summarize counts a run by requirement: a case counts for every
// requirement it cites or breaks. A failing case fails the requirements
// its diffs blame and passes the others it cites (its answer met them); a
// case that crashed, timed out, answered garbage or is a stale baseline
// entry fails every requirement it cites. Rows are in catalogue order;
// unknown IDs last, sorted.
func Summarize(r *Report) []RequirementRow {
	rows := map[string]*RequirementRow{}
	for _, c := range r.Cases {
		broken, affected := map[string]bool{}, map[string]bool{}
		for _, id := range c.Broken {
			broken[id] = true
		}
		for _, id := range c.Affected {
			affected[id] = true
		}
		seen := map[string]bool{}
		for _, id := range append(append(append([]string(nil), c.Requirements...), c.Broken...), c.Affected...) {
			if seen[id] {
				continue
			}
			seen[id] = true
			row := rows[id]
			if row == nil {
				row = &RequirementRow{ID: id}
				rows[id] = row
			}
			row.Cases++
			switch c.Verdict {
			case verdict.Pass:
				row.Pass++
			case verdict.Fail:
				switch {
				case broken[id]:
					row.Fail++
				case affected[id]:
					row.Affected++
				default:
					row.Pass++
				}
			case verdict.Error, verdict.Timeout, verdict.Crash, verdict.XPass:
				row.Fail++
			case verdict.XFail:
				if broken[id] || len(c.Broken) == 0 {
					row.XFail++
				} else if affected[id] {
					row.Affected++
				} else {
					row.Pass++
				}
			default:
				row.Other++
			}
		}
	}
	out := make([]RequirementRow, 0, len(rows))
	for _, row := range rows {
		row.Status = status(*row)
		if q, ok := spec.Lookup(row.ID); ok {
			row.Level, row.Title, row.Statement = q.Level, q.Title, q.Statement
		}
		out = append(out, *row)
	}
	sortByCatalogue(out)
	return out
}

func status(row RequirementRow) string {
	switch {
	case row.Fail > 0:
		return StatusFailed
	case row.Pass > 0:
		return StatusPassed
	case row.XFail > 0:
		return StatusXFail
	}
	return StatusNotExercised
}

func sortByCatalogue(rows []RequirementRow) {
	order := map[string]int{}
	for i, id := range spec.IDs() {
		order[id] = i + 1
	}
	sort.SliceStable(rows, func(i, j int) bool {
		oi, oj := order[rows[i].ID], order[rows[j].ID]
		switch {
		case oi != 0 && oj != 0:
			return oi < oj
		case oi != 0 || oj != 0:
			return oi != 0
		}
		return rows[i].ID < rows[j].ID
	})
}

// Accounting extends a run's summary to every requirement of the
// catalogue: the ones the run's cases do not cite are not-selected (other
// cases of the case set cite them), check-log, excluded or uncovered.
// logChecks maps requirement IDs to the session-log checks that prove
// them (internal/coverage), all the case set's cases.
func Accounting(r *Report, all []Case, logChecks map[string][]string) []RequirementRow {
	rows := Summarize(r)
	have := map[string]bool{}
	for _, row := range rows {
		have[row.ID] = true
	}
	citedBy := map[string]int{}
	for _, c := range all {
		for _, id := range c.Requirements {
			citedBy[id]++
		}
	}
	reqs, _ := spec.Catalogue()
	for _, q := range reqs {
		if have[q.ID] {
			continue
		}
		row := RequirementRow{ID: q.ID, Level: q.Level, Title: q.Title, Statement: q.Statement}
		switch {
		case citedBy[q.ID] > 0:
			row.Status, row.Note = StatusNotSelected, fmt.Sprintf("%d cases of the case set cite it", citedBy[q.ID])
		case len(logChecks[q.ID]) > 0:
			row.Status, row.Note = StatusCheckLog, "checked on session logs by conform check-log ("+strings.Join(first(logChecks[q.ID], 2), ", ")+")"
		case q.Exclusion != nil:
			row.Status, row.Note = StatusExcluded, q.Exclusion.Reason
		default:
			row.Status = StatusUncovered
		}
		rows = append(rows, row)
	}
	sortByCatalogue(rows)
	return rows
}

func first(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(append([]string{}, xs[:n]...), fmt.Sprintf("+%d more", len(xs)-n))
}

// Reason kinds (Reason.Kind).
const (
	ReasonStart          = "start-fault"             // the adapter could not be started
	ReasonIncomplete     = "incomplete"              // the run did not run every selected case (Report.Complete)
	ReasonFailingCases   = "failing-cases"           // cases fail, err, time out or crash
	ReasonStaleBaseline  = "stale-baseline-entry"    // a baselined case passes (xpass)
	ReasonUnsupportedOp  = "unsupported-required-op" // the adapter does not list a required op
	ReasonOpNeverPassed  = "required-op-never-passed"
	ReasonReqNeverPassed = "requirement-never-passed"
)

// Reason is one reason a run is nonconformant.
type Reason struct {
	Kind    string `json:"kind"`
	Subject string `json:"subject,omitempty"` // the op, case or requirement
	Message string `json:"message"`
}

// Reasons says why a run is nonconformant (issue 12: no false green); none
// when it is conformant:
//
//   - the adapter could not start;
//   - a case fails, errs, times out or crashes;
//   - a baselined case passes (a stale baseline entry);
//   - a required op is unsupported, or supported with no passing case
//     (every case skipped);
//   - a MUST requirement the run's cases exercise has no passing case and
//     no failing one (every case citing it skipped): a requirement never
//     checked must not pass. Known failures (xfail) count as checked.
func Reasons(r *Report) []Reason {
	var out []Reason
	if r.Fault != nil {
		out = append(out, Reason{Kind: ReasonStart, Subject: r.Fault.Kind, Message: r.Fault.Headline() + ": " + oneLine(r.Fault.Message, 300)})
	}
	if !r.Complete && r.Fault == nil { // a fault says itself why no case ran
		why := r.Stopped
		if why == "" {
			why = "the report does not say it completed"
		}
		out = append(out, Reason{Kind: ReasonIncomplete, Message: "the run did not complete: " + oneLine(why, 300)})
	}
	failing := 0
	opCases, opPass, opSupported := map[string]int{}, map[string]int{}, map[string]bool{}
	var ops []string
	for _, c := range r.Cases {
		if c.Verdict.Failing() {
			failing++
		}
		if c.Verdict == verdict.XPass {
			out = append(out, Reason{Kind: ReasonStaleBaseline, Subject: c.ID,
				Message: fmt.Sprintf("the baseline lists %s as failing (%s), but it passes: remove the entry", c.ID, oneLine(c.Baseline, 200))})
		}
		if opCases[c.Op] == 0 {
			ops = append(ops, c.Op)
		}
		opCases[c.Op]++
		if c.Verdict == verdict.Pass || c.Verdict == verdict.XFail || c.Verdict.Failing() || c.Verdict == verdict.XPass {
			opPass[c.Op]++ // ran to a verdict of its own
		}
		if c.Verdict != verdict.Unsupported {
			opSupported[c.Op] = true
		}
	}
	if failing > 0 {
		out = append(out, Reason{Kind: ReasonFailingCases, Message: fmt.Sprintf("%d cases fail, err, time out or crash", failing)})
	}
	sort.Strings(ops)
	for _, op := range ops {
		switch {
		case !Required(op):
		case !opSupported[op]:
			out = append(out, Reason{Kind: ReasonUnsupportedOp, Subject: op,
				Message: fmt.Sprintf("the adapter does not list %s, an op every harness must support (%d cases unsupported)", op, opCases[op])})
		case opPass[op] == 0:
			out = append(out, Reason{Kind: ReasonOpNeverPassed, Subject: op,
				Message: fmt.Sprintf("no case of the required op %s ran to a verdict: all %d were skipped", op, opCases[op])})
		}
	}
	for _, row := range exercised(r) {
		q, ok := spec.Lookup(row.ID)
		// A requirement only affected by its cases' failures (issue 20: another
		// requirement is their cause) ran; those failures are reasons of their
		// own, or baselined.
		if ok && q.Level == "MUST" && row.Pass == 0 && row.Fail == 0 && row.XFail == 0 && row.Affected == 0 {
			out = append(out, Reason{Kind: ReasonReqNeverPassed, Subject: row.ID,
				Message: fmt.Sprintf("MUST requirement %s (%s) never passed: %s", row.ID, q.Title, allSkipped(row.Cases))})
		}
	}
	return out
}

// exercised summarizes the cases whose op the adapter supports.
func exercised(r *Report) []RequirementRow {
	sub := Report{}
	for _, c := range r.Cases {
		if c.Verdict != verdict.Unsupported {
			sub.Cases = append(sub.Cases, c)
		}
	}
	return Summarize(&sub)
}

// Finishing is what Finish records in a report besides the results.
type Finishing struct {
	Conform, CaseSet, Fixtures string
	// Cases are the run's cases, for the failing ones' file and input.
	Cases []Case
	// All is the case set and LogChecks the session-log proof, for the
	// accounting of every requirement (Accounting).
	All       []Case
	LogChecks map[string][]string
	// ReproFlags are flags a reproduction repeats (e.g. --exec).
	ReproFlags []string
}

// Finish completes a report for its readers: versions, the requirement
// accounting, the reasons it is nonconformant, and each failing case's
// file, input and one-line reproduction.
func (r *Report) Finish(f Finishing) {
	r.Conform, r.CaseSet, r.Fixtures = f.Conform, f.CaseSet, f.Fixtures
	byID := make(map[string]Case, len(f.Cases))
	for _, c := range f.Cases {
		byID[c.ID] = c
	}
	for i := range r.Cases {
		c := &r.Cases[i]
		if !c.Verdict.FailsRun() && c.Verdict != verdict.XFail {
			continue
		}
		if k, ok := byID[c.ID]; ok {
			c.File, c.Input = k.File, append([]byte(nil), k.Input...)
		}
		c.Reproduce = Reproduction(r, c.ID, f.ReproFlags)
	}
	r.Requirements = Accounting(r, f.All, f.LogChecks)
	r.Nonconformant = Reasons(r)
}

// Reproduction is a shell command that runs one case of a report alone.
func Reproduction(r *Report, id string, flags []string) string {
	parts := []string{"conform", "run", "--run", shellQuote("^" + regexp.QuoteMeta(id) + "$")}
	if r.Fixtures != "" {
		parts = append(parts, "--fixtures", shellQuote(r.Fixtures))
	}
	for _, f := range flags {
		parts = append(parts, shellQuote(f))
	}
	if len(r.Adapter) > 0 {
		parts = append(parts, "--")
		for _, a := range r.Adapter {
			parts = append(parts, shellQuote(a))
		}
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("@%+=:,./-_", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// CaseSetHash identifies a case set: the SHA-256 of every file under
// fixtures/ and golden/ (path, NUL, length, NUL, bytes), in fs.WalkDir's
// order (each directory's entries by name, a directory's files before the
// next entry: "a/x" comes before "a-b", which plain path order would not
// have), as "sha256:" and the first 16 hex digits.
func CaseSetHash(fsys fs.FS) (string, error) {
	h := sha256.New()
	for _, dir := range []string{"fixtures", "golden"} {
		err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if !d.Type().IsRegular() {
				return fmt.Errorf("%s: not a regular file", p)
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s\x00%d\x00", p, len(data))
			h.Write(data)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// CheckOps reports the cases whose op is not one of adapter protocol v1's
// (docs/ops.md): a bug in the case set, never an unsupported op (issue 12,
// toml-test's BUG IN TEST CASE).
func CheckOps(cases []Case) error {
	known := map[string]bool{}
	for _, op := range reference.Ops() {
		known[op] = true
	}
	var bad []string
	for _, c := range cases {
		if !known[c.Op] {
			bad = append(bad, fmt.Sprintf("%s: unknown op %q", c.File, c.Op))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s (the ops: %s)", strings.Join(bad, "; "), strings.Join(reference.Ops(), ", "))
	}
	return nil
}

// allSkipped says that n cases were all skipped, in words.
func allSkipped(n int) string {
	if n == 1 {
		return "its one case was skipped"
	}
	return fmt.Sprintf("its %d cases were all skipped", n)
}
