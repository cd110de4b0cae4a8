// Package runner runs conformance cases through an adapter session,
// compares each answer with the reference's golden answer field by field,
// runs the property checks on it, applies the baseline, and produces one
// Report. The CLI, the ginkgo suites and conformtest share it.
package runner

import (
	"encoding/json"
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
	Field      string `json:"field"`            // output field, e.g. "content", "meta"; "" for the whole answer
	Comparator string `json:"comparator"`       // "exact", "json", "property"
	Path       string `json:"path,omitempty"`   // JSON path of the difference (json comparator)
	Offset     int    `json:"offset,omitempty"` // byte offset of the first difference (exact comparator)
	// Element is the index of the first differing element when Path is
	// an array of a different length.
	Element *int `json:"element,omitempty"`
	// Requirements are the requirements this check blames: the case's
	// cited ones the comparison verifies, or the property's own. Empty when
	// the difference follows from another one (a view mirroring a wrong
	// meta).
	Requirements []string `json:"requirements"`
	// Affects are requirements of the part that differs which this
	// difference does not break: it follows from the cause another diff
	// or the diagnosis names (issue 20). Counted apart, never as failed.
	Affects []string `json:"affects,omitempty"`
	// WantJSON and GotJSON are the whole values at Path, as JSON; absent
	// on the side that has no member there, and for a value over
	// MaxWholeBytes, which WantTooLarge or GotTooLarge flags instead.
	WantJSON     json.RawMessage `json:"want,omitempty"`
	GotJSON      json.RawMessage `json:"got,omitempty"`
	WantTooLarge bool            `json:"wantTooLarge,omitempty"`
	GotTooLarge  bool            `json:"gotTooLarge,omitempty"`
	// WantText and GotText are set by the JSON report's writer when the
	// value holds a lone surrogate: the value's exact JSON text, as a
	// string every strict reader accepts (want and got then hold U+FFFD
	// in its place). Readers take the text over the value (issue 21).
	WantText string `json:"wantText,omitempty"`
	GotText  string `json:"gotText,omitempty"`
	// Want and Got are short excerpts for people, whitespace made visible.
	Want    string `json:"wantExcerpt,omitempty"`
	Got     string `json:"gotExcerpt,omitempty"`
	Message string `json:"message"` // one line
}

// MarshalJSON writes a nil Requirements as [], as the schema wants.
func (d Diff) MarshalJSON() ([]byte, error) {
	type plain Diff
	if d.Requirements == nil {
		d.Requirements = []string{}
	}
	return json.Marshal(plain(d))
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	ID           string          `json:"id"`
	Op           string          `json:"op"`
	Requirements []string        `json:"requirements"`
	Verdict      verdict.Verdict `json:"verdict"`
	Broken       []string        `json:"broken,omitempty"` // requirement IDs the answer breaks
	Diffs        []Diff          `json:"diffs,omitempty"`
	// Diagnosis is the deviation models that reproduce the failing answer
	// (issue 20); their requirements are the blame.
	Diagnosis []Explanation `json:"diagnosis,omitempty"`
	// Minimized is the smallest input found that still fails, when no
	// model explains the case and the run had a budget for it (explain.go).
	Minimized *Minimized `json:"minimized,omitempty"`
	// Affected are the requirements the differing parts touch without
	// breaking them (the diffs' Affects, less Broken).
	Affected   []string `json:"affected,omitempty"`
	Message    string   `json:"message,omitempty"`  // skip reason, fault, error answer
	Stderr     string   `json:"stderr,omitempty"`   // the adapter's last 4 KiB of stderr, on faults
	Baseline   string   `json:"baseline,omitempty"` // the baseline entry's reason, for xfail/xpass
	DurationMS float64  `json:"durationMs"`
	// File, Input and Reproduce are set on failing cases by Finish: the
	// fixture file, the input the harness was fed, and a one-line command
	// that runs this case alone.
	File  string          `json:"file,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// InputText is Input's exact JSON text when it holds a lone
	// surrogate (see Diff.WantText).
	InputText string `json:"inputText,omitempty"`
	Reproduce string `json:"reproduce,omitempty"`
}

// Report is a whole run.
type Report struct {
	Format         string                  `json:"format"`
	Version        int                     `json:"version"`
	Conform        string                  `json:"conform,omitempty"` // conform's own version
	CaseSet        string                  `json:"caseSet,omitempty"` // hash of the fixtures and goldens (CaseSetHash)
	Implementation adapter.Implementation  `json:"implementation"`
	Protocol       int                     `json:"protocol"`
	Adapter        []string                `json:"adapter,omitempty"`  // argv; empty for the embedded reference
	Fixtures       string                  `json:"fixtures,omitempty"` // --fixtures; empty for the embedded case set
	Started        time.Time               `json:"started"`
	DurationMS     float64                 `json:"durationMs"`
	Totals         map[verdict.Verdict]int `json:"totals"`
	// Complete says every case the run selected ran to a verdict of its
	// own; Stopped says why not (interrupted by SIGINT or SIGTERM, the
	// adapter's circuit breaker, a start fault). The zero value is
	// incomplete, so that nothing but a finished run reads as one (issue
	// 21: no false pass). Selected is how many cases the run (its shard)
	// selected.
	Complete bool   `json:"complete"`
	Stopped  string `json:"stopped,omitempty"`
	Selected int    `json:"selected"`
	// Fault is set when the run could not start (the adapter never
	// answered the handshake): no case ran.
	Fault *Fault `json:"fault,omitempty"`
	// Nonconformant lists why the run fails (Reasons); empty when it
	// passes. Requirements accounts for every requirement of the
	// catalogue (Finish).
	Nonconformant []Reason         `json:"nonconformant,omitempty"`
	Requirements  []RequirementRow `json:"requirements,omitempty"`
	Cases         []CaseResult     `json:"cases"`
	Notes         []Note           `json:"notes,omitempty"` // what closing the sessions found
	// Shard is the slice of the selected cases this run ran (--shard K/N);
	// nil for a whole run. Merge needs every K of N.
	Shard *Shard `json:"shard,omitempty"`
}

// Note is something a session's Close found that is no case's verdict: an
// adapter killed after ignoring bye, one that exited with a failure status
// after bye, processes an adapter left behind (docs/protocol.md, Shutdown).
type Note struct {
	Kind    string `json:"kind"` // timeout, crash, leftover, error
	Message string `json:"message"`
	Stderr  string `json:"stderr,omitempty"`
}

// Fault is a run-level fault: no case ran.
type Fault struct {
	Kind    string `json:"kind"` // "start": the adapter could not be started; "usage": a usage error; "cases": a bug in the case set
	Message string `json:"message"`
	Stderr  string `json:"stderr,omitempty"`
}

// Headline says what the fault is, in a few words.
func (f *Fault) Headline() string {
	switch f.Kind {
	case "usage":
		return "usage error, no case ran"
	case "cases":
		return "BUG IN TEST CASE, no case ran"
	}
	return "the adapter could not be started"
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

// Conformant reports whether nothing makes the run nonconformant (see
// Reasons).
func (r *Report) Conformant() bool { return len(Reasons(r)) == 0 }
