// Package runner runs conformance cases through an adapter session,
// compares each answer with the reference's golden answer field by field,
// runs the property checks on it, applies the baseline, and produces one
// Report. The CLI, the ginkgo suites and conformtest share it.
package runner

import (
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/verdict"
)

// ReportFormat and ReportVersion identify the JSON report
// (spec/schemas/report-run.json).
const (
	ReportFormat  = "conform-run"
	ReportVersion = 1
)

// Diff is one field of an answer that differs from the golden answer, or
// one property the answer breaks.
type Diff struct {
	Field       string `json:"field"`                 // output field, e.g. "content", "meta"; "" for the whole answer
	Comparator  string `json:"comparator"`            // "exact", "json", "property"
	Path        string `json:"path,omitempty"`        // JSON path of the first difference (json comparator)
	Offset      int    `json:"offset,omitempty"`      // byte offset of the first difference (exact comparator)
	Requirement string `json:"requirement,omitempty"` // the requirement it breaks, when known
	Want        string `json:"want,omitempty"`        // excerpt, whitespace made visible
	Got         string `json:"got,omitempty"`
	Message     string `json:"message"` // one line
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	ID           string          `json:"id"`
	Op           string          `json:"op"`
	Requirements []string        `json:"requirements"`
	Verdict      verdict.Verdict `json:"verdict"`
	Broken       []string        `json:"broken,omitempty"` // requirement IDs the answer breaks
	Diffs        []Diff          `json:"diffs,omitempty"`
	Message      string          `json:"message,omitempty"`  // skip reason, fault, error answer
	Stderr       string          `json:"stderr,omitempty"`   // the adapter's last 4 KiB of stderr, on faults
	Baseline     string          `json:"baseline,omitempty"` // the baseline entry's reason, for xfail/xpass
	DurationMS   float64         `json:"durationMs"`
}

// Report is a whole run.
type Report struct {
	Format         string                  `json:"format"`
	Version        int                     `json:"version"`
	Implementation adapter.Implementation  `json:"implementation"`
	Protocol       int                     `json:"protocol"`
	Adapter        []string                `json:"adapter,omitempty"` // argv; empty for the embedded reference
	Started        time.Time               `json:"started"`
	DurationMS     float64                 `json:"durationMs"`
	Totals         map[verdict.Verdict]int `json:"totals"`
	Cases          []CaseResult            `json:"cases"`
	Notes          []Note                  `json:"notes,omitempty"` // what closing the sessions found
}

// Note is something a session's Close found that is no case's verdict: an
// adapter killed after ignoring bye, one that exited with a failure status
// after bye, processes an adapter left behind (docs/protocol.md, Shutdown).
type Note struct {
	Kind    string `json:"kind"` // timeout, crash, leftover, error
	Message string `json:"message"`
	Stderr  string `json:"stderr,omitempty"`
}

// RequiredOps are the ops every harness must support (docs/protocol.md);
// retain.items, retain.text and spill.preview are optional.
var RequiredOps = []string{"grep.result", "glob.result", "search.present", "run_code.result"}

// Required reports whether an op is one every harness must support.
func Required(op string) bool {
	for _, o := range RequiredOps {
		if o == op {
			return true
		}
	}
	return false
}

// Conformant reports whether no case fails the run. An unsupported case is
// no failure for an optional op, but it is for a required one: an adapter
// that lists no ops must not pass.
func (r *Report) Conformant() bool {
	for _, c := range r.Cases {
		if c.Verdict.FailsRun() || (c.Verdict == verdict.Unsupported && Required(c.Op)) {
			return false
		}
	}
	return true
}
