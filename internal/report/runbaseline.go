package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// BaselineEntry is one entry WriteRunBaseline writes, in the format of
// package baseline (a case entry).
type BaselineEntry struct {
	ID          string `yaml:"id"`
	Reason      string `yaml:"reason"`
	Requirement string `yaml:"requirement,omitempty"`
}

// RunBaseline returns a baseline entry for every case of the run that
// fails (fail, error, timeout, crash) or is an expected failure (xfail), in
// case order:
//
//   - reason is "<verdict>: <first diff>" ("fail: content: first
//     difference at byte 7 …") or "<verdict>: <message>" for a fault; an
//     xfail case keeps the reason of the baseline entry that matched it;
//   - requirement is the first requirement the case both cites and
//     breaks, when there is one (a fault breaks nothing, and a requirement
//     only a property check names would keep the entry from matching the
//     case once it passes, hiding the stale entry).
//
// Passing, unsupported and skipped cases, and stale entries (xpass), get
// no entry.
func RunBaseline(r *runner.Report) []BaselineEntry {
	out := []BaselineEntry{}
	for i := range r.Cases {
		c := &r.Cases[i]
		if !c.Verdict.Failing() && c.Verdict != verdict.XFail {
			continue
		}
		e := BaselineEntry{ID: c.ID}
		switch {
		case c.Verdict == verdict.XFail && strings.TrimSpace(c.Baseline) != "":
			e.Reason = c.Baseline
		case c.Verdict == verdict.XFail:
			e.Reason = "xfail: " + oneLine(caseReason(c), 200)
		default:
			e.Reason = string(c.Verdict) + ": " + oneLine(caseReason(c), 200)
		}
		if strings.TrimSpace(e.Reason) == "" || strings.HasSuffix(e.Reason, ": ") {
			e.Reason = strings.TrimSuffix(e.Reason, ": ") + " (no message)"
		}
		for _, id := range c.Broken {
			if contains(c.Requirements, id) {
				e.Requirement = id
				break
			}
		}
		if e.Requirement == "" && len(c.Broken) > 0 {
			e.Requirement = c.Broken[0] // blamed, though the case does not cite it
		}
		out = append(out, e)
	}
	return out
}

// WriteRunBaseline writes RunBaseline(r) as baseline YAML, headed by a
// comment naming the implementation and source (e.g. the report file), and
// returns the number of entries.
func WriteRunBaseline(w io.Writer, r *runner.Report, source string) (int, error) {
	entries := RunBaseline(r)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# conform baseline: the known failures of %s (%s),\n", oneLine(ImplementationName(r), 200), plural(len(entries), "entry"))
	fmt.Fprintf(&b, "# written by `conform baseline write` from %s.\n", oneLine(source, 200))
	b.WriteString("# Each entry turns its failing case into xfail; an entry whose case passes\n")
	b.WriteString("# (xpass) fails the run, so remove entries as cases get fixed.\n")
	if len(entries) == 0 {
		b.WriteString("[]\n")
	} else {
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(entries); err != nil {
			return 0, err
		}
		if err := enc.Close(); err != nil {
			return 0, err
		}
	}
	_, err := w.Write(b.Bytes())
	return len(entries), err
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
